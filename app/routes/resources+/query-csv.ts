import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { isChangingStatement } from '~/utils/sql'
import { ClusterError } from '~/api/errors.server'
import { QueryError, queryCluster } from '~/api/query.server'
import { NO_SQL_MESSAGE, readOptions, validateOptions } from '../_console+/queries+/__query-options'

/**
 * GET /resources/query-csv?sql=…&hdx_query_*=…: the query's whole answer as a CSV download, streamed
 * from the cluster (the token stays on the server). The query UI's 10,000-row cap does not apply;
 * the options set do. Failures answer plain text with the cluster's message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const sql = params.get('sql') ?? params.get('data') ?? ''
  const options = readOptions(params)
  const errors = Object.values(validateOptions(options))
  if (!sql.trim()) return text(NO_SQL_MESSAGE, 400)
  if (errors.length) return text(errors.join('\n'), 400)
  // A download link is a GET: it never runs a statement that changes data.
  if (isChangingStatement(sql)) return text('This statement changes data: run it from the Query page, where it asks you to confirm.', 400)
  const format = options.hdx_query_output_format ?? 'CSVWithNames'
  try {
    const answer = await queryCluster(api, sql, { ...options, hdx_query_output_format: format })
    const answered = answer.headers.get('x-clickhouse-format') ?? format
    const extension = /^CSV/i.test(answered) ? 'csv' : /^(TSV|TabSeparated)/i.test(answered) ? 'tsv' : /^JSON/i.test(answered) ? 'json' : 'txt'
    const headers = new Headers({
      'Content-Type': answer.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="query-result.${extension}"`,
      'Cache-Control': 'no-store',
    })
    const stats = answer.headers.get('x-hdx-query-stats')
    if (stats) headers.set('X-HDX-Query-Stats', stats)
    return new Response(answer.body, { status: 200, headers })
  } catch (error) {
    if (error instanceof QueryError) return text(error.message, 400)
    if (error instanceof ClusterError) return text(error.message, error.status)
    throw error
  }
}

function text(message: string, status: number): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
}
