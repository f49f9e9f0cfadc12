import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { findTable } from '~/api/tables.server'
import { getTransform } from '~/api/transforms.server'
import { TRANSFORM_MESSAGES } from '~/schemas/transform'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * The transform as a JSON file (what "Load transform from file" reads back): name, description,
 * type and settings, without the cluster's ids. A failure goes back to the editor with the spec's
 * message as a toast.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const transform = encodeURIComponent(params.transformId!)
  const editor = `/data/tables/${encodeURIComponent(params.tableId!)}/transform/edit/${transform}${url.search}`
  try {
    const { table, project } = await findTable(api, params.tableId!, url.searchParams.get('project'))
    const transform = await getTransform(api, project.uuid, table.uuid, params.transformId!)
    if (!transform?.name || !Array.isArray(transform.settings?.output_columns)) {
      return redirectWithToast(editor, { title: TRANSFORM_MESSAGES.downloadInvalid, type: 'error' })
    }
    const body = {
      name: transform.name,
      description: transform.description ?? '',
      type: transform.type,
      settings: transform.settings,
    }
    return new Response(`${JSON.stringify(body, null, 2)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${transform.name}.json"`,
        'Cache-Control': 'no-store',
      },
    })
  } catch (error) {
    if (error instanceof ClusterError)
      return redirectWithToast(editor, { title: TRANSFORM_MESSAGES.downloadFailed, type: 'error' })
    throw error
  }
}
