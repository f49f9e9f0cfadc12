/**
 * The query API: `POST /query` (SQL in the body) and `GET /query?query=`. Settings are layered
 * (later wins): org query options → project and table `default_query_options` of the tables the
 * statement names → `X-HDX-query-settings` header → URL parameters → the statement's own SETTINGS.
 * `hdx_query_*` options map onto the engine's limits where one exists; the rest are recorded and
 * dropped. ALTER TABLE ... UPDATE|DELETE creates an alter job instead of running.
 */
import crypto from 'node:crypto'
import type { Ctx } from '../context'
import { HttpError, json, reply } from '../http'
import { requireUser, can, type User } from '../config/access'
import { KINDS, parentOf } from './catalog'
import { EngineError, ident, lit, toEngineError } from './engine'
import type { Resource } from '../hooks'
import type { Plane, QueryRecord } from './plane'
import { isWriteStatement, parseAlter, renderSetting, splitQuery, type SettingValue } from './sql'
import { createAlterJob } from './jobs'
import { readBody } from './ingest'

/** hdx_query_* options that are real engine limits, and the engine setting they become. */
export const HDX_TO_ENGINE: Record<string, string> = {
  hdx_query_max_execution_time: 'max_execution_time',
  hdx_query_max_result_rows: 'max_result_rows',
  hdx_query_max_result_bytes: 'max_result_bytes',
  hdx_query_max_memory_usage: 'max_memory_usage',
  hdx_query_max_rows: 'max_rows_to_read',
  hdx_query_max_columns_to_read: 'max_columns_to_read',
  hdx_query_max_streams: 'max_threads',
}

/** URL parameters that are part of the HTTP interface, not settings. */
const NOT_SETTINGS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'user',
  'password',
  'session_id',
  'session_timeout',
  'session_check',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'client_protocol_version',
  'quota_key',
  'stacktrace',
  'role',
])

const CONTENT_TYPES: [RegExp, string][] = [
  [/^JSON(Compact)?(Strings)?$/i, 'application/json; charset=UTF-8'],
  [/^(JSON|NDJSON|JSONL)/i, 'application/x-ndjson; charset=UTF-8'],
  [/^CSV/i, 'text/csv; charset=UTF-8; header=absent'],
  [/^(TSV|TabSeparated)/i, 'text/tab-separated-values; charset=UTF-8'],
  [/^(Native|RowBinary|Parquet|Arrow|ArrowStream|ORC|Avro)/i, 'application/octet-stream'],
  [/^XML$/i, 'application/xml; charset=UTF-8'],
]

/** The row formats the console and clients read, and their twin that reports the engine's progress. */
const WITH_PROGRESS: Record<string, string> = {
  JSONEachRow: 'JSONEachRowWithProgress',
  JSONCompactEachRow: 'JSONCompactEachRowWithProgress',
}

/**
 * A WithProgress answer as its plain format answers it (each `{"row":X}` line is X, byte for byte;
 * its other lines go: meta, progress, rows_before_limit_at_least, totals), with the rows and bytes
 * read from its last progress line.
 */
function withoutProgress(ran: { bytes(): Uint8Array; rowsRead: number; bytesRead: number; elapsed: number }) {
  const text = Buffer.from(ran.bytes()).toString('utf8')
  const out: string[] = []
  let rowsRead = ran.rowsRead
  let bytesRead = ran.bytesRead
  for (const line of text.split('\n')) {
    if (line === '') continue
    if (line.startsWith('{"row":')) out.push(line.slice(7, -1))
    else if (line.startsWith('{"progress":')) {
      const progress = (JSON.parse(line) as { progress: { read_rows?: string; read_bytes?: string } }).progress
      if (progress.read_rows !== undefined) rowsRead = Number(progress.read_rows)
      if (progress.read_bytes !== undefined) bytesRead = Number(progress.read_bytes)
    } else if (line.startsWith('{"exception":')) out.push(line)
    // meta, rows_before_limit_at_least, totals, extremes: lines the plain format does not write
  }
  const bytes = new Uint8Array(Buffer.from(out.length ? out.join('\n') + '\n' : '', 'utf8'))
  return { bytes: () => bytes, rowsRead, bytesRead, elapsed: ran.elapsed }
}

