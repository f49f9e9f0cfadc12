import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { parseQueryStats, QueryError, runQuery } from '~/api/query.server'
import { loadTableSearch, type TableChoice, type TableSearch } from '~/api/table-search.server'
import { tableRef } from '~/utils/sql'
import {
  chartColumns,
  chartData,
  pickChart,
  type ChartColumn,
  type ChartData,
  type ChartView,
} from '~/utils/chart-spec'
import { renderChartSvg } from '~/utils/chart-svg.server'
import { paramOfMessage } from '~/utils/sql-params'
import { findPlaceholders } from '~/utils/sql-placeholders'
import { refusalNamingTables } from '~/utils/sql-tables'
import { MAX_RESULT_ROWS, QUERY_UI_MAX_ROWS, readOptions, validateOptions } from '~/utils/query-options'
import { cachedRows, NotRowsError, QueryCanceledError, ROWS_FORMAT } from './result-cache.server'

export { newRunId } from './result-cache.server'
import { cellsOf, RESULT_PAGE_SIZE, type Cell } from '~/utils/result-cells'

/**
 * The table picker above the editor: the tables the URL's search (`table_q`) finds, at most a short
 * list, and the table the URL picked (`table_id`), found by id (issue 33: the picker no longer
 * holds every table of the org). Throws ClusterError.
 */
export function loadPicker(api: ClusterApi, url: URL): Promise<TableSearch> {
  return loadTableSearch(api, url)
}

/** `SELECT * FROM project.table LIMIT 100` for the picked table, or null when there is none. */
export function tableTemplate(picked: TableChoice | null | undefined): string | null {
  return picked ? `SELECT * FROM ${tableRef(picked.project, picked.name)} LIMIT 100` : null
}

/** What the page reads from its URL: the SQL (`sql`, else `data`, else the `table_id` template) and the options. */
export function readQueryParams(url: URL, picker: TableSearch | null) {
  const params = url.searchParams
  const tableId = params.get('table_id')
  const sql = params.get('sql') ?? params.get('data') ?? tableTemplate(picker?.selected) ?? ''
  const options = readOptions(params)
  return { sql, tableId, options, optionErrors: validateOptions(options) }
}

/** The options a URL sets, and their errors (for an action whose SQL comes in the form). */
export function readOptionsOnly(url: URL) {
  const options = readOptions(url.searchParams)
  return { options, optionErrors: validateOptions(options) }
}

export type { Cell }
export type QueryOutcome =
  | { kind: 'error'; message: string; status: number; position?: ErrorPosition | null }
  | {
      kind: 'rows'
      columns: { name: string; type: string }[]
      /** One page of the result: rows offset + 1 to offset + rows.length of rowCount. */
      rows: Cell[][]
      offset: number
      rowCount: number
      pageSize: number
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
 * The settings a UI run sends: the filled options, the rows format unless another format was chosen
 * (a JSON one is shown as a table too), and the 10,000-row cap (in break mode, so the first rows
 * still show) unless max result rows was set.
 */
export function uiSettings(options: Record<string, string>): Record<string, string> {
  const settings = { ...options }
  if (!settings.hdx_query_output_format || /^JSON(Compact)?$/i.test(settings.hdx_query_output_format))
    settings.hdx_query_output_format = ROWS_FORMAT
  // 64-bit integers as JSON strings: a browser's numbers would round them.
  if (/^JSON/i.test(settings.hdx_query_output_format)) settings.output_format_json_quote_64bit_integers = '1'
  if (!settings[MAX_RESULT_ROWS]) {
    settings[MAX_RESULT_ROWS] = String(QUERY_UI_MAX_ROWS)
    settings.result_overflow_mode = 'break'
  }
  return settings
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
    ? message.slice(0, match.index + match[0].length) +
      message.slice(match.index + match[0].length).replace(/^[\s\S]*?\. (?=Expected)/, 'end of query. ')
    : message
  return {
    message: cleaned
      .replace(/failed at position \d+ \([^)]*\)/, 'failed at the end of the query')
      .replace(`(line ${line}, col ${column})`, `(line ${last}, col ${lines[last - 1]!.length + 1})`),
    position: { line: last, column: lines[last - 1]!.length + 1, text: lines[last - 1]!, isPastEnd: true },
  }
}

const SETTING_PAIR = String.raw`[A-Za-z_]\w*\s*=\s*(?:'(?:[^'\\]|\\.)*'|-?[\w.]*\w)`
const SETTINGS_CLAUSE = new RegExp(String.raw`\s+SETTINGS\s+(${SETTING_PAIR}(?:\s*,\s*${SETTING_PAIR})*)`, 'g')

/**
 * The engine's message with the settings the console added taken out of the statement it quotes
 * (`… in scope SELECT x FROM t SETTINGS max_result_rows = 10000, …`): a setting the user's SQL does
 * not name is the console's (its row cap, overflow mode, 64-bit quoting, the options form), so only
 * the user's own SETTINGS stay (issue 54).
 */
export function withoutAddedSettings(message: string, sql: string): string {
  return message.replace(SETTINGS_CLAUSE, (clause: string, pairs: string) => {
    const kept = pairs
      .split(/\s*,\s*(?=[A-Za-z_]\w*\s*=)/)
      .filter((pair) => new RegExp(String.raw`\b${pair.split('=')[0]!.trim()}\b`).test(sql))
    if (kept.length === pairs.split(/\s*,\s*(?=[A-Za-z_]\w*\s*=)/).length) return clause
    return kept.length ? ` SETTINGS ${kept.join(', ')}` : ''
  })
}

