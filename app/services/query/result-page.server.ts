import { data, redirect } from '@remix-run/node'
import { requireApi, type ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { createAlterJob, engineMessage } from '~/api/jobs.server'
import { errorResponse, loadFromCluster } from '~/api/policies.server'
import { isAlterJobSql } from '~/schemas/job-values'
import { chartViewFields, readChartView } from '~/utils/chart-spec'
import { CHART_FIELDS, CHART_TAB } from '~/utils/chart-values'
import { NO_SQL_MESSAGE, typedOptions } from '~/utils/query-options'
import { RUN_CHANGE_INTENT, tabOf } from '~/utils/result-page'
import { isChangingStatement } from '~/utils/sql'
import { doubtMessage, readStatement, type StatementDoubt } from '~/utils/sql-statement'
import { redirectWithToast } from '~/utils/toast.server'
import { pageOf } from '~/utils/result-cells'
import {
  chartOfRun,
  loadPicker,
  newRunId,
  paramErrorsOf,
  readOptionsOnly,
  readQueryParams,
  runAnalysis,
  runForUi,
  type ChartPart,
  type QueryOutcome,
} from './run.server'
import { recordRun } from './saved.server'
import { loadSchemaTree } from './schema.server'

/**
 * The result page's server side (`/result`, issue 37): what its loader answers for a URL, the Run
 * form's POST, and a confirmed change. A GET never writes; a Run records itself in the history.
 */

/** The longest run link a Run redirects to (Node and browsers refuse a request line past 16 KB). */
export const MAX_RUN_LINK = 8_000
/** Room for `&run=<id>#result` on a run's link. */
const RUN_ID_ROOM = 64

/**
 * The page's data for its URL (the loader's answer): the picker, the schema, the SQL and options,
 * and the run's outcome (or its analysis, its chart, or why it did not run), with the status to answer.
 */
export async function loadResultPage(api: ClusterApi, url: URL) {
  const tab = tabOf(url.searchParams.get('tab'))
  const page = pageOf(url.searchParams.get('page'))
  // A run's URL carries its SQL (the picker is needed only for `table_id` alone): the query then
  // starts beside the picker's and the schema's reads instead of after them.
  const fromUrl = readQueryParams(url, null)
  const isEarlyRun =
    fromUrl.sql.trim() !== '' &&
    !Object.keys(fromUrl.optionErrors).length &&
    !isChangingStatement(fromUrl.sql) &&
    tab !== 'analysis'
  // The run this link shows: its pages, tabs and streamed rows reuse it; a link without one (opened,
  // shared) runs now, as an explicit Run does (issue 37).
  const runId = url.searchParams.get('run') || newRunId()
  const earlyOutcome = isEarlyRun ? runForUi(api, fromUrl.sql, fromUrl.options, page, runId) : null
  // Settled here too: when a read below fails first, the run's own failure must not go unhandled.
  earlyOutcome?.catch(() => undefined)
  const [picker, schema] = await Promise.all([loadFromCluster(() => loadPicker(api, url)), loadSchemaTree(api, url)])
  const { sql, options, optionErrors } = fromUrl.sql !== '' ? fromUrl : readQueryParams(url, picker)
  // a name typed in Save… before a Run rides along in the run's link, so it is still there to save
  const saveName = url.searchParams.get('name') ?? ''
  const reading = readStatement(sql)
  const doubt: StatementDoubt | null = reading.doubt
  const base = {
    picker,
    schema,
    sql,
    options,
    optionErrors,
    tab,
    isChange: false,
    doubt,
    // said by the server: the browser build does not carry the statement reader (decision 100)
    doubtText: doubt ? doubtMessage(doubt) : null,
    runId,
    saveName,
    view: chartViewFields(url.searchParams),
    chart: null as ChartPart | null,
    paramErrors: null as Record<string, string> | null,
  }
  if (!sql.trim()) return data({ ...base, sqlError: NO_SQL_MESSAGE, outcome: null, analysis: null }, { status: 400 })
  if (Object.keys(optionErrors).length)
    return data({ ...base, sqlError: undefined, outcome: null, analysis: null }, { status: 400 })
  // A GET (a link, a reload, a prefetch) never changes anything: a change, or a statement the console
  // cannot read for sure, waits for a confirmed POST. Analysis runs EXPLAIN of it, so only of one
  // whole statement (EXPLAIN of `a; b` or `a PARALLEL WITH b` would run b).
  if (isChangingStatement(sql) && (tab !== 'analysis' || !reading.isOneStatement))
    return { ...base, isChange: true, sqlError: undefined, outcome: null, analysis: null }
  if (tab === 'analysis') {
    const analysis = await runAnalysis(api, sql, options)
    return { ...base, sqlError: undefined, outcome: null, analysis }
  }
  const outcome = await (earlyOutcome ?? runForUi(api, sql, options, page, runId))
  const paramErrors = paramErrorsOf(outcome, sql)
  // The Chart tab draws the whole run (up to the cap), read again from the result cache it is in.
  const chart =
    tab === CHART_TAB && outcome.kind === 'rows'
      ? await chartOfRun(api, sql, options, runId, readChartView(url.searchParams))
      : null
  // A GET never writes: the history is written by the Run form's POST (the action), not here.
  return data(
    { ...base, chart, paramErrors, sqlError: undefined, outcome, analysis: null },
    { status: outcome.kind === 'error' ? outcome.status : 200 },
  )
}

/**
 * The Run form's POST (issue 37): runs the query, records the run in the user's history (when the
 * history is on) and redirects to the run's link, whose GET shows it from the result cache on this
 * replica (or runs it again on another) and never writes anything. Fields the GET must refuse (no
 * SQL, options in error, a statement that changes data) are not run: the link shows why, or asks
 * to confirm.
 */
export async function runFromForm(request: Request, formData: FormData) {
  const api = await requireApi(request)
  const params = new URLSearchParams()
  // a parameter's value is sent even empty (an empty String is one); an empty split says "none"
  for (const [key, value] of formData)
    if (typeof value === 'string' && (value.trim() !== '' || key.startsWith('param_') || key === 'split'))
      params.append(key, value)
  params.delete('run')
  params.delete('page')
  // a Run from the chart stays on the chart (its view rides in the form); from any other tab it shows the rows
  if (params.get('tab') !== CHART_TAB) {
    params.delete('tab')
    for (const name of CHART_FIELDS) params.delete(name)
  }
  const view = chartViewFields(params)
  const { sql, options, optionErrors } = readQueryParams(new URL(`/result?${params}`, request.url), null)
  const canRun = sql.trim() !== '' && !Object.keys(optionErrors).length && !isChangingStatement(sql)
  // A query too long for a link (a browser and this server refuse a request line past 16 KB) is
  // shown in the POST's own answer: it runs and is recorded the same, only its page has no link.
  if (`/result?${params}`.length + RUN_ID_ROOM > MAX_RUN_LINK) {
    // the options as typed (spaces and all) on the form; they run trimmed
    const typed = typedOptions(formData)
    const ran = {
      sql,
      options: typed,
      optionErrors,
      saveName: String(formData.get('name') ?? ''),
      isChange: isChangingStatement(sql),
      doubt: readStatement(sql).doubt,
      doubtText: readStatement(sql).doubt ? doubtMessage(readStatement(sql).doubt) : null,
      linkTooLong: true as const,
    }
    if (!sql.trim()) return data({ ...ran, sqlError: NO_SQL_MESSAGE, outcome: null }, { status: 400 })
    if (!canRun) return data({ ...ran, outcome: null }, { status: Object.keys(optionErrors).length ? 400 : 200 })
    const started = performance.now()
    const outcome = await runForUi(api, sql, options)
    await recordRun(request, sql, options, outcome, Math.round(performance.now() - started), view)
    return data(
      { ...ran, outcome, paramErrors: paramErrorsOf(outcome, sql) },
      { status: outcome.kind === 'error' ? outcome.status : 200 },
    )
  }
  if (canRun) {
    const runId = newRunId()
    const started = performance.now()
    const outcome = await runForUi(api, sql, options, 1, runId)
    // Written before the redirect, so the history read through any replica shows it.
    await recordRun(request, sql, options, outcome, Math.round(performance.now() - started), view)
    params.set('run', runId)
  }
  return redirect(`/result?${params}#result`)
}

/**
 * A statement that changes data, after the user confirmed it on the page (the SQL comes in the
 * form, the options from the URL). An alter statement becomes an alter job and the page goes to
 * it; anything else shows its answer on the page.
 */
export async function runConfirmedChange(request: Request, formData: FormData) {
  const api = await requireApi(request)
  const sql = formData.get('sql')
  if (formData.get('intent') !== RUN_CHANGE_INTENT || typeof sql !== 'string' || !sql.trim()) {
    throw data({ message: 'Unknown action' }, { status: 400 })
  }
  const { options, optionErrors } = readOptionsOnly(new URL(request.url))
  if (Object.keys(optionErrors).length) throw data({ message: Object.values(optionErrors).join(' ') }, { status: 400 })
  if (isAlterJobSql(sql)) {
    try {
      const jobId = await createAlterJob(api, sql)
      return redirectWithToast(`/jobs/alter-jobs?job=${encodeURIComponent(jobId)}`, {
        title: 'Alter job created: counting the rows it changes',
        type: 'success',
      })
    } catch (error) {
      const message = engineMessage(error)
      if (!message) throw error instanceof ClusterError ? errorResponse(error) : error
      return data({ sql, outcome: { kind: 'error', message, status: 400 } as QueryOutcome }, { status: 400 })
    }
  }
  const outcome = await runForUi(api, sql, options)
  // the statement that ran comes back with its answer: the editor shows it, whatever the URL says
  return data({ sql, outcome }, { status: outcome.kind === 'error' ? outcome.status : 200 })
}