function contentType(format: string): string {
  for (const [re, type] of CONTENT_TYPES) if (re.test(format)) return type
  return 'text/plain; charset=UTF-8'
}

/** Parses `k=v` pairs from the X-HDX-query-settings header(s) (comma, ampersand or space separated). */
export function parseSettingsHeader(value: string | null): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {}
  if (!value) return out
  for (const part of value.split(/[,&;]|\s+/)) {
    const i = part.indexOf('=')
    if (i <= 0) continue
    const k = part.slice(0, i).trim()
    let v = part.slice(i + 1).trim()
    try {
      v = decodeURIComponent(v)
    } catch {
      // keep as is
    }
    if (k) out[k] = v
  }
  return out
}

function orgQueryOptions(plane: Plane): Record<string, SettingValue> {
  const { store } = plane.cluster
  // read in place (the layers are only read)
  const candidates = [...store.values<Resource>('query_options'), ...store.values<Resource>('org_query_options')]
  for (const c of candidates) {
    const opts = c?.settings?.default_query_options ?? c?.default_query_options
    if (opts && typeof opts === 'object') return opts
  }
  for (const org of store.values<Resource>(KINDS.org)) {
    const opts = org?.settings?.default_query_options ?? org?.query_options?.settings?.default_query_options
    if (opts && typeof opts === 'object') return opts
  }
  return {}
}

/** The tables a statement names as `project.table` (backticks allowed). */
export function referencedTables(
  plane: Plane,
  sql: string,
): { project: Readonly<Resource>; table: Readonly<Resource> }[] {
  const { store } = plane.cluster
  const found: { project: Readonly<Resource>; table: Readonly<Resource> }[] = []
  let projects: Map<string, Readonly<Resource>> | undefined
  // the stored tables and projects are read in place, not copied: the query only reads them
  for (const table of store.values<Resource>(KINDS.table)) {
    // a table's name is in the SQL at all (a plain substring test) before its pattern is tried
    if (!sql.includes(table.name)) continue
    projects ??= new Map([...store.values<Resource>(KINDS.project)].map((p) => [p.uuid, p]))
    const project = projects.get(parentOf(table as Resource, 'project'))
    if (project && tablePattern(project.name, table.name).test(sql)) found.push({ project, table })
  }
  return found
}

const tablePatterns = new Map<string, RegExp>()
function tablePattern(project: string, table: string): RegExp {
  const key = `${project}\u0000${table}`
  let re = tablePatterns.get(key)
  if (!re) {
    const p = project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const t = table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    re = new RegExp(`(^|[^\\w\`])\`?${p}\`?\\s*\\.\\s*\`?${t}(#[^\`\\s]*)?\`?(?![\\w])`)
    if (tablePatterns.size > 10_000) tablePatterns.clear()
    tablePatterns.set(key, re)
  }
  return re
}

/**
 * Views: ``project.`table#view` `` reads the view's columns of the table, as a subquery
 * (`(SELECT a, b FROM project.table)`), since the engine has no such names.
 */
