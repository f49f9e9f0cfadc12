import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { jsonFromCluster } from '~/api/policies.server'
import { searchBatchPools } from '~/api/pools.server'

/**
 * GET /resources/pool-search?q=…: the pools a batch job can run on whose name holds `q`, as the
 * batch job form's pool field suggests them while one types (with scripts; issue 33), as JSON
 * `{choices, hasMore}`: without `q`, the first pools by name, as the form's HTML lists them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const q = new URL(request.url).searchParams.get('q') ?? ''
  return jsonFromCluster(() => searchBatchPools(api, q))
}
