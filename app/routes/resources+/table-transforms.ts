import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { jsonFromCluster } from '~/api/policies.server'
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
  return jsonFromCluster(async () => {
    const option = await tableTransformOption(api, table)
    if (!option) throw new ClusterError({ status: 404, message: `Table ${table} does not exist` })
    return { transforms: option.transforms ?? [] }
  })
}