export function expandViews(plane: Plane, sql: string): string {
  if (!sql.includes('#')) return sql
  return sql.replace(/(`[^`]+`|[\w-]+)\s*\.\s*`([^`#]+)#([^`]+)`/g, (whole, p: string, t: string, v: string) => {
    const projectName = p.replace(/^`|`$/g, '')
    const project = plane.cluster.store.find<Resource>(KINDS.project, (x) => x.name === projectName)
    if (!project) return whole
    const table = plane.cluster.store.find<Resource>(
      KINDS.table,
      (x) => parentOf(x, 'project') === project.uuid && x.name === t,
    )
    if (!table) return whole
    const view = plane.cluster.store.find<Resource>('view', (x) => parentOf(x, 'table') === table.uuid && x.name === v)
    if (!view) return whole
    const cols = ((view.settings?.output_columns ?? []) as { name: string }[]).filter((c) => c?.name)
    const list = cols.length ? cols.map((c) => ident(c.name)).join(', ') : '*'
    return `(SELECT ${list} FROM ${ident(projectName)}.${ident(t)})`
  })
}

/**
 * `system.tables` as a cluster presents it: the tables of projects (and `hydro`, `hdx`) have the engine
 * `TurbineStorage`, which is what clients filter on (the grafana plugin lists projects and tables
 * with `WHERE engine = 'TurbineStorage'`). Outside string literals, `system.tables` is read through
 * a subquery that renames the engine of those tables.
 */
export function presentSystemTables(plane: Plane, sql: string): string {
  if (!/system\s*\.\s*tables/i.test(sql)) return sql
  const databases = [
    ...new Set([...plane.cluster.store.all<Resource>(KINDS.project).map((p) => p.name), 'hydro', 'hdx']),
  ]
  const list = databases.map((d) => lit(String(d))).join(', ')
  const view =
    `(SELECT * REPLACE (if(database IN (${list}) AND (engine LIKE '%MergeTree' OR engine = ` +
    `'View'), 'TurbineStorage', engine) AS engine) FROM system.tables)`
  // replace only outside single-quoted strings and backquoted identifiers
  return sql
    .split(/('(?:[^'\\]|\\.)*'|`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/\bsystem\s*\.\s*tables\b/gi, view)))
    .join('')
}

/** Engine settings the cluster sets itself and no layer passes on (refused, or already satisfied). */
const CLUSTER_OWNED_SETTINGS = new Set(['readonly', 'os_thread_priority'])

export interface ResolvedSettings {
  engine: Record<string, SettingValue>
  hdx: Record<string, SettingValue>
  format: string
  /** hdx options whose value the engine limit cannot take (a number is needed), as engine errors. */
  problems: string[]
}

/** Merges every layer and maps hdx options onto engine settings. */
export function resolveSettings(
  layers: Record<string, SettingValue>[],
  sqlFormat?: string,
  fallbackFormat = 'CSV',
): ResolvedSettings {
  const merged: Record<string, SettingValue> = {}
  for (const layer of layers)
    for (const [k, v] of Object.entries(layer)) if (v !== undefined && v !== null) merged[k] = v
  const engine: Record<string, SettingValue> = {}
  const hdx: Record<string, SettingValue> = {}
  const problems: string[] = []
  for (const [k, v] of Object.entries(merged)) {
    if (k.startsWith('hdx_')) {
      hdx[k] = v
      const target = HDX_TO_ENGINE[k]
      if (target && v !== '' && Number.isFinite(Number(v)) && typeof v !== 'boolean') engine[target] = Number(v)
      else if (target && v !== '')
        problems.push(
          `Code: 72. DB::Exception: Cannot parse ${JSON.stringify(String(v))} as a number for setting ${k}. (CANNOT_PARSE_NUMBER)`,
        )
    } else if (k === 'readonly') {
      // the query sessions are read-only already (readonly = 2) and the engine refuses to change it:
      // asking for read-only (mcp-hydrolix sends readonly=1 with every query) is already satisfied;
      // asking to lift it is refused as the engine would
      if (['0', 'false'].includes(String(v).trim().toLowerCase()))
        problems.push("Code: 164. DB::Exception: Cannot modify 'readonly' setting in readonly mode. (READONLY)")
      continue
    } else if (k === 'os_thread_priority') {
      // the query threads' priority is the cluster's (engine.ts), as a settings constraint would keep it
      problems.push(
        'Code: 452. DB::Exception: Setting os_thread_priority should not be changed. (SETTING_CONSTRAINT_VIOLATION)',
      )
      continue
    } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) {
      engine[k] = v
    }
  }
  // an explicit engine setting given in the same or a later layer than its hdx option wins: the
  // statement's own SETTINGS are the last layer and were applied last above, so re-apply them
  const last = layers[layers.length - 1] ?? {}
  for (const [k, v] of Object.entries(last)) if (!k.startsWith('hdx_') && !CLUSTER_OWNED_SETTINGS.has(k)) engine[k] = v
  const format =
    sqlFormat ??
    (typeof hdx.hdx_query_output_format === 'string' && hdx.hdx_query_output_format
      ? hdx.hdx_query_output_format
      : fallbackFormat)
  return { engine, hdx, format, problems }
}