/** QueryError and other ClusterErrors become the outcome shown beside the editor (a 401 has ended the session). */
function failureOutcome(
  error: unknown,
  sql: string,
): { kind: 'error'; message: string; status: number; position: ErrorPosition | null } {
  if (error instanceof QueryCanceledError) return { kind: 'error', status: 409, message: error.message, position: null }
  if (error instanceof QueryError)
    return { kind: 'error', status: 400, ...locateEngineError(withoutAddedSettings(error.message, sql), sql) }
  if (error instanceof ClusterError) {
    // a permission refused: which table, when the cluster's words do not say (issue 54, point 10)
    const message = error.status === 403 ? refusalNamingTables(error.message, sql) : error.message
    return { kind: 'error', message, status: error.status, position: null }
  }
  throw error
}

/**
 * Runs `sql` for the Results and Statistics tabs and returns page `page` of its rows (the whole
 * result is kept a few minutes in the result cache under `runId`, so the next page, the other tab or
 * the grid's stream of the other rows of the same run does not run it again; without a run id, or
 * one this process does not hold, it runs); never throws for a failing query.
 */
export async function runForUi(
  api: ClusterApi,
  sql: string,
  options: Record<string, string>,
  page = 1,
  runId?: string,
): Promise<QueryOutcome> {
  const settings = uiSettings(options)
  try {
    const result = await cachedRows(api, sql, settings, runId)
    const lastPage = Math.max(1, Math.ceil(result.lines.length / RESULT_PAGE_SIZE))
    const offset = (Math.min(page, lastPage) - 1) * RESULT_PAGE_SIZE
    return {
      kind: 'rows',
      columns: result.columns,
      rows: cellsOf(result.lines.slice(offset, offset + RESULT_PAGE_SIZE)),
      offset,
      rowCount: result.lines.length,
      pageSize: RESULT_PAGE_SIZE,
      isCapped: result.isCapped,
      stats: { ...result.stats, engine: {}, rowCount: result.lines.length },
    }
  } catch (error) {
    if (api.signal?.aborted) throw error
    if (error instanceof NotRowsError) return textOutcome(api, error)
    return failureOutcome(error, sql)
  }
}

/** An answer in a format the statement chose itself, shown as text (its first megabyte). */
async function textOutcome(api: ClusterApi, answer: NotRowsError): Promise<QueryOutcome> {
  let text: string
  try {
    text = await answer.response.text()
  } catch (error) {
    if (api.signal?.aborted) throw error
    throw new ClusterError({ status: 503 })
  }
  const stats: QueryStats = {
    cluster: parseQueryStats(answer.response.headers.get('x-hdx-query-stats')),
    engine: {},
    elapsedMs: Math.round(performance.now() - answer.startedAt),
    queryId: answer.response.headers.get('x-clickhouse-query-id'),
    rowCount: null,
  }
  const isTruncated = text.length > MAX_TEXT
  return { kind: 'text', format: answer.format, text: isTruncated ? text.slice(0, MAX_TEXT) : text, isTruncated, stats }
}

export type AnalysisPart = { title: string; statement: string } & ({ text: string } | { error: string })

/** `EXPLAIN` and `EXPLAIN PIPELINE` of `sql` with the same options, as text; failures are shown per part. */
export async function runAnalysis(
  api: ClusterApi,
  sql: string,
  options: Record<string, string>,
): Promise<AnalysisPart[]> {
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

/** The chart of a run (the Chart tab): its columns for the controls, the spec drawn, its series and the server's SVG. */
export type ChartPart = {
  columns: ChartColumn[]
  /** Null when the result has nothing a chart can draw (no number column). */
  data: ChartData | null
  svg: string | null
}

/** The most rows read to tell a status column from a measure (pickChart). */
const PICK_SAMPLE_ROWS = 500

/**
 * The chart `view` asks for over the whole of run `runId` (up to the UI's cap; from the result
 * cache, which the page's own run has just filled, else run now as runForUi does). Throws as
 * cachedRows: call it after runForUi answered rows.
 */
export async function chartOfRun(
  api: ClusterApi,
  sql: string,
  options: Record<string, string>,
  runId: string,
  view: ChartView,
  svgOptions: Parameters<typeof renderChartSvg>[1] = {},
): Promise<ChartPart> {
  const result = await cachedRows(api, sql, uiSettings(options), runId)
  const columns = chartColumns(result.columns)
  const rows = cellsOf(result.lines)
  const spec = pickChart(columns, rows.slice(0, PICK_SAMPLE_ROWS), view)
  if (!spec) return { columns, data: null, svg: null }
  const data = chartData(columns, rows, spec, result.isCapped)
  return { columns, data, svg: renderChartSvg(data, { id: 'query-chart', ...svgOptions }) }
}

/**
 * The cluster's message for a parameter value it refused, by the name of the SQL's placeholder it is
 * about (the editor shows it on that input); null when the run did not fail on a parameter.
 */
export function paramErrorsOf(outcome: QueryOutcome, sql: string): Record<string, string> | null {
  if (outcome.kind !== 'error') return null
  const name = paramOfMessage(
    outcome.message,
    findPlaceholders(sql).map((placeholder) => placeholder.name),
  )
  return name ? { [name]: outcome.message } : null
}
