import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { redirectWithToast } from '~/utils/toast.server'
import { readOptions } from '../_console+/queries+/__query-options'
import { uiSettings } from '../_console+/queries+/__query.server'
import { cancelRun } from '../_console+/queries+/__result-cache.server'

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
  for (const [key, value] of form) if (typeof value === 'string' && value.trim() !== '' && key !== 'intent') params.append(key, value)
  const sql = params.get('sql') ?? ''
  const options = readOptions(params)
  const outcome = cancelRun(api, sql, uiSettings(options))
  const back = new URLSearchParams({ data: sql, ...options })
  if (outcome === 'finished') {
    const again = new URLSearchParams({ sql, ...options })
    return redirectWithToast(`/result?${again}#result`, { title: 'The query had already finished: here is its result', type: 'info' })
  }
  if (outcome === 'none') return redirectWithToast(`/queries?${back}`, { title: 'This query is not running: nothing to cancel', type: 'info' })
  return redirectWithToast(`/queries?${back}`, { title: 'Query canceled: the cluster stopped it', type: 'success' })
}