function queryError(message: string, query: string, status = 400, headers: Record<string, string> = {}): Response {
  return json({ error: message, query }, status, headers)
}

export async function handleQuery(plane: Plane, ctx: Ctx): Promise<Response> {
  const { request, url, cluster } = ctx
  const user: User = requireUser(ctx)
  let sql = ''
  if (request.method === 'GET' || request.method === 'HEAD') sql = url.searchParams.get('query') ?? ''
  else {
    try {
      sql = await readBody(request)
    } catch (error) {
      return queryError(
        `Code: 432. ` +
          `DB::Exception: ${error instanceof HttpError ? String((error.body as { message?: string }).message) : String(error)} ` +
          `(UNKNOWN_CODEC)`,
        '',
        400,
      )
    }
    const fromUrl = url.searchParams.get('query')
    if (fromUrl) sql = fromUrl + (sql ? `\n${sql}` : '') // as ClickHouse: URL query then body
  }
  // The client may name its query (the engine's HTTP `query_id` parameter), to find it in
  // hdx.active_queries while it runs; a name already running is refused, as the engine does.
  const requestedId = url.searchParams.get('query_id') ?? ''
  const queryId = /^[A-Za-z0-9_.:-]{1,128}$/.test(requestedId) ? requestedId : crypto.randomUUID()
  const baseHeaders = {
    'x-clickhouse-query-id': queryId,
    'x-clickhouse-timezone': 'UTC',
    'x-clickhouse-server-display-name': 'local-cluster',
  }
  if (!sql.trim()) return queryError('Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)', sql, 400, baseHeaders)
  if (plane.queries.some((q) => q.active && q.query_id === queryId)) {
    return queryError(
      `Code: 216. DB::Exception: Query with id = ${queryId} is already running. (QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING)`,
      sql,
      400,
      baseHeaders,
    )
  }

  const split = splitQuery(sql)
  if (split.outsideFunctions.length) {
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'error' })
    return queryError(
      `Code: 497. DB::Exception: Table function ${split.outsideFunctions[0]}() reads outside ` +
        `the cluster and is not allowed through the query API. (ACCESS_DENIED)`,
      sql,
      400,
      baseHeaders,
    )
  }
  if (split.multi) {
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'error' })
    return queryError(
      'Code: 62. DB::Exception: Multi-statements are not allowed: send one statement per request. (SYNTAX_ERROR)',
      sql,
      400,
      baseHeaders,
    )
  }
  split.body = presentSystemTables(plane, expandViews(plane, split.body))
  const tables = referencedTables(plane, split.body)
  // select_sql in the scope of every table the statement names (or anywhere, for table-less SQL);
  // a refusal names the tables refused (issue 54, point 10: the user asks for the one they lack)
  const refused = tables.filter(
    ({ project, table }) => !can(cluster, user, 'select_sql', { projectId: project.uuid, tableId: table.uuid }),
  )
  if (refused.length) {
    const names = refused.map(({ project, table }) => `${project.name}.${table.name}`)
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]
    return json(
      {
        detail: `You do not have permission to query ${list}: it needs select_sql on ${names.length > 1 ? 'those tables' : 'that table'}.`,
      },
      403,
    )
  }
  if (!tables.length && !can(cluster, user, 'select_sql'))
    return json({ detail: 'You do not have permission to perform this action.' }, 403)

  // ALTER TABLE ... UPDATE|DELETE: an alter job, not a statement
  const alter = parseAlter(split.body)
  if (alter) {
    try {
      const job = await createAlterJob(plane, ctx, user, alter, sql)
      cluster.metrics.inc('queries_total', { service: 'query-head', status: 'alter' })
      return json({ job_id: job.uuid, message: `Alter job ${job.uuid} created`, status: job.status }, 200, {
        ...baseHeaders,
        'x-clickhouse-format': 'JSON',
      })
    } catch (error) {
      if (error instanceof EngineError) return queryError(error.message, sql, 400, baseHeaders)
      throw error
    }
  }
  if (isWriteStatement(split.firstWord)) {
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'error' })
    return queryError(
      `Code: 164. DB::Exception: ${split.firstWord || 'This'} statements are not allowed ` +
        `through the query API: it is read-only (use the config API, /ingest/event, or ALTER ` +
        `TABLE ... UPDATE|DELETE for alter jobs). (READONLY)`,
      sql,
      400,
      baseHeaders,
    )
  }

  const layers: Record<string, SettingValue>[] = [orgQueryOptions(plane)]
  for (const { project, table } of tables) {
    layers.push(project.settings?.default_query_options ?? {})
    layers.push(table.settings?.default_query_options ?? {})
  }
  for (const value of request.headers.get('x-hdx-query-settings')?.split(/\n/) ?? [])
    layers.push(parseSettingsHeader(value))
  const urlSettings: Record<string, SettingValue> = {}
  const params: Record<string, string> = {}
  for (const [k, v] of url.searchParams) {
    if (k.startsWith('param_')) params[k.slice(6)] = v
    else if (!NOT_SETTINGS.has(k) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) urlSettings[k] = v
  }
  const defaultFormat = url.searchParams.get('default_format')
  layers.push(urlSettings, split.settings)
  // the query API answers CSV by default; the engine's own interface at `/` answers TabSeparated, as
  // the engine does (clickhouse-connect's command() splits that on tabs)
  const resolved = resolveSettings(layers, split.format ?? undefined, url.pathname === '/' ? 'TabSeparated' : 'CSV')
  if (resolved.problems.length) {
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'error' })
    return queryError(resolved.problems[0], sql, 400, baseHeaders)
  }
  if (!split.format && defaultFormat && !resolved.hdx.hdx_query_output_format) resolved.format = defaultFormat
  const settingsSql = Object.entries(resolved.engine)
    .map(([k, v]) => renderSetting(k, v))
    .join(', ')
  // The statement carries its query id in a trailing comment: the engine's process list shows it,
  // so a client that goes away has its statement killed and a running one reports its progress.
  const marker = queryMarker(queryId)
  const finalSql = split.body + (settingsSql ? `\nSETTINGS ${settingsSql}` : '') + `\n${marker}`

  // a read of the system tables sees what was logged before it (only the table it reads is written)
  const readsLogs = /\bhydro\s*\.\s*logs\b/i.test(split.body)
  const readsQueries = /\bhdx\s*\.\s*(active_queries|query_history)\b/i.test(split.body)
  if (readsLogs || readsQueries) await plane.flushSystem({ logs: readsLogs, queries: readsQueries }).catch(() => {})
  for (const { project, table } of tables) if (table.type === 'summary') await ensureSummaryView(plane, project, table)

  const record: QueryRecord = {
    query_id: queryId,
    query_start: new Date().toISOString(),
    query_end: null,
    query: sql,
    user: user.email,
    comment: String(resolved.hdx.hdx_query_comment ?? resolved.hdx.hdx_query_label ?? ''),
    admin_comment: String(resolved.hdx.hdx_query_admin_comment ?? ''),
    label: String(resolved.hdx.hdx_query_label ?? ''),
    active: true,
    exec_time_ms: 0,
    rows_read: 0,
    bytes_read: 0,
    error: '',
  }
  plane.queries.push(record)
  const started = performance.now()
  try {
    // the engine's own count of rows read: chdb's rowsRead is the rows returned (2,331 for an
    // aggregate over 1M rows), so the row formats run as their WithProgress twin, whose last
    // progress line holds what the engine read, and the answer is the rows unwrapped (issue 54)
    const runFormat = WITH_PROGRESS[resolved.format] ?? resolved.format
    const ran = await plane.engine.run(finalSql, {
      format: runFormat,
      lane: 'query',
      cancel: { marker, signal: request.signal },
      params: Object.keys(params).length ? params : undefined,
    })
    const result = runFormat === resolved.format ? ran : withoutProgress(ran)
    const execMs = Math.round(performance.now() - started)
    const partitions = await partitionCount(plane, tables)
    Object.assign(record, {
      active: false,
      query_end: new Date().toISOString(),
      exec_time_ms: execMs,
      rows_read: result.rowsRead,
      bytes_read: result.bytesRead,
    })
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'ok' })
    const stats =
      `exec_time=${execMs} rows_read=${result.rowsRead} bytes_read=${result.bytesRead} ` +
      `num_partitions=${partitions} num_peers=1 query_attempts=1 memory_usage=0`
    return reply(request.method === 'HEAD' ? null : result.bytes(), 200, {
      ...baseHeaders,
      'content-type': contentType(resolved.format),
      'x-clickhouse-format': resolved.format,
      'x-hdx-query-stats': stats,
      'x-clickhouse-summary': JSON.stringify({
        read_rows: String(result.rowsRead),
        read_bytes: String(result.bytesRead),
        elapsed_ns: String(Math.round(result.elapsed * 1e9)),
      }),
    })
  } catch (error) {
    const e = toEngineError(error)
    Object.assign(record, {
      active: false,
      query_end: new Date().toISOString(),
      exec_time_ms: Math.round(performance.now() - started),
      error: e.message,
    })
    cluster.metrics.inc('queries_total', { service: 'query-head', status: 'error' })
    cluster.metrics.inc('query_errors_total', { service: 'query-head' })
    cluster.log({
      level: 'warning',
      service: 'query-head',
      component: 'query',
      message: `query ${queryId} failed for ${user.email}`,
      error: e.message,
    })
    return queryError(e.message, sql, 400, { ...baseHeaders, 'x-clickhouse-exception-code': String(e.code) })
  } finally {
    const cutoff = Date.now() - 3600_000
    while (
      plane.queries.length > 5000 ||
      (plane.queries.length && !plane.queries[0].active && Date.parse(plane.queries[0].query_start) < cutoff)
    )
      plane.queries.shift()
  }
}

