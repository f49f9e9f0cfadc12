import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { jsonFromCluster } from '~/api/policies.server'
import { PICKER_LIMIT, searchTables } from '~/api/table-search.server'

/**
 * GET /resources/table-search?q=…: the tables a picker suggests as the user types (with scripts;
 * issue 33), as JSON `{choices, hasMore}`: the same list the picker's GET search gives without them.
 * `&kind=raw` leaves out summary tables (the summary and view forms' pickers); `&kind=scope` keeps
 * the console's own store (a security scope: the role form's picker).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const q = params.get('q') ?? ''
  const asked = params.get('kind')
  const kind = asked === 'raw' || asked === 'scope' ? asked : 'any'
  return jsonFromCluster(() => searchTables(api, q.trim(), PICKER_LIMIT, kind))
}
