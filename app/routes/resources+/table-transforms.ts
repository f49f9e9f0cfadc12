import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { answerFromCluster } from '~/api/policies.server'
import { tableTransformOption } from '~/api/transforms.server'

/**
 * GET /resources/table-transforms?table=project.table: the transforms of one table as the batch job
 * and pool forms list them (`{transforms: [{value, name, type, isDefault}]}`), read when the table is
 * picked (with scripts; decision 085): the forms' HTML carries the transforms of the table they
 * preselect only. 404 `{message}` when the org has no such table.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const table = new URL(request.url).searchParams.get('table') ?? ''
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' }
  return answerFromCluster(
    async () => {
      const option = await tableTransformOption(api, table)
      if (!option)
        return new Response(JSON.stringify({ message: `Table ${table} does not exist` }), { status: 404, headers })
      return new Response(JSON.stringify({ transforms: option.transforms ?? [] }), { headers })
    },
    (error) => new Response(JSON.stringify({ message: error.message }), { status: error.status, headers }),
  )
}
