import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { answerFromCluster } from '~/api/policies.server'
import { queryCluster } from '~/api/query.server'
import { isChangingStatement } from '~/utils/sql'
import { NO_SQL_MESSAGE, QUERY_UI_MAX_ROWS, readOptions, validateOptions } from '~/utils/query-options'
import { uiSettings } from '~/services/query/run.server'
import { peekCachedRows, ROWS_FORMAT } from '~/services/query/result-cache.server'

/** Rows per chunk when rows are written from the cache. */
const CHUNK_ROWS = 1000

/**
 * GET /resources/query-rows?sql=…&<options>&run=…&from=N: rows N+1 onwards of the UI result (the 10,000-row
 * cap applies), one JSON array a line (`application/x-ndjson`), for the result grid to stream in
 * after the first page. Served from the result cache when the run is there (it usually is: the
 * result page just ran it); otherwise the cluster's own line-per-row answer is piped through,
 * never buffered. Failures answer plain text with the cluster's message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const sql = params.get('sql') ?? ''
  const options = readOptions(params)
  const errors = Object.values(validateOptions(options))
  const from = Math.max(0, Math.min(QUERY_UI_MAX_ROWS, Number.parseInt(params.get('from') ?? '0', 10) || 0))
  if (!sql.trim()) return text(NO_SQL_MESSAGE, 400)
  if (errors.length) return text(errors.join('\n'), 400)
  if (isChangingStatement(sql))
    return text('This statement changes data: run it from the Query page, where it asks you to confirm.', 400)
  const settings = uiSettings(options)
  if (settings.hdx_query_output_format !== ROWS_FORMAT)
    return text('Only results shown as a table stream as rows.', 400)
  // The run the page showed, when this process holds it; on another replica (or once it expired)
  // the rows come from the cluster, as a new read (issue 37).
  const cached = peekCachedRows(api, sql, settings, params.get('run') ?? '')
  if (cached) {
    try {
      const result = await cached
      return ndjson(fromCache(result.lines, from), result.lines.length)
    } catch (error) {
      if (api.signal?.aborted) throw error
      // The run failed or was stopped: ask the cluster below.
    }
  }
  // the engine's refusal (a QueryError) is a ClusterError of status 400: its text, as the spec says
  return answerFromCluster(
    async () => {
      const answer = await queryCluster(api, sql, { ...settings, hdx_query_output_format: 'JSONCompactEachRow' })
      // a statement with its own FORMAT answers in it: those are not rows for the grid (decision 095)
      const answered = answer.headers.get('x-clickhouse-format')
      if (answered && answered.toLowerCase() !== 'jsoncompacteachrow') {
        void answer.body?.cancel().catch(() => undefined)
        return text('Only results shown as a table stream as rows.', 400)
      }
      return ndjson(answer.body!.pipeThrough(rowWindow(from, QUERY_UI_MAX_ROWS)), null)
    },
    (error) => text(error.message, error.status),
  )
}

/** Rows `from` onwards, the cluster's own lines, a chunk at a time as the reader asks for them. */
function fromCache(lines: readonly string[], from: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let next = from
  return new ReadableStream({
    pull(controller) {
      if (next >= lines.length) return controller.close()
      const end = Math.min(lines.length, next + CHUNK_ROWS)
      controller.enqueue(encoder.encode(`${lines.slice(next, end).join('\n')}\n`))
      next = end
    },
  })
}

/** Passes lines `from` to `to` (0-based, end excluded) of a line-per-row stream, as they arrive. */
export function rowWindow(from: number, to: number): TransformStream<Uint8Array, Uint8Array> {
  let line = 0
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0
      let index = chunk.indexOf(10)
      let sliceStart = line >= from && line < to ? 0 : -1
      while (index >= 0) {
        line++
        if (line === from) sliceStart = index + 1
        if (line === to) {
          if (sliceStart >= 0) controller.enqueue(chunk.subarray(sliceStart, index + 1))
          controller.terminate()
          return
        }
        start = index + 1
        index = chunk.indexOf(10, start)
      }
      if (sliceStart >= 0 && line >= from && sliceStart < chunk.length) controller.enqueue(chunk.subarray(sliceStart))
    },
  })
}

function ndjson(body: ReadableStream<Uint8Array>, rowCount: number | null): Response {
  const headers = new Headers({
    'Content-Type': 'application/x-ndjson; charset=utf-8',
    'Cache-Control': 'private, no-store',
  })
  if (rowCount !== null) headers.set('X-Row-Count', String(rowCount))
  return new Response(body, { status: 200, headers })
}

function text(message: string, status: number): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
