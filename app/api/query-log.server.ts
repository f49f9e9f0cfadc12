import type { ClusterApi } from './client.server'
import { ClusterError } from './errors.server'
import { sqlString } from '~/utils/sql'
import { CONSOLE_QUERY_LABEL, consoleRead, runQuery } from './query.server'

/** One query of the cluster's query log (`hdx.active_queries`). */
export type LoggedQuery = {
  id: string
  /** ISO time the query started (UTC). */
  start: string
  user: string
  query: string
  /** Elapsed so far for a running query, else the whole run, in ms. */
  execMs: number
  rowsRead: number
  bytesRead: number
  error: string
}

export type QueryInsights = {
  running: LoggedQuery[]
  slowest: LoggedQuery[]
  failed: LoggedQuery[]
  /** The oldest start the log still holds in the window (a real cluster keeps a few minutes). */
  oldest: string | null
  /** The engine's or cluster's message when the log cannot be read (permissions, an older cluster). */
  error: string | null
}

const LIMIT = 20

/** `2026-11-24 10:00:00.123` (the log's UTC time) as ISO. */
function isoOf(value: unknown): string {
  const text = String(value ?? '')
  return text ? `${text.replace(' ', 'T')}Z` : ''
}

function rowsOf(text: string): LoggedQuery[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>
      return {
        id: String(row.query_id ?? ''),
        start: isoOf(row.query_start),
        user: String(row.user ?? ''),
        query: String(row.query ?? ''),
        execMs: Number(row.exec_time_ms ?? 0),
        rowsRead: Number(row.rows_read ?? 0),
        bytesRead: Number(row.bytes_read ?? 0),
        error: String(row.error ?? ''),
      }
    })
}

/**
 * The WHERE clause over `hdx.active_queries` for the users' queries of the last `minutes`
 * (optionally one user's): the console's own queries are left out, those labelled as its own
 * (`CONSOLE_QUERY_LABEL`) and, from before the label, its reads of the log and of its store.
 * Insights and the dashboard's query figures both count with it, so they agree.
 */
export function usersQueriesWhere({ minutes, user }: { minutes: number; user: string | null }): string {
  return [
    `query_start > now() - INTERVAL ${Math.max(1, Math.floor(minutes))} MINUTE`,
    `label != ${sqlString(CONSOLE_QUERY_LABEL)}`,
    "position(query, 'hdx.active_queries') = 0",
    "position(query, 'cluster_console') = 0",
    ...(user ? [`user = ${sqlString(user)}`] : []),
  ].join(' AND ')
}

const SETTINGS = consoleRead({ hdx_query_output_format: 'JSONEachRow', output_format_json_quote_64bit_integers: '0' })

/** `{oldest, n}` of the log's span query: the oldest start it holds (ISO) or null when it holds none. */
function oldestOf(text: string): string | null {
  const row = JSON.parse(text.trim() || '{}') as { oldest?: string; n?: number }
  return Number(row.n ?? 0) > 0 ? isoOf(row.oldest) : null
}

/**
 * The slowest finished queries, the failed ones (newest first) and those running now, of the last
 * `minutes`, from the cluster's query log `hdx.active_queries`; `user` keeps one user's only. The
 * console's own queries are left out (`usersQueriesWhere`). Never throws for a log the cluster
 * refuses: `error` says why.
 */
export async function loadQueryInsights(
  api: ClusterApi,
  { minutes, user }: { minutes: number; user: string | null },
): Promise<QueryInsights> {
  const where = usersQueriesWhere({ minutes, user })
  const columns = 'query_id, query_start, user, query, exec_time_ms, rows_read, bytes_read, error'
  const statements = [
    `SELECT ${columns} FROM hdx.active_queries WHERE ${where} AND active = 1 ORDER BY query_start LIMIT ${LIMIT}`,
    `SELECT ${columns} FROM hdx.active_queries WHERE ${where} AND active = 0 AND error = '' ` +
      `ORDER BY exec_time_ms DESC, query_start DESC LIMIT ${LIMIT}`,
    `SELECT ${columns} FROM hdx.active_queries WHERE ${where} AND error != '' ORDER BY query_start DESC LIMIT ${LIMIT}`,
    `SELECT min(query_start) AS oldest, count() AS n FROM hdx.active_queries WHERE ${where}`,
  ]
  try {
    const [running, slowest, failed, span] = await Promise.all(statements.map((sql) => runQuery(api, sql, SETTINGS)))
    return {
      running: rowsOf(running!.text),
      slowest: rowsOf(slowest!.text),
      failed: rowsOf(failed!.text),
      oldest: oldestOf(span!.text),
      error: null,
    }
  } catch (error) {
    if (api.signal?.aborted) throw error
    // 400: the engine refused the statement (a QueryError); 403: the user may not read the log
    if (error instanceof ClusterError && (error.status === 400 || error.status === 403)) {
      return { running: [], slowest: [], failed: [], oldest: null, error: error.message }
    }
    throw error
  }
}

/** How many of the users' queries the log holds for the last `minutes`, how many failed, and since when. */
export type QueryCounts = { queries: number; failed: number; oldest: string | null }

/**
 * The users' queries and failed queries of the last `minutes` as Insights counts them (the same log,
 * the same `usersQueriesWhere`), for the dashboard. Returns null when the cluster refuses the log
 * (permissions, an older cluster); throws ClusterError otherwise.
 */
export async function countUsersQueries(api: ClusterApi, minutes: number): Promise<QueryCounts | null> {
  const where = usersQueriesWhere({ minutes, user: null })
  try {
    const answer = await runQuery(
      api,
      `SELECT count() AS n, countIf(error != '') AS failed, min(query_start) AS oldest FROM hdx.active_queries WHERE ${where}`,
      SETTINGS,
    )
    const row = JSON.parse(answer.text.trim() || '{}') as { n?: number; failed?: number }
    return { queries: Number(row.n ?? 0), failed: Number(row.failed ?? 0), oldest: oldestOf(answer.text) }
  } catch (error) {
    if (api.signal?.aborted) throw error
    if (error instanceof ClusterError && (error.status === 400 || error.status === 403)) return null
    throw error
  }
}
