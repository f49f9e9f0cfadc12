import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { isNumericType } from '~/utils/sql'
import { doubtMessage, readStatement, withoutOutputFormat } from '~/utils/sql-statement'
import { answerFromCluster } from '~/api/policies.server'
import { queryCluster } from '~/api/query.server'
import { NO_SQL_MESSAGE, readOptions, validateOptions } from '~/utils/query-options'
import { ROWS_FORMAT } from '~/services/query/result-cache.server'

/**
 * GET /resources/query-csv?sql=…&hdx_query_*=…[&as=json]: the query's whole answer as a download,
 * streamed from the cluster row by row (the token stays on the server). CSV by default, a JSON array
 * of objects with `as=json`; both from the cluster's line-per-row JSON, 64-bit integers exact (as
 * strings in JSON). In CSV a text value a spreadsheet would run as a formula (starting with = + - @,
 * a tab or a carriage return) gets a leading `'`. The download is always what the console asked the
 * cluster for (decision 095): the statement's own `FORMAT` clause and output-format settings are cut
 * (read as the engine reads them: never text in a string or a comment) and a format chosen in the
 * options is not sent; an answer in any other format is refused, never passed on. The query UI's
 * 10,000-row cap does not apply; the other options set do. Failures answer plain text with the
 * cluster's message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const sql = params.get('sql') ?? params.get('data') ?? ''
  const options = readOptions(params)
  const as = params.get('as') === 'json' ? 'json' : 'csv'
  const errors = Object.values(validateOptions(options))
  if (!sql.trim()) return text(NO_SQL_MESSAGE, 400)
  if (errors.length) return text(errors.join('\n'), 400)
  // A download link is a GET: it never runs a statement that changes data, nor one the console cannot read.
  const reading = readStatement(sql)
  if (reading.kind === 'change')
    return text('This statement changes data: run it from the Query page, where it asks you to confirm.', 400)
  if (reading.kind === 'unsure') return text(`${doubtMessage(reading.doubt)} Run it from the Query page.`, 400)
  const statement = withoutOutputFormat(sql)
  if (!statement) return text(FORMAT_NOT_CUT_MESSAGE, 400)
  // the format chosen in the options is the result page's; the download asks for rows
  const { hdx_query_output_format: _chosen, ...settings } = options
  // the engine's refusal (a QueryError) is a ClusterError of status 400: its text, as the spec says
  return answerFromCluster(
    async () => {
      const answer = await queryCluster(api, statement.sql, {
        ...settings,
        hdx_query_output_format: ROWS_FORMAT,
        output_format_json_quote_64bit_integers: '1',
      })
      const answered = answer.headers.get('x-clickhouse-format')
      if (answered && answered.toLowerCase() !== ROWS_FORMAT.toLowerCase()) {
        void answer.body?.cancel().catch(() => undefined)
        return text(`The cluster answered in ${answered}, not in rows. ${FORMAT_NOT_CUT_MESSAGE}`, 400)
      }
      const headers = new Headers({
        'Content-Type': as === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="query-result.${as}"`,
        'Cache-Control': 'no-store',
      })
      const stats = answer.headers.get('x-hdx-query-stats')
      if (stats) headers.set('X-HDX-Query-Stats', stats)
      return new Response(answer.body!.pipeThrough(rowsTo(as)), { status: 200, headers })
    },
    (error) => text(error.message, error.status),
  )
}

const FORMAT_NOT_CUT_MESSAGE =
  "A download is made by the console from rows: remove the statement's own FORMAT clause and output-format settings, then download again."

/** A text value a spreadsheet would run as a formula, made inert with a leading quote. */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

function csvField(value: unknown, isNumeric: boolean): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  // Numbers (64-bit ones come as strings) stay as they are: -5 is a number, not a formula.
  if (isNumeric && /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$|^-?(?:inf|nan)$/i.test(text)) return text
  return `"${guardFormula(text).replace(/"/g, '""')}"`
}

/**
 * Turns the cluster's line-per-row answer (names, types, then rows) into CSV with a header line, or
 * a JSON array of objects, a line at a time as it arrives.
 */
export function rowsTo(as: 'csv' | 'json'): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  let names: string[] | null = null
  let numeric: boolean[] | null = null
  let rows = 0
  const line = (raw: string): string => {
    if (!raw) return ''
    const values: unknown = JSON.parse(raw)
    // every line of the rows format is a JSON array: anything else is not passed on, guarded or not
    if (!Array.isArray(values)) throw new Error('The cluster did not answer in rows.')
    if (!names) {
      names = values.map(String)
      return as === 'csv' ? `${names.map((name) => csvField(name, false)).join(',')}\n` : ''
    }
    if (!numeric) {
      numeric = values.map((type) => isNumericType(String(type)))
      return ''
    }
    if (as === 'csv') return `${values.map((value, index) => csvField(value, numeric![index] ?? false)).join(',')}\n`
    const record: Record<string, unknown> = {}
    names.forEach((name, index) => (record[name] = values[index]))
    return `${rows++ ? ',\n' : '[\n'}${JSON.stringify(record)}`
  }
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true })
      const end = pending.lastIndexOf('\n')
      if (end < 0) return
      const out = pending.slice(0, end).split('\n').map(line).join('')
      pending = pending.slice(end + 1)
      if (out) controller.enqueue(encoder.encode(out))
    },
    flush(controller) {
      let out = line(pending + decoder.decode())
      if (as === 'json') out += rows ? '\n]\n' : '[]\n'
      if (out) controller.enqueue(encoder.encode(out))
    },
  })
}

function text(message: string, status: number): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
