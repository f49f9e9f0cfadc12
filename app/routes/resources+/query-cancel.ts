import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { redirectWithToast } from '~/utils/toast.server'
import { editorLink, readOptions, resultLink } from '~/utils/query-options'
import { uiSettings } from '~/services/query/run.server'
import { cancelRun } from '~/services/query/result-cache.server'

/**
 * POST /resources/query-cancel (the query form's fields: `sql` and the options): stops this user's
 * run of that query on the cluster, and goes back to the editor with the query as it was typed. A
 * plain form post, so a browser without scripts cancels too (its pending run is left behind, which
 * also stops it). A run that had already finished opens its result instead.
 */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const form = await request.formData()
  const params = new URLSearchParams()
  for (const [key, value] of form)
    if (typeof value === 'string' && value.trim() !== '' && key !== 'intent') params.append(key, value)
  const sql = params.get('sql') ?? ''
  const options = readOptions(params)
  const outcome = cancelRun(api, sql, uiSettings(options))
  const optionsQuery = new URLSearchParams(options).toString()
  if (outcome === 'finished')
    return redirectWithToast(`${resultLink(sql, optionsQuery)}#result`, {
      title: 'The query had already finished: here is its result',
      type: 'info',
    })
  const back = editorLink(sql, optionsQuery)
  if (outcome === 'none')
    return redirectWithToast(back, { title: 'This query is not running: nothing to cancel', type: 'info' })
  return redirectWithToast(back, { title: 'Query canceled: the cluster stopped it', type: 'success' })
}
