import { isChangingStatement } from '~/utils/sql'
import type { ClusterApi } from './client.server'
import { ClusterError } from './errors.server'

/**
 * The engine refused the statement: the query API's 400 `{"error", "query"}`. `message` is the
 * response body's error text (spec section 8: a bad request on a query shows the response body).
 */
export class QueryError extends ClusterError {
  readonly query: string
  constructor(message: string, query: string) {
    // a ClusterError like any other (decision 103): status 400, the body the engine's text, which is
    // also what `mapped` gives (one form error), so every failure policy takes it as it is
    super({ status: 400, body: message, message })
    this.name = 'QueryError'
    this.query = query
  }
}

/**
 * The label (`hdx_query_label`) on the console's own queries: its reads of the query log, the
 * saved-query store, the schema, System Health. The cluster records it with each query
 * (`hdx.active_queries.label`), so Insights and the dashboard's query figures leave them out.
 */
export const CONSOLE_QUERY_LABEL = 'cluster-console'

/** `settings` with the console's own label: for a query the console runs for itself, not one a user wrote. */
export function consoleRead(settings: Record<string, string> = {}): Record<string, string> {
  return { ...settings, hdx_query_label: CONSOLE_QUERY_LABEL }
}

/**
 * Sends `sql` to `POST {cluster}/query` with `settings` as URL parameters (empty values dropped)
 * through the session's client, and returns the cluster's answer (status 200) for the caller to
 * read or stream. The call is aborted with the console request (a user navigating away cancels the
 * query), or with `run.signal` instead when given, and after the client's time-out; `run.queryId`
 * names the query on the cluster (its `query_id`), to find it in `hdx.active_queries` while it runs. Throws
 * QueryError for the engine's 400, ClusterError for
 * anything else (408 on time-out, 503 when nothing answered); a 401 ends the session (the client).
 */
export async function queryCluster(
  api: ClusterApi,
  sql: string,
  settings: Record<string, string> = {},
  run: { signal?: AbortSignal; queryId?: string } = {},
): Promise<Response> {
  try {
    return await api.stream('POST', '/query', queryCall(sql, settings, run))
  } catch (error) {
    throw asQueryError(error, sql)
  }
}

/** The query API's call: `sql` as the body, `settings` (and the query's name) as URL parameters. */
function queryCall(sql: string, settings: Record<string, string>, run: { signal?: AbortSignal; queryId?: string }) {
  return {
    params: run.queryId ? { ...settings, query_id: run.queryId } : settings,
    signal: run.signal,
    // a statement that changes nothing forgets no kept read (client.server's `sent`)
    isRead: !isChangingStatement(sql),
    body: sql,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  }
}

/** The engine's 400 as QueryError (its `error` text, else the body); any other failure as it is. */
function asQueryError(error: unknown, sql: string): unknown {
  if (error instanceof ClusterError && error.status === 400 && !(error instanceof QueryError)) {
    const body = error.body
    const record = body && typeof body === 'object' ? (body as { error?: unknown; query?: unknown }) : {}
    const text = typeof body === 'string' ? body.trim() : ''
    const message = typeof record.error === 'string' ? record.error : text || 'Bad Request'
    return new QueryError(message, typeof record.query === 'string' ? record.query : sql)
  }
  return error
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
export async function runQuery(
  api: ClusterApi,
  sql: string,
  settings: Record<string, string> = {},
): Promise<QueryText> {
  const started = performance.now()
  let answer
  try {
    // read whole over node:http, not fetch: the console's own reads are small and read at once
    answer = await api.whole('POST', '/query', queryCall(sql, settings, {}))
  } catch (error) {
    throw asQueryError(error, sql)
  }
  return {
    text: answer.text,
    format: answer.header('x-clickhouse-format') ?? '',
    stats: parseQueryStats(answer.header('x-hdx-query-stats')),
    queryId: answer.header('x-clickhouse-query-id'),
    elapsedMs: Math.round(performance.now() - started),
  }
}
