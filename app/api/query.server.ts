import { getClusterUrl, getEnv } from '~/utils/env.server'
import { requireSession } from '~/utils/session.server'
import { REQUEST_TIMEOUT_MS } from './client.server'
import { ClusterError } from './errors.server'

/**
 * The engine refused the statement: the query API's 400 `{"error", "query"}`. `message` is the
 * response body's error text (spec section 8: a bad request on a query shows the response body).
 */
export class QueryError extends Error {
  readonly status = 400
  readonly query: string
  constructor(message: string, query: string) {
    super(message)
    this.name = 'QueryError'
    this.query = query
  }
}

let timeoutMs = REQUEST_TIMEOUT_MS
/** Tests shorten the query time-out; returns a function that restores the previous value. */
export function setQueryTimeout(ms: number): () => void {
  const previous = timeoutMs
  timeoutMs = ms
  return () => {
    timeoutMs = previous
  }
}

/**
 * Sends `sql` to `POST {cluster}/query` with `settings` as URL parameters (empty values dropped)
 * and the session's bearer token, and returns the cluster's answer (status 200) for the caller to
 * read or stream. The call is aborted with the console request (a user navigating away cancels the
 * query) and after the 300000 ms time-out. Throws QueryError for the engine's 400, ClusterError for
 * anything else (408 on time-out, 503 when nothing answered), and redirects to login without a session.
 */
export async function queryCluster(request: Request, sql: string, settings: Record<string, string> = {}): Promise<Response> {
  const session = await requireSession(request)
  const params = new URLSearchParams(Object.entries(settings).filter(([, value]) => value !== ''))
  const url = `${getClusterUrl()}/query${params.size ? `?${params}` : ''}`
  const timeout = AbortSignal.timeout(timeoutMs)
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      body: sql,
      headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'text/plain; charset=utf-8' },
      signal: AbortSignal.any([request.signal, timeout]),
    })
  } catch (error) {
    if (timeout.aborted) throw new ClusterError({ status: 408, url })
    if (request.signal.aborted) throw error
    throw new ClusterError({ status: 503, url })
  }
  if (response.ok) return response
  const text = await response.text().catch(() => '')
  const body = parseJson(text)
  if (response.status === 400) {
    const record = body && typeof body === 'object' ? (body as { error?: unknown; query?: unknown }) : {}
    const message = typeof record.error === 'string' ? record.error : text.trim() || 'Bad Request'
    throw new QueryError(message, typeof record.query === 'string' ? record.query : sql)
  }
  throw new ClusterError({
    status: response.status,
    statusText: response.statusText,
    body,
    url,
    supportEmail: getEnv().SUPPORT_EMAIL,
  })
}

function parseJson(text: string): unknown {
  if (text === '') return ''
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Parses `x-hdx-query-stats` (`exec_time=12 rows_read=3 ...`) into its pairs, in order. */
export function parseQueryStats(header: string | null): Record<string, string> {
  const stats: Record<string, string> = {}
  for (const part of (header ?? '').trim().split(/\s+/)) {
    const index = part.indexOf('=')
    if (index > 0) stats[part.slice(0, index)] = part.slice(index + 1)
  }
  return stats
}

export type QueryText = {
  text: string
  /** The format the cluster answered in (`x-clickhouse-format`). */
  format: string
  stats: Record<string, string>
  queryId: string | null
  /** Round trip as the console measured it, in ms. */
  elapsedMs: number
}

/** Runs `sql` and returns the whole answer as text with its format and statistics; throws as queryCluster. */
export async function runQuery(request: Request, sql: string, settings: Record<string, string> = {}): Promise<QueryText> {
  const started = performance.now()
  const response = await queryCluster(request, sql, settings)
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    if (request.signal.aborted) throw error
    throw new ClusterError({ status: 503 })
  }
  return {
    text,
    format: response.headers.get('x-clickhouse-format') ?? '',
    stats: parseQueryStats(response.headers.get('x-hdx-query-stats')),
    queryId: response.headers.get('x-clickhouse-query-id'),
    elapsedMs: Math.round(performance.now() - started),
  }
}
