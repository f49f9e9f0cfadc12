import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { downloadDictionaryFile } from '~/api/dictionary-files.server'
import { answerFromCluster } from '~/api/policies.server'

/**
 * GET /resources/dictionary-file/:projectId/:name: a dictionary file's bytes as a download,
 * streamed from the cluster (the token stays on the server). A failure answers plain text with the
 * catalogue's message and status.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const name = params.name!
  return answerFromCluster(
    async () => {
      const answer = await downloadDictionaryFile(api, params.projectId!, name)
      const headers = new Headers({
        'Content-Type': answer.headers.get('content-type') ?? 'application/octet-stream',
        'Content-Disposition': `attachment; filename="${name.replace(/["\\]/g, '_')}"`,
        'Cache-Control': 'no-store',
      })
      const length = answer.headers.get('content-length')
      if (length) headers.set('Content-Length', length)
      return new Response(answer.body, { headers })
    },
    (error) =>
      new Response(error.message, { status: error.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
  )
}
