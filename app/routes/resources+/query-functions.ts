import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { loadEngineFunctions } from '~/services/query/schema.server'

/**
 * GET /resources/query-functions: the engine's function names as a JSON array, for the editor's
 * autocomplete (fetched once per editor, with scripts only). Empty when the cluster does not list them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const names = await loadEngineFunctions(api)
  return new Response(JSON.stringify(names), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, max-age=600' },
  })
}
