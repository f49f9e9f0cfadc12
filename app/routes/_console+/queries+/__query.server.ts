import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { QueryError, runQuery } from '~/api/query.server'
import { listProjectsWithTables } from '~/api/tables.server'
import { tableRef } from '~/utils/sql'
import { MAX_RESULT_ROWS, QUERY_UI_MAX_ROWS, readOptions, validateOptions } from './__query-options'

export type PickerProject = { name: string; tables: { uuid: string; name: string }[] }

/** The org's projects and their tables, for the table picker (names and table ids only). */
export async function loadPicker(api: ClusterApi): Promise<PickerProject[]> {
  const projects = await listProjectsWithTables(api)
  return projects.map(({ project, tables }) => ({
    name: project.name,
    tables: tables.map((table) => ({ uuid: table.uuid, name: table.name })),
  }))
}

/** `SELECT * FROM project.table LIMIT 100` for the picked table, or null when no project holds it. */
export function tableTemplate(picker: PickerProject[], tableId: string | null): string | null {
  if (!tableId) return null
  for (const project of picker) {
    const table = project.tables.find((entry) => entry.uuid === tableId)
    if (table) return `SELECT * FROM ${tableRef(project.name, table.name)} LIMIT 100`
  }
  return null
}

/** What the page reads from its URL: the SQL (`sql`, else `data`, else the `table_id` template) and the options. */
export function readQueryParams(url: URL, picker: PickerProject[]) {
  const params = url.searchParams
  const tableId = params.get('table_id')
  const sql = params.get('sql') ?? params.get('data') ?? tableTemplate(picker, tableId) ?? ''
  const options = readOptions(params)
  return { sql, tableId, options, optionErrors: validateOptions(options) }
}

/** The options a URL sets, and their errors (for an action whose SQL comes in the form). */
export function readOptionsOnly(url: URL) {
  const options = readOptions(url.searchParams)
  return { options, optionErrors: validateOptions(options) }
}

export type Cell = string | null
export type QueryOutcome =
  | { kind: 'error'; message: string; status: number; position?: ErrorPosition | null }
  | {
      kind: 'rows'
      columns: { name: string; type: string }[]
      rows: Cell[][]
      /** True when the UI's 10,000-row cap cut the result. */
      isCapped: boolean
      stats: QueryStats
    }
  | { kind: 'text'; format: string; text: string; isTruncated: boolean; stats: QueryStats }

export type QueryStats = {
  /** `x-hdx-query-stats` pairs, in the cluster's order. */
  cluster: Record<string, string>
  /** The engine's own figures from a JSON answer (elapsed in s, rows and bytes read). */
  engine: Record<string, number>
  elapsedMs: number
  queryId: string | null
  rowCount: number | null
}

/** The most text the page shows of an answer in a non-JSON format. */
const MAX_TEXT = 1_000_000

/**
 * The settings a UI run sends: the filled options, JSONCompact unless a format was chosen, and the
 * 10,000-row cap (in break mode, so the first rows still show) unless max result rows was set.
 */
export function uiSettings(options: Record<string, string>): Record<string, string> {
  const settings = { ...options }
  if (!settings.hdx_query_output_format) settings.hdx_query_output_format = 'JSONCompact'
  if (!settings[MAX_RESULT_ROWS]) {
    settings[MAX_RESULT_ROWS] = String(QUERY_UI_MAX_ROWS)
    settings.result_overflow_mode = 'break'
  }
  return settings
}

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** Where in the user's SQL the engine stopped: 1-based line and column, and that line's text. */
export type ErrorPosition = { line: number; column: number; text: string; isPastEnd: boolean }

/**
 * Reads the engine's `(line L, col C)` out of its message and says where that is in the SQL the
 * user wrote. The options the console sends can reach the engine as a trailing SETTINGS clause, so
 * a position past the user's last line means "at the end of your statement": the message's excerpt
 * of text the user never wrote is replaced by "end of query". Returns the message unchanged and no
 * position when the engine gave none.
 */
