import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { isChangingStatement } from '~/utils/sql'
import { withBase } from '~/utils/base-path'
import { CHART_FIELDS, readChartView } from '~/utils/chart-spec'
import { NO_SQL_MESSAGE, readOptions, validateOptions } from '~/utils/query-options'
import { chartOfRun, newRunId, runForUi } from '~/services/query/run.server'

/**
 * GET /resources/query-chart?sql=…&<options>&<param_…>&run=…&chart=…&x=…&y=…&split=…: the chart of
 * a result as an SVG image of its own (decision 100), the same the Chart tab draws without scripts,
 * with a link to the data as a table. The run the page showed when this process holds it, else the
 * query runs now (a read, as the result page's GET). A statement that changes data never runs
 * from here. Failures answer plain text with the cluster's message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const params = new URL(request.url).searchParams
  const sql = params.get('sql') ?? ''
  const options = readOptions(params)
  const errors = Object.values(validateOptions(options))
  if (!sql.trim()) return text(NO_SQL_MESSAGE, 400)
  if (errors.length) return text(errors.join('\n'), 400)
  if (isChangingStatement(sql))
    return text('This statement changes data: run it from the Query page, where it asks you to confirm.', 400)
  const runId = params.get('run') || newRunId()
  const outcome = await runForUi(api, sql, options, 1, runId)
  if (outcome.kind === 'error') return text(outcome.message, outcome.status)
  if (outcome.kind === 'text') return text('Only a result shown as a table can be drawn.', 400)
  const table = new URLSearchParams(params)
  for (const name of [...CHART_FIELDS, 'tab', 'page']) table.delete(name)
  table.set('run', runId)
  const chart = await chartOfRun(api, sql, options, runId, readChartView(params), {
    dataHref: withBase(`/result?${table}#result`),
  })
  if (!chart.svg) return text('This result has no number column to draw.', 400)
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${chart.svg}`, {
    status: 200,
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'private, no-store',
      // an image of the user's data: never run as a page of this origin
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

function text(message: string, status: number): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
