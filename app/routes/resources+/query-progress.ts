import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { consoleRead, runQuery } from '~/api/query.server'
import { readOptions } from '~/utils/query-options'
import { uiSettings } from '~/services/query/run.server'
import { runProgress } from '~/services/query/result-cache.server'

export type QueryProgress = {
  state: 'running' | 'done' | 'canceled' | 'none'
  elapsedMs?: number
  rowsReceived?: number
  /** What the cluster's query log says the engine has read so far; null when it does not say. */
  rowsRead?: number | null
  bytesRead?: number | null
}

/**
 * GET /resources/query-progress?<the run's query>: where this user's run of that query stands, as
 * JSON, for the editor to show while it waits (elapsed time, rows received, and the rows the
 * engine has read so far from `hdx.active_queries`, where the cluster reports them).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const progress = runProgress(api, params.get('sql') ?? '', uiSettings(readOptions(params)))
  let body: QueryProgress =
    progress.state === 'running'
      ? {
          state: 'running',
          elapsedMs: progress.elapsedMs,
          rowsReceived: progress.rowsReceived,
          rowsRead: null,
          bytesRead: null,
        }
      : { state: progress.state }
  if (progress.state === 'running') {
    try {
      const answer = await runQuery(
        api,
        `SELECT rows_read, bytes_read FROM hdx.active_queries WHERE query_id = '${progress.queryId}' ORDER BY query_start DESC LIMIT 1`,
        consoleRead({ hdx_query_output_format: 'JSONEachRow', output_format_json_quote_64bit_integers: '0' }),
      )
      const row = answer.text.trim()
        ? (JSON.parse(answer.text.trim().split('\n')[0]!) as { rows_read?: number; bytes_read?: number })
        : null
      // the elapsed time as of this reading of the rows read, so the two figures agree
      if (row)
        body = {
          ...body,
          elapsedMs: Date.now() - progress.startedAt,
          rowsRead: Number(row.rows_read ?? 0),
          bytesRead: Number(row.bytes_read ?? 0),
        }
    } catch (error) {
      if (api.signal?.aborted) throw error
      // The cluster's query log is not readable (permissions, an older cluster): elapsed time and rows received only.
    }
  }
  return new Response(JSON.stringify(body), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