/** The comment a /query statement carries in the engine: its query id, found in system.processes. */
export function queryMarker(queryId: string): string {
  return `/* hdx_query_id=${queryId} */`
}

/**
 * Summary tables (`type: summary`, `settings.summary.sql`) are served as engine views over their
 * SQL, created on first use (and again when the SQL changed): always current, never materialised.
 */
async function ensureSummaryView(plane: Plane, project: Resource, table: Resource) {
  const raw = String(table.settings?.summary?.sql ?? '').trim()
  if (!raw) return
  const body = expandViews(plane, splitQuery(raw).body)
  const key = `summary:${project.name}.${table.name}`
  if (summaryViews.get(key) === body) return
  const target = `${ident(project.name)}.${ident(table.name)}`
  try {
    await plane.engine.exec(`CREATE DATABASE IF NOT EXISTS ${ident(project.name)}`)
    const existing = await plane.engine.rows<{ engine: string }>(
      `SELECT engine FROM system.tables WHERE database = '${project.name.replace(/'/g, "\\'")}' ` +
        `AND name = '${table.name.replace(/'/g, "\\'")}'`,
    )
    if (existing.length && existing[0].engine !== 'View') return // a real table by that name: leave it
    await plane.engine.exec(`CREATE OR REPLACE VIEW ${target} AS ${body}`)
    summaryViews.set(key, body)
  } catch (error) {
    plane.cluster.log({
      level: 'warning',
      service: 'query-head',
      component: 'summary',
      message: `summary table ${project.name}.${table.name}: view not created`,
      error: toEngineError(error).message,
    })
  }
}

const summaryViews = new Map<string, string>()

/** How many partitions the tables hold (the stats header's num_partitions), each kept FIGURES_MS. */
async function partitionCount(plane: Plane, tables: { project: Resource; table: Resource }[]): Promise<number> {
  let total = 0
  for (const { project, table } of tables) {
    const key = `${project.name}.${table.name}`
    try {
      total += await plane.briefly(`partitions:${key}`, async () => {
        const rows = await plane.engine.rows<{ n: number }>(
          `SELECT uniqExact(partition) AS n FROM system.parts WHERE active AND database ` +
            `= ${lit(project.name)} AND table = ${lit(table.name)}`,
        )
        return Number(rows[0]?.n ?? 0)
      })
    } catch {
      // figures only
    }
  }
  return total
}
