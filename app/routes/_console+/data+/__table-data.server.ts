import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { listBatchJobs } from '~/api/jobs.server'
import { consoleRead, QueryError, runQuery, type QueryText } from '~/api/query.server'
import { autoBatchesOf, listSources } from '~/api/sources.server'
import type { Project } from '~/api/projects.server'
import type { Table } from '~/api/tables.server'
import { formatNumber } from '~/utils/format-number'
import { isNumericType, sqlName, tableRef } from '~/utils/sql'
import {
  DATA_PAGE_ROWS,
  DATA_PARAMS,
  FIGURE_WINDOWS,
  type ArrivalPart,
  type ColumnFigures,
  type ColumnKind,
  type DataColumn,
  type IngestState,
  type QueryCost,
  type RowsPart,
  type TableDataPart,
} from './__table-data-values'

/*
 * A table's data on its page (issue 51, points 3 and 4; decision 101): its newest rows, a column's
 * figures on request, and whether rows are arriving. Every read is the console's own (labelled, so
 * Insights leaves it out), bounded on both sides by the table's primary timestamp, so a huge table
 * costs what the window holds and a cluster that requires a time range takes each of them.
 */

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
/** How far back each step of the newest-rows read looks before it widens (the last step: all time). */
const ROW_STEPS: { label: string; ms: number | null }[] = [
  { label: 'the last hour', ms: HOUR },
  { label: 'the last day', ms: DAY },
  { label: 'the last 7 days', ms: 7 * DAY },
  { label: 'all time', ms: null },
]
/** The lower bound of "all time": a bound still, so a cluster that requires a time range takes it. */
const EPOCH = '1970-01-01 00:00:00'
/** A value longer than this is cut on the page (the workspace shows it whole). */
const CELL_MAX = 200
/** How many of the org's newest batch jobs are searched for ones that load this table. */
const BATCH_JOBS_READ = 100
/** An engine time as the rows' JSON prints it: what the page's cursors carry. */
const ENGINE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,9})?$/

type EngineJson = {
  meta?: { name: string; type: string }[]
  data?: unknown[]
  statistics?: { elapsed?: number; rows_read?: number; bytes_read?: number }
}

/** `2026-12-02 06:18:00.123`: a time in the engine's UTC text. */
export function engineTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ')
}

/** The ms of an engine UTC time text (`2026-12-02 06:18:00.123456`), NaN when it is not one. */
export function engineTimeMs(text: string): number {
  if (!ENGINE_TIME.test(text)) return Number.NaN
  const [whole, fraction = ''] = text.split('.')
  return Date.parse(`${whole!.replace(' ', 'T')}.${(fraction + '000').slice(0, 3)}Z`)
}

/** `toDateTime64('…', 9, 'UTC')`: the texts are the console's own or checked against ENGINE_TIME. */
function timeLiteral(text: string): string {
  if (!ENGINE_TIME.test(text)) throw new Error(`not an engine time: ${text}`)
  return `toDateTime64('${text}', 9, 'UTC')`
}

function between(column: string, from: string, to: string): string {
  return `${column} >= ${timeLiteral(from)} AND ${column} <= ${timeLiteral(to)}`
}

