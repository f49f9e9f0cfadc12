import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { answerFromCluster } from '~/api/policies.server'
import { createDictionaryAction } from '../_console+/data+/__dictionary-editor.server'

/**
 * POST /resources/dictionary-create: the new dictionary form sent by XHR when it carries an upload
 * (with scripts, so a progress bar can follow the bytes; issue 35). The same action as the page's;
 * answers JSON: `{status: 'success', redirectTo}` with the toast's cookie, `{status: 'error', result}`
 * (400) for the form's errors, or `{status: 'error', message}` with the cluster's status.
 */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return answerFromCluster(
    async () => {
      const outcome = await createDictionaryAction(api, request)
      if (outcome instanceof Response) {
        const headers = new Headers()
        const cookie = outcome.headers.get('Set-Cookie')
        if (cookie) headers.set('Set-Cookie', cookie)
        return Response.json({ status: 'success', redirectTo: outcome.headers.get('Location') }, { headers })
      }
      return Response.json({ status: 'error', result: outcome.data.result }, { status: outcome.init?.status ?? 400 })
    },
    (error) => Response.json({ status: 'error', message: error.message }, { status: error.status }),
  )
}
