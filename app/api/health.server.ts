import type { ClusterApi } from './client.server'
import { consoleRead } from './query.server'

/** One series of a Prometheus matrix answer. */
export type PromSeries = { metric: Record<string, string>; values: [number, string][] }

/**
 * GET {origin}/prometheus/api/v1/query_range: the series of `query` from `start` to `end` (ms)
 * every `stepSeconds`. Throws ClusterError; a 401 carries 'This panel cannot be accessed'.
 */
export async function queryRange(
  api: ClusterApi,
  options: { query: string; start: number; end: number; stepSeconds: number },
): Promise<PromSeries[]> {
  const search = new URLSearchParams({
    query: options.query,
    start: String(options.start / 1000),
    end: String(options.end / 1000),
    step: String(options.stepSeconds),
  })
  const body = await api.raw<{ data?: { result?: PromSeries[] } }>('GET', `/prometheus/api/v1/query_range?${search}`, {
    json: true,
    context: 'monitoring',
  })
  return Array.isArray(body?.data?.result) ? body.data.result : []
}

/** GET {origin}/prometheus/api/v1/label/{label}/values: every value a label takes. Throws ClusterError. */
export async function listLabelValues(api: ClusterApi, label: string): Promise<string[]> {
  const body = await api.raw<{ data?: unknown }>(
    'GET',
    `/prometheus/api/v1/label/${encodeURIComponent(label)}/values`,
    {
      json: true,
      context: 'monitoring',
    },
  )
  return Array.isArray(body?.data) ? body.data.filter((value): value is string => typeof value === 'string') : []
}

/** A PromQL string literal: `"…"` with backslashes and quotes escaped, so a URL value cannot change the expression. */
export function promString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

export type SqlParams = Record<string, { type: string; value: string | number }>

/**
 * Runs a SELECT through {origin}/query (`FORMAT JSON` is appended) and returns its rows. User
 * values never enter the SQL text: they travel as typed query parameters (`{name:Type}` in the SQL,
 * `param_name=` in the URL), which the engine binds itself. Throws ClusterError.
 */
export async function selectRows<Row>(api: ClusterApi, sql: string, params: SqlParams = {}): Promise<Row[]> {
  const search = new URLSearchParams({ query: `${sql}\nFORMAT JSON`, ...consoleRead() })
  for (const [name, { value }] of Object.entries(params)) search.set(`param_${name}`, String(value))
  const body = await api.raw<{ data?: Row[] }>('GET', `/query?${search}`, { json: true })
  return Array.isArray(body?.data) ? body.data : []
}

/** `{name:Type}`: a parameter placeholder for `selectRows` (names are ours, never user input). */
export function sqlParam(params: SqlParams, name: string, type: string, value: string | number): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name) || !/^[A-Za-z0-9()]+$/.test(type))
    throw new Error(`Bad SQL parameter ${name}:${type}`)
  params[name] = { type, value }
  return `{${name}:${type}}`
}

export type LogFilters = {
  start: number
  end: number
  service?: string
  level?: string
  /** The resource pool whose work logged the line (hydro.logs `pool`). */
  pool?: string
  component?: string
  container?: string
  /** Case-insensitive text searched in the message and the error. */
  search?: string
}

export type LogEntry = {
  timestamp: number
  level: string
  service: string
  component: string
  container: string
  message: string
  error: string
}

/** The WHERE clause over hydro.logs for `filters`, its values as parameters. */
function logsWhere(filters: LogFilters, params: SqlParams): string {
  const where = [
    `timestamp >= fromUnixTimestamp64Milli(${sqlParam(params, 'from_ms', 'Int64', Math.floor(filters.start))})`,
    `timestamp <= fromUnixTimestamp64Milli(${sqlParam(params, 'to_ms', 'Int64', Math.ceil(filters.end))})`,
  ]
  if (filters.service) where.push(`service = ${sqlParam(params, 'service', 'String', filters.service)}`)
  if (filters.level) where.push(`level = ${sqlParam(params, 'level', 'String', filters.level)}`)
  if (filters.pool) where.push(`pool = ${sqlParam(params, 'pool', 'String', filters.pool)}`)
  if (filters.component) where.push(`component = ${sqlParam(params, 'component', 'String', filters.component)}`)
  if (filters.container)
    where.push(`\`kubernetes.container_name\` = ${sqlParam(params, 'container', 'String', filters.container)}`)
  if (filters.search) {
    const needle = sqlParam(params, 'search', 'String', filters.search)
    where.push(
      `(positionCaseInsensitiveUTF8(message, ${needle}) > 0 OR positionCaseInsensitiveUTF8(error, ${needle}) > 0)`,
    )
  }
  return where.join('\n  AND ')
}

/** How many log entries match `filters`. Throws ClusterError. */
export async function countLogs(api: ClusterApi, filters: LogFilters): Promise<number> {
  const params: SqlParams = {}
  const rows = await selectRows<{ total: string | number }>(
    api,
    `SELECT count() AS total FROM hydro.logs\nWHERE ${logsWhere(filters, params)}`,
    params,
  )
  return Number(rows[0]?.total ?? 0)
}

/** One page of the log entries matching `filters`, newest first. Throws ClusterError. */
export async function listLogs(
  api: ClusterApi,
  filters: LogFilters,
  page: { limit: number; offset: number },
): Promise<LogEntry[]> {
  const params: SqlParams = {}
  const where = logsWhere(filters, params)
  const columns = [
    'toUnixTimestamp64Milli(timestamp) AS ts',
    'level',
    'service',
    'component',
    '`kubernetes.container_name` AS container',
    'message',
    'error',
  ].join(', ')
  const limit = sqlParam(params, 'limit', 'UInt32', page.limit)
  const offset = sqlParam(params, 'offset', 'UInt64', page.offset)
  const sql = `SELECT ${columns}
FROM hydro.logs
WHERE ${where}
ORDER BY timestamp DESC
LIMIT ${limit} OFFSET ${offset}`
  const rows = await selectRows<Record<string, unknown>>(api, sql, params)
  return rows.map((row) => ({
    timestamp: Number(row.ts),
    level: String(row.level ?? ''),
    service: String(row.service ?? ''),
    component: String(row.component ?? ''),
    container: String(row.container ?? ''),
    message: String(row.message ?? ''),
    error: String(row.error ?? ''),
  }))
}

export type LogFacets = {
  services: string[]
  levels: string[]
  pools: string[]
  components: string[]
  containers: string[]
}

/** The values the log filters can take (what hydro.logs holds). Throws ClusterError. */
export async function listLogFacets(api: ClusterApi): Promise<LogFacets> {
  const rows = await selectRows<Record<string, unknown>>(
    api,
    'SELECT groupUniqArray(200)(service) AS services, groupUniqArray(50)(level) AS levels, ' +
      'groupUniqArray(200)(pool) AS pools, groupUniqArray(200)(component) AS components, ' +
      'groupUniqArray(200)(`kubernetes.container_name`) AS containers FROM hydro.logs',
  )
  const list = (value: unknown) =>
    (Array.isArray(value) ? value : []).filter((item): item is string => typeof item === 'string' && item !== '').sort()
  const row = rows[0] ?? {}
  return {
    services: list(row.services),
    levels: list(row.levels),
    pools: list(row.pools),
    components: list(row.components),
    containers: list(row.containers),
  }
}