/** How a column's figures are computed, from its engine type (Nullable and LowCardinality unwrapped). */
export function columnKind(type: string): ColumnKind {
  const inner = type.replace(/^(?:(?:Nullable|LowCardinality)\()+/, '')
  if (isNumericType(type)) return 'number'
  if (/^Date/.test(inner)) return 'time'
  if (/^(String|FixedString|Enum|UUID|IPv[46]|Bool)\b/.test(inner)) return 'string'
  return 'other'
}

function costOf(answer: QueryText, body: EngineJson): QueryCost {
  const stats = answer.stats
  const number = (value: string | undefined, fallback: number | undefined) =>
    value !== undefined && Number.isFinite(Number(value)) ? Number(value) : (fallback ?? 0)
  // the larger of the cluster's header and the engine's own figures in the body: a cluster whose
  // header counts only what the head returned still has the engine's rows read in the JSON
  return {
    rowsRead: Math.max(number(stats.rows_read, 0), body.statistics?.rows_read ?? 0),
    bytesRead: Math.max(number(stats.bytes_read, 0), body.statistics?.bytes_read ?? 0),
    ms: number(stats.exec_time, answer.elapsedMs),
  }
}

function addCost(a: QueryCost, b: QueryCost): QueryCost {
  return { rowsRead: a.rowsRead + b.rowsRead, bytesRead: a.bytesRead + b.bytesRead, ms: a.ms + b.ms }
}

const NO_COST: QueryCost = { rowsRead: 0, bytesRead: 0, ms: 0 }

/** Runs one of the console's reads in `format`; returns the parsed answer and its cost. Throws as runQuery. */
async function read(api: ClusterApi, sql: string, format: 'JSON' | 'JSONCompactStrings') {
  const answer = await runQuery(api, sql, consoleRead({ hdx_query_output_format: format }))
  const body = JSON.parse(answer.text || '{}') as EngineJson
  return { body, cost: costOf(answer, body) }
}

/** The workspace's deep link for `sql` (the editor opens it; nothing runs until Run). */
export function workspaceHref(sql: string): string {
  return `/queries?${new URLSearchParams({ sql })}`
}

/** Why a read failed, as the page says it: the role's missing right is named, never a 500. */
function failure(error: unknown, ref: string): { denied: string | null; error: string | null } {
  if (error instanceof ClusterError && (error.status === 403 || error.status === 401))
    return { denied: `Your role cannot read the rows of ${ref} (it needs select_sql on the table).`, error: null }
  if (error instanceof QueryError) return { denied: null, error: error.message }
  if (error instanceof ClusterError) return { denied: null, error: error.message }
  throw error
}

type Target = {
  project: Pick<Project, 'uuid' | 'name'>
  table: Pick<Table, 'uuid' | 'name' | 'type' | 'primary_key' | 'settings'>
}

/** What the page's URL asks of the data part (prefixed `data_`, so the page's own parameters stay its own). */
export function readDataParams(url: URL) {
  const get = (name: string) => url.searchParams.get(name) ?? ''
  const cursor = (name: string) => (ENGINE_TIME.test(get(name)) ? get(name) : null)
  const skip = Number(get(DATA_PARAMS.skip))
  const window = get(DATA_PARAMS.window)
  return {
    before: cursor(DATA_PARAMS.before),
    after: cursor(DATA_PARAMS.after),
    skip: Number.isSafeInteger(skip) && skip > 0 && skip <= 100_000 ? skip : 0,
    column: get(DATA_PARAMS.column) || null,
    window: FIGURE_WINDOWS.some((entry) => entry.key === window) ? window : FIGURE_WINDOWS[1]!.key,
  }
}

/** How far ahead of now a row may be timestamped: the table's max_future_days, else a day. */
function futureMs(table: Target['table']): number {
  const days = Number(table.settings?.max_future_days)
  return Number.isFinite(days) && days > 0 ? Math.min(days, 3650) * DAY : DAY
}

/**
 * The table's data part: the page of rows the URL asks for, the figures of the column it names, and
 * what arrived in the last hour and day with the table's ingest sources. Never throws for what the
 * cluster refuses or fails: each part says so in its place.
 */
export async function loadTableData(api: ClusterApi, url: URL, target: Target): Promise<TableDataPart> {
  const { project, table } = target
  const ref = `${project.name}.${table.name}`
  const primary = table.primary_key || null
  const params = readDataParams(url)
  const now = Date.now()
  const upper = engineTime(now + futureMs(table))
  if (!primary) {
    return {
      ref,
      primary: null,
      rows: null,
      figures: null,
      arrival: null,
      ingest: await loadIngestState(api, target),
      message:
        table.type === 'summary'
          ? 'A summary table has no primary timestamp of its own to read its newest rows by: query it in the workspace.'
          : 'This table has no primary timestamp yet: publish a transform with a primary datetime column, then send it data.',
    }
  }
  const [rows, arrival, ingest] = await Promise.all([
    loadRows(api, target, primary, params, url.searchParams, now, upper),
    loadArrival(api, target, primary, now, upper),
    loadIngestState(api, target),
  ])
  const figures =
    params.column && rows.columns.some((column) => column.name === params.column)
      ? await loadFigures(
          api,
          target,
          primary,
          rows.columns.find((column) => column.name === params.column)!,
          params.window,
          now,
          upper,
        )
      : null
  // the newest row: from the arrival read, else from the newest page, else one cheap read of it
  if (arrival && !arrival.newest && !arrival.denied && !arrival.error) {
    const isNewestPage = !params.before && !params.after && !params.skip
    const first = rows.rows[0]?.[rows.primaryIndex]
    if (isNewestPage) arrival.newest = first ?? null
    else arrival.newest = await newestRow(api, target, primary, upper)
    arrival.isEmpty = isNewestPage && rows.isEmpty
  }
  if (arrival?.newest) {
    const at = engineTimeMs(arrival.newest)
    arrival.ageText = Number.isNaN(at) ? null : ageText(now - at)
  }
  return { ref, primary, rows, figures, arrival, ingest, message: null }
}

/** "4 minutes ago", "2 days ago", "in 3 hours": how long ago `ms` is, in the largest whole unit. */
export function ageText(ms: number): string {
  const ahead = ms < 0
  const span = Math.abs(ms)
  const units: [number, string][] = [
    [DAY, 'day'],
    [HOUR, 'hour'],
    [MINUTE, 'minute'],
    [1000, 'second'],
  ]
  for (const [size, name] of units) {
    if (span >= size) {
      const n = Math.floor(span / size)
      const text = `${n} ${name}${n === 1 ? '' : 's'}`
      return ahead ? `${text} ahead of now` : `${text} ago`
    }
  }
  return 'just now'
}

/**
 * The newest page (or the page the cursor names): the last hour first, widened to the day, the week
 * and all time only while it holds fewer rows than a page. A page reads one row more than it shows,
 * to know whether older (or newer) rows follow.
 */
async function loadRows(
  api: ClusterApi,
  { project, table }: Target,
  primary: string,
  params: ReturnType<typeof readDataParams>,
  search: URLSearchParams,
  now: number,
  upper: string,
): Promise<RowsPart> {
  const ref = tableRef(project.name, table.name)
  const ts = sqlName(primary)
  const isNewer = Boolean(params.after) && !params.before
  const anchor = params.before ?? params.after
  const anchorMs = anchor ? engineTimeMs(anchor) : now
  const limit = DATA_PAGE_ROWS + 1
  let cost = NO_COST
  let sql = ''
  let found: { meta: { name: string; type: string }[]; data: (string | null)[][] } = { meta: [], data: [] }
  const steps: string[] = []
  let windowText = ''
  let stopped: string | null = null
  for (const step of ROW_STEPS) {
    let from: string
    let to: string
    if (isNewer) {
      from = params.after!
      to = step.ms === null ? upper : engineTime(Math.min(anchorMs + step.ms, engineTimeMs(upper)))
    } else {
      from = step.ms === null ? EPOCH : engineTime(anchorMs - step.ms)
      to = params.before ?? upper
    }
    sql =
      `SELECT * FROM ${ref} WHERE ${between(ts, from, to)} ORDER BY ${ts} ${isNewer ? 'ASC' : 'DESC'} ` +
      `LIMIT ${limit}${params.skip ? ` OFFSET ${params.skip}` : ''}`
    try {
      const answer = await read(api, sql, 'JSONCompactStrings')
      cost = addCost(cost, answer.cost)
      found = { meta: answer.body.meta ?? [], data: (answer.body.data ?? []) as (string | null)[][] }
    } catch (error) {
      const { denied, error: message } = failure(error, `${project.name}.${table.name}`)
      if (denied || !steps.length)
        return emptyRows({ denied, error: message, sql, cost, keep: keptSearch(search).toString() })
      // a wider window refused (a table's max time range, say): the narrower window's rows stand
      stopped = message
      break
    }
    steps.push(step.label)
    windowText = step.ms === null ? 'all time' : step.label
    if (found.data.length >= limit) break
  }
  const columns: DataColumn[] = found.meta.map((column) => ({
    name: column.name,
    type: column.type,
    kind: columnKind(column.type),
  }))
  const primaryIndex = Math.max(
    0,
    columns.findIndex((column) => column.name === primary),
  )
  const hasMore = found.data.length > DATA_PAGE_ROWS
  const page = found.data.slice(0, DATA_PAGE_ROWS)
  if (isNewer) page.reverse()
  const cells = page.map((row) => row.map((value) => (value === null ? null : String(value))))
  const firstTs = cells[0]?.[primaryIndex] ?? null
  const lastTs = cells[cells.length - 1]?.[primaryIndex] ?? null
  // how many shown rows share the edge timestamp: the next page skips them (ties at a page's edge)
  const tiesAt = (value: string | null) =>
    value === null ? 0 : cells.filter((row) => row[primaryIndex] === value).length
  const base = keptSearch(search)
  const link = (set: Record<string, string>) => {
    const search = new URLSearchParams(base)
    for (const [name, value] of Object.entries(set)) search.set(name, value)
    return search
  }
  const sameEdge = (edge: string | null, cursor: string | null) => (edge !== null && edge === cursor ? params.skip : 0)
  const olderExists = isNewer ? true : hasMore
  const newerExists = isNewer ? hasMore : Boolean(params.before || params.skip)
  return {
    columns,
    primaryIndex,
    rows: cells.map((row) =>
      row.map((value) => (value !== null && value.length > CELL_MAX ? `${value.slice(0, CELL_MAX)}…` : value)),
    ),
    windowText,
    steps,
    stoppedBy: stopped,
    cost,
    sql,
    workspaceHref: workspaceHref(sql),
    isEmpty: cells.length === 0 && !params.before && !params.after && !params.skip,
    older:
      olderExists && lastTs
        ? link({
            [DATA_PARAMS.before]: lastTs,
            [DATA_PARAMS.skip]: String(tiesAt(lastTs) + (isNewer ? 0 : sameEdge(lastTs, params.before))),
          }).toString()
        : null,
    newer:
      newerExists && firstTs
        ? link({
            [DATA_PARAMS.after]: firstTs,
            [DATA_PARAMS.skip]: String(tiesAt(firstTs) + (isNewer ? sameEdge(firstTs, params.after) : 0)),
          }).toString()
        : null,
    newest: params.before || params.after || params.skip ? base.toString() : null,
    denied: null,
    error: stopped && !cells.length ? stopped : null,
    // the search the page's other links keep (project, …) for the column figures' links
    keep: base.toString(),
  }
}

/** The page's search without the data part's own parameters: what every link of the part keeps. */
function keptSearch(search: URLSearchParams): URLSearchParams {
  const names: string[] = Object.values(DATA_PARAMS)
  return new URLSearchParams([...search.entries()].filter(([name]) => !names.includes(name)))
}

function emptyRows(part: {
  denied: string | null
  error: string | null
  sql: string
  cost: QueryCost
  keep: string
}): RowsPart {
  return {
    columns: [],
    primaryIndex: 0,
    rows: [],
    windowText: '',
    steps: [],
    stoppedBy: null,
    cost: part.cost,
    sql: part.sql,
    workspaceHref: workspaceHref(part.sql),
    isEmpty: false,
    older: null,
    newer: null,
    newest: null,
    denied: part.denied,
    error: part.error,
    keep: part.keep,
  }
}

/** The window a column's figures cover: `key` of FIGURE_WINDOWS, up to now (and rows ahead of it). */
function figureWindow(key: string, now: number, upper: string) {
  const chosen = FIGURE_WINDOWS.find((entry) => entry.key === key) ?? FIGURE_WINDOWS[1]!
  return {
    key: chosen.key,
    label: chosen.label,
    from: chosen.ms === null ? EPOCH : engineTime(now - chosen.ms),
    to: upper,
  }
}

/**
 * One column's figures over a stated window, in one read: rows, values (not null), nulls, distinct
 * values (uniq, approximate), min and max for numbers and times, the ten most frequent values
 * (topK, approximate) for strings; with what the read cost.
 */
async function loadFigures(
  api: ClusterApi,
  { project, table }: Target,
  primary: string,
  column: DataColumn,
  windowKey: string,
  now: number,
  upper: string,
): Promise<ColumnFigures> {
  const window = figureWindow(windowKey, now, upper)
  const c = sqlName(column.name)
  const parts = [
    'count() AS rows',
    `count(${c}) AS values`,
    `countIf(isNull(${c})) AS nulls`,
    `uniq(${c}) AS distinct_values`,
  ]
  if (column.kind === 'number' || column.kind === 'time')
    parts.push(`toString(min(${c})) AS min`, `toString(max(${c})) AS max`)
  if (column.kind === 'string') parts.push(`arrayMap(x -> toString(x), topK(10)(${c})) AS top`)
  const where = between(sqlName(primary), window.from, window.to)
  const sql = `SELECT ${parts.join(', ')} FROM ${tableRef(project.name, table.name)} WHERE ${where}`
  const base = {
    column: column.name,
    type: column.type,
    kind: column.kind,
    window: { key: window.key, label: window.label, from: window.from, to: window.to },
    sql,
    workspaceHref: workspaceHref(sql),
  }
  try {
    const { body, cost } = await read(api, sql, 'JSON')
    const row = (body.data?.[0] ?? {}) as Record<string, unknown>
    const count = (value: unknown) => (value === undefined || value === null ? 0 : Number(value))
    const text = (value: unknown) => (value === undefined || value === null ? null : String(value))
    return {
      ...base,
      rows: count(row.rows),
      values: count(row.values),
      nulls: count(row.nulls),
      distinct: count(row.distinct_values),
      min: text(row.min),
      max: text(row.max),
      top: Array.isArray(row.top) ? row.top.map((value) => String(value)) : null,
      cost,
      denied: null,
      error: null,
    }
  } catch (error) {
    const { denied, error: message } = failure(error, `${project.name}.${table.name}`)
    return {
      ...base,
      rows: 0,
      values: 0,
      nulls: 0,
      distinct: 0,
      min: null,
      max: null,
      top: null,
      cost: NO_COST,
      denied,
      error: message,
    }
  }
}

/**
 * Rows by their primary timestamp over the last day, per minute (one read, at most 1,440 groups):
 * the last hour's 60 minutes and the day's 24 hours are summed from it; rows timestamped ahead of
 * now are counted apart. The newest timestamp comes with it.
 */
async function loadArrival(
  api: ClusterApi,
  { project, table }: Target,
  primary: string,
  now: number,
  upper: string,
): Promise<ArrivalPart> {
  const minuteEnd = Math.floor(now / MINUTE) * MINUTE // the current minute's start
  const hourEnd = Math.floor(now / HOUR) * HOUR
  const minuteStart = minuteEnd - 59 * MINUTE
  const dayStart = hourEnd - 23 * HOUR
  const ts = sqlName(primary)
  const sql =
    `SELECT toUInt32(toUnixTimestamp(toStartOfMinute(${ts}))) AS minute, count() AS rows, toString(max(${ts})) AS newest ` +
    `FROM ${tableRef(project.name, table.name)} WHERE ${between(ts, engineTime(dayStart), upper)} GROUP BY minute ORDER BY minute`
  const minutes = Array.from({ length: 60 }, () => 0)
  const hours = Array.from({ length: 24 }, () => 0)
  const base = {
    minuteStart: engineTime(minuteStart),
    dayStart: engineTime(dayStart),
    now: engineTime(now),
    sql,
    workspaceHref: workspaceHref(sql),
  }
  try {
    const { body, cost } = await read(api, sql, 'JSON')
    let newest: string | null = null
    let ahead = 0
    for (const entry of (body.data ?? []) as { minute: number | string; rows: number | string; newest: string }[]) {
      const at = Number(entry.minute) * 1000
      const rows = Number(entry.rows)
      if (!newest || entry.newest > newest) newest = entry.newest
      if (at > minuteEnd) {
        ahead += rows
        continue
      }
      if (at >= minuteStart) minutes[(at - minuteStart) / MINUTE] += rows
      if (at >= dayStart) hours[Math.floor((at - dayStart) / HOUR)] += rows
    }
    return {
      ...base,
      minutes,
      hours,
      lastHour: minutes.reduce((sum, n) => sum + n, 0),
      lastDay: hours.reduce((sum, n) => sum + n, 0),
      ahead,
      newest,
      ageText: null,
      isEmpty: false,
      cost,
      denied: null,
      error: null,
    }
  } catch (error) {
    const { denied, error: message } = failure(error, `${project.name}.${table.name}`)
    return {
      ...base,
      minutes,
      hours,
      lastHour: 0,
      lastDay: 0,
      ahead: 0,
      newest: null,
      ageText: null,
      isEmpty: false,
      cost: NO_COST,
      denied,
      error: message,
    }
  }
}

/** The newest primary timestamp (read in the primary key's order, so one row is read near the end). */
async function newestRow(api: ClusterApi, { project, table }: Target, primary: string, upper: string) {
  const ts = sqlName(primary)
  const sql =
    `SELECT toString(${ts}) AS newest FROM ${tableRef(project.name, table.name)} ` +
    `WHERE ${between(ts, EPOCH, upper)} ORDER BY ${ts} DESC LIMIT 1`
  try {
    const { body } = await read(api, sql, 'JSON')
    const row = body.data?.[0] as { newest?: string } | undefined
    return row?.newest ?? null
  } catch (error) {
    failure(error, `${project.name}.${table.name}`)
    return null
  }
}

/**
 * What feeds the table and its state: its pull sources (Kafka, Kinesis, SIEM, summary) with their
 * replicas, its auto batch entries (on, off, dry run), and the batch jobs among the org's newest
 * BATCH_JOBS_READ that load it. A list the role may not read is marked, not failed.
 */
async function loadIngestState(api: ClusterApi, { project, table }: Target): Promise<IngestState> {
  const ref = `${project.name}.${table.name}`
  const [sources, jobs] = await Promise.all([
    listSources(api, project.uuid, table.uuid).then(
      (list) => ({ list, error: null as string | null }),
      (error: unknown) => ({
        list: [] as Awaited<ReturnType<typeof listSources>>,
        error: listFailure(error, 'sources'),
      }),
    ),
    listBatchJobs(api, { pageSize: BATCH_JOBS_READ }).then(
      (page) => ({ list: page.results, error: null as string | null }),
      (error: unknown) => ({ list: [], error: listFailure(error, 'batch jobs') }),
    ),
  ])
  const entries: IngestState['entries'] = []
  for (const source of sources.list) {
    const replicas = Number(source.k8s_deployment?.replicas ?? 0)
    entries.push({
      key: `source-${source.uuid}`,
      kind: source.subtype,
      name: source.name,
      href: `/data/tables/${table.uuid}/source/edit/${source.subtype}/${source.uuid}?project=${project.uuid}`,
      state:
        Number.isFinite(replicas) && replicas > 0
          ? `${replicas} replica${replicas === 1 ? '' : 's'}${source.pool_name ? ` in pool ${source.pool_name}` : ''}`
          : 'Stopped: no replicas',
      tone: Number.isFinite(replicas) && replicas > 0 ? 'ok' : 'off',
    })
  }
  autoBatchesOf(table).forEach((batch, index) => {
    if (!batch.enabled && !batch.source) return
    entries.push({
      key: `autobatch-${index}`,
      kind: 'autobatch',
      name: String(batch.source || `Auto batch ${index + 1}`),
      href: `/data/tables/${table.uuid}/source/edit/autobatch/${index}?project=${project.uuid}`,
      state: !batch.enabled ? 'Off' : batch.dry_run ? 'On (dry run: nothing is stored)' : 'On',
      tone: batch.enabled && !batch.dry_run ? 'ok' : 'off',
    })
  })
  for (const job of jobs.list) {
    if (job.settings?.source?.table !== ref) continue
    const rows = Number(job.progress?.rows_ingested ?? Number.NaN)
    const status = `${job.status.charAt(0).toUpperCase()}${job.status.slice(1)}`
    entries.push({
      key: `batch-${job.uuid}`,
      kind: 'batch job',
      name: job.name,
      href: `/jobs/batch-jobs?job=${encodeURIComponent(job.uuid)}`,
      state: `${status}${Number.isFinite(rows) ? `: ${formatNumber(rows)} rows loaded` : ''}`,
      tone: job.status === 'failed' ? 'bad' : job.status === 'running' || job.status === 'ready' ? 'ok' : 'off',
    })
  }
  return {
    entries,
    sourcesError: sources.error,
    jobsError: jobs.error,
    jobsRead: BATCH_JOBS_READ,
  }
}

function listFailure(error: unknown, what: string): string {
  if (error instanceof ClusterError && (error.status === 403 || error.status === 401))
    return `Your role cannot list this table's ${what}.`
  if (error instanceof ClusterError) return error.message
  throw error
}