export function locateEngineError(message: string, sql: string): { message: string; position: ErrorPosition | null } {
  const match = /\(line (\d+), col (\d+)\)(: )?/.exec(message)
  if (!match) return { message, position: null }
  const lines = sql.replace(/\s+$/, '').split('\n')
  const line = Number(match[1])
  const column = Number(match[2])
  if (line >= 1 && line <= lines.length && column <= lines[line - 1]!.length + 1) {
    return { message, position: { line, column, text: lines[line - 1]!, isPastEnd: false } }
  }
  const last = lines.length
  const cleaned = match[3]
    ? message.slice(0, match.index + match[0].length) + message.slice(match.index + match[0].length).replace(/^[\s\S]*?\. (?=Expected)/, 'end of query. ')
    : message
  return {
    message: cleaned
      .replace(/failed at position \d+ \([^)]*\)/, 'failed at the end of the query')
      .replace(`(line ${line}, col ${column})`, `(line ${last}, col ${lines[last - 1]!.length + 1})`),
    position: { line: last, column: lines[last - 1]!.length + 1, text: lines[last - 1]!, isPastEnd: true },
  }
}

/** QueryError and other ClusterErrors become the outcome shown beside the editor (a 401 has ended the session). */
function failureOutcome(error: unknown, sql: string): { kind: 'error'; message: string; status: number; position: ErrorPosition | null } {
  if (error instanceof QueryError) return { kind: 'error', status: 400, ...locateEngineError(error.message, sql) }
  if (error instanceof ClusterError) return { kind: 'error', message: error.message, status: error.status, position: null }
  throw error
}

/** Runs `sql` for the Results and Statistics tabs; never throws for a failing query. */
export async function runForUi(api: ClusterApi, sql: string, options: Record<string, string>): Promise<QueryOutcome> {
  const settings = uiSettings(options)
  try {
    const answer = await runQuery(api, sql, settings)
    const stats: QueryStats = { cluster: answer.stats, engine: {}, elapsedMs: answer.elapsedMs, queryId: answer.queryId, rowCount: null }
    if (/^JSON(Compact)?(Strings)?$/i.test(answer.format)) {
      const body = JSON.parse(answer.text) as {
        meta?: { name: string; type: string }[]
        data?: unknown[]
        statistics?: Record<string, number>
      }
      const columns = body.meta ?? []
      const isCompact = /Compact/i.test(answer.format)
      const all = (body.data ?? []).map((row) =>
        isCompact ? (row as unknown[]).map(cellOf) : columns.map((column) => cellOf((row as Record<string, unknown>)[column.name])),
      )
      const isUiCap = settings.result_overflow_mode === 'break'
      // Break mode stops at a block boundary, so the engine may answer a few rows more than the cap.
      const isCapped = isUiCap && all.length >= QUERY_UI_MAX_ROWS
      const rows = all.slice(0, QUERY_UI_MAX_ROWS)
      return { kind: 'rows', columns, rows, isCapped, stats: { ...stats, engine: body.statistics ?? {}, rowCount: rows.length } }
    }
    const isTruncated = answer.text.length > MAX_TEXT
    return { kind: 'text', format: answer.format, text: isTruncated ? answer.text.slice(0, MAX_TEXT) : answer.text, isTruncated, stats }
  } catch (error) {
    if (api.signal?.aborted) throw error
    return failureOutcome(error, sql)
  }
}

export type AnalysisPart = { title: string; statement: string } & ({ text: string } | { error: string })

/** `EXPLAIN` and `EXPLAIN PIPELINE` of `sql` with the same options, as text; failures are shown per part. */
export async function runAnalysis(api: ClusterApi, sql: string, options: Record<string, string>): Promise<AnalysisPart[]> {
  const { hdx_query_output_format: _format, ...settings } = options
  const parts = [
    { title: 'Plan', statement: `EXPLAIN ${sql}` },
    { title: 'Pipeline', statement: `EXPLAIN PIPELINE ${sql}` },
  ]
  return Promise.all(
    parts.map(async (part): Promise<AnalysisPart> => {
      try {
        const answer = await runQuery(api, part.statement, { ...settings, hdx_query_output_format: 'TSVRaw' })
        return { ...part, text: answer.text }
      } catch (error) {
        if (api.signal?.aborted) throw error
        const outcome = failureOutcome(error, part.statement)
        return { ...part, error: outcome.message }
      }
    }),
  )
}
