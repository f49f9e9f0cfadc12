import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { answerFromCluster } from '~/api/policies.server'
import { createToastHeaders } from '~/utils/toast.server'
import { uploadFileAction } from '../_console+/data+/__file-upload.server'

/**
 * POST /resources/dictionary-file-upload[?project=&name= to replace]: the upload forms' XHR path
 * (with scripts, for the progress bar). The same checks and call as the pages' actions; answers
 * JSON: `{status: 'success', redirectTo}` with the toast's cookie, `{status: 'error', result}` (400)
 * for the form's errors, or `{status: 'error', message}` with the catalogue's status.
 */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const projectId = params.get('project')
  const name = params.get('name')
  const replace = projectId && name ? { projectId, name } : undefined
  return answerFromCluster(
    async () => {
      const outcome = await uploadFileAction(api, request, replace)
      if (outcome.status === 'error')
        return Response.json({ status: 'error', result: outcome.result }, { status: outcome.httpStatus ?? 400 })
      return Response.json(
        { status: 'success', redirectTo: outcome.redirectTo },
        { headers: { 'Set-Cookie': await createToastHeaders({ title: outcome.toast, type: 'success' }) } },
      )
    },
    (error) => Response.json({ status: 'error', message: error.message }, { status: error.status }),
  )
}
