import { Box, chakra, HStack, Stack, Text } from '@chakra-ui/react'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { withBase } from '~/utils/base-path'
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  redirect,
  type MetaFunction,
  type SerializeFrom,
} from '@remix-run/node'
import { type ShouldRevalidateFunctionArgs } from '@remix-run/react'
import { lazy, Suspense } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { requireApi } from '~/api/client.server'
import { PageHeader } from '~/components/layout/page-header'
import { SectionTabs } from '~/components/layout/section-tabs'
import { formatNumber } from '~/utils/format-number'
import { ClusterError } from '~/api/errors.server'
import { createAlterJob, engineMessage } from '~/api/jobs.server'
import { errorResponse, loadFromCluster } from '~/api/policies.server'
import { isAlterJobSql } from '~/schemas/job-values'
import { isChangingStatement } from '~/utils/sql'
import { doubtMessage, readStatement, type StatementDoubt } from '~/utils/sql-statement'
import { redirectWithToast } from '~/utils/toast.server'
import { chartViewFields, readChartView } from '~/utils/chart-spec'
import { CHART_FIELDS, CHART_TAB } from '~/utils/chart-values'
import type { RouteHandle } from '~/utils/handle'
import {
  QueryWorkspaceRoute,
  type WorkspaceHandle,
  type WorkspaceInput,
  type WorkspaceView,
} from './queries+/__workspace'
import { EMPTY_RESULT_MESSAGE, NO_SQL_MESSAGE, QUERY_UI_MAX_ROWS, typedOptions } from '~/utils/query-options'
import { ResultGrid } from './queries+/__result-grid'
import { loadSchemaTree } from '~/services/query/schema.server'
import { pageOf } from './queries+/__result-cells'
import { recordRun } from '~/services/query/saved.server'
import {
  chartOfRun,
  loadPicker,
  paramErrorsOf,
  newRunId,
  readOptionsOnly,
  readQueryParams,
  runAnalysis,
  runForUi,
  type AnalysisPart,
  type ChartPart,
  type ErrorPosition,
  type QueryOutcome,
} from '~/services/query/run.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

// The Chart tab's view is its own chunk (its controls and figure; Plotly is a further one): rendered
// on the server like the rest, it keeps the result page's first load within its budget (decision 100).
// Statistics, Analysis and the no-script pager: shown on their tab (or without scripts) only.
const resultExtras = () => import('./queries+/__result-extras')
const ConfirmChange = lazy(() => resultExtras().then((module) => ({ default: module.ConfirmChange })))
const Statistics = lazy(() => resultExtras().then((module) => ({ default: module.Statistics })))
const Analysis = lazy(() => resultExtras().then((module) => ({ default: module.Analysis })))
const ResultPager = lazy(() => resultExtras().then((module) => ({ default: module.ResultPager })))
const QueryChart = lazy(() =>
  import('~/components/charts/query-chart').then((module) => ({ default: module.QueryChart })),
)

const RUN_CHANGE_INTENT = 'run-change'
/** The longest run link a Run redirects to (Node and browsers refuse a request line past 16 KB). */
export const MAX_RUN_LINK = 8_000
/** Room for `&run=<id>#result` on a run's link. */
const RUN_ID_ROOM = 64

const TABS = ['results', CHART_TAB, 'statistics', 'analysis'] as const
type ResultTab = (typeof TABS)[number]

function tabOf(value: string | null): ResultTab {
  return (TABS as readonly string[]).includes(value ?? '') ? (value as ResultTab) : 'results'
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
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
async function runFromForm(request: Request, formData: FormData) {
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
 * A Run (the query form's POST), or a statement that changes data after the user confirmed it on
 * this page (the SQL comes in the form, the options from the URL). An alter statement becomes an
 * alter job and the page goes to it; anything else shows its answer here.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData()
  if (!formData.has('intent')) return runFromForm(request, formData)
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

/**
 * Results and Statistics come from the same run: with scripts, switching between them keeps the
 * loaded result instead of running the query again. Any other change (a new run included) reloads.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate
  const current = new URLSearchParams(currentUrl.search)
  const next = new URLSearchParams(nextUrl.search)
  const from = tabOf(current.get('tab'))
  const to = tabOf(next.get('tab'))
  current.delete('tab')
  next.delete('tab')
  // the chart is drawn by the loader (the whole run, the SVG): going to it or changing it loads it;
  // leaving it for Results or Statistics keeps the run's page it came with
  if (to === CHART_TAB) return defaultShouldRevalidate
  for (const name of CHART_FIELDS) {
    current.delete(name)
    next.delete(name)
  }
  // the run's id added to the links of a page opened without one names the same run
  if (!current.has('run')) next.delete('run')
  if (
    currentUrl.pathname === nextUrl.pathname &&
    current.toString() === next.toString() &&
    from !== 'analysis' &&
    to !== 'analysis'
  )
    return false
  return defaultShouldRevalidate
}

/** The page's search with the run it shows: its tabs, pages and streamed rows are of that run. */
function withRun(search: string, runId: string | undefined): string {
  const params = new URLSearchParams(search)
  if (runId) params.set('run', runId)
  return `?${params}`
}

/** What an action's answer holds (the two POSTs that show their run here rather than redirect). */
type RanHere = {
  sql?: string
  options?: SerializeFrom<typeof loader>['options']
  optionErrors?: SerializeFrom<typeof loader>['optionErrors']
  sqlError?: string
  saveName?: string
  isChange?: boolean
  doubt?: StatementDoubt | null
  doubtText?: string | null
  linkTooLong?: boolean
  paramErrors?: Record<string, string> | null
  outcome: unknown
}

/** A run's part of the shared Query workspace (./queries+/__workspace): the editor above, the result below. */
function resultView({ data, actionData, location }: WorkspaceInput): WorkspaceView {
  const loaded = data as SerializeFrom<typeof loader>
  // A POST's own answer (a confirmed change, or a Run too long for a link) shows what it ran.
  const ran = actionData as RanHere | undefined
  const outcome = (ran ? ran.outcome : loaded.outcome) as QueryOutcome | null
  const isConfirming = ran ? Boolean(ran.isChange && !ran.outcome) : loaded.isChange
  const analysis = ran ? null : (loaded.analysis as AnalysisPart[] | null)
  const sql = ran?.sql ?? loaded.sql
  // a value the engine refused for a parameter: its message goes on that parameter's input
  const paramErrors = (ran ? ran.paramErrors : loaded.paramErrors) ?? undefined
  const refusedParam = paramErrors ? Object.keys(paramErrors)[0] : null
  return {
    header: <PageHeader title="Query" mb="2" />,
    sql,
    picker: loaded.picker,
    // The key the editor has on /queries: a run keeps it mounted.
    editorKey: 'editor',
    editor: {
      sql,
      options: ran?.options ?? loaded.options,
      optionErrors: ran?.optionErrors ?? loaded.optionErrors,
      sqlError: ran ? ran.sqlError : loaded.sqlError,
      schema: loaded.schema,
      save: { name: (ran?.saveName ?? loaded.saveName) || undefined },
      isCompact: Boolean(outcome && outcome.kind !== 'error'),
      paramErrors,
      view: ran ? undefined : loaded.view,
      error:
        outcome?.kind === 'error' ? (
          refusedParam ? (
            <Text>
              The query was not run: the cluster refused the value of parameter <code>{refusedParam}</code> (see its
              field above).
            </Text>
          ) : (
            <ErrorText message={outcome.message} status={outcome.status} position={outcome.position} />
          )
        ) : undefined,
    },
    after: (
      <>
        {ran?.linkTooLong ? (
          <Box role="status" bg="bg.muted" rounded="md" px="3" py="2" mb="3" fontSize="sm">
            <Text fontWeight="medium">This query is too long for a link</Text>
            It ran from the form: reloading this page or sharing its address does not run it again. Saved queries and
            History keep it.
          </Box>
        ) : null}
        {isConfirming ? (
          <Suspense fallback={<Text>Loading…</Text>}>
            <ConfirmChange
              sql={sql}
              doubtText={(ran ? ran.doubtText : loaded.doubtText) ?? null}
              intent={RUN_CHANGE_INTENT}
            />
          </Suspense>
        ) : null}
        {outcome || analysis ? (
          <ResultSection
            outcome={outcome}
            analysis={analysis}
            chart={ran ? null : (loaded.chart as ChartPart | null)}
            search={withRun(location.search, loaded.runId)}
          />
        ) : null}
      </>
    ),
  }
}

export const handle: RouteHandle & WorkspaceHandle = { docsTopic: 'query', workspaceView: resultView }

export default QueryWorkspaceRoute

function ResultSection({
  outcome,
  analysis,
  chart,
  search,
}: {
  outcome: QueryOutcome | null
  analysis: AnalysisPart[] | null
  chart: ChartPart | null
  search: string
}) {
  // The tab is read from the URL: with scripts a switch between Results and Statistics keeps the data.
  const tab = tabOf(new URLSearchParams(search).get('tab'))
  const withTab = (next: ResultTab) => {
    const params = new URLSearchParams(search)
    if (next === 'results') params.delete('tab')
    else params.set('tab', next)
    // the chart's choice is kept for the Chart tab only; other tabs' links do not carry it
    if (next !== CHART_TAB) for (const name of CHART_FIELDS) params.delete(name)
    return `/result?${params}`
  }
  const csvParams = new URLSearchParams(search)
  csvParams.delete('tab')
  csvParams.delete('page')
  // the rows streamed into the grid are of this run; a download runs the query again
  const rowsParams = new URLSearchParams(csvParams)
  csvParams.delete('run')
  return (
    <Box as="section" id="result" aria-labelledby="result-heading" scrollMarginTop="4">
      <HStack justify="space-between" wrap="wrap" gap="2" mb="2">
        <Heading as="h2" id="result-heading" size="md">
          Result
        </Heading>
        <HStack gap="2">
          <Button asChild size="sm" variant="outline">
            <a href={withBase(`/resources/query-csv?${csvParams}`)} download>
              Download CSV
            </a>
          </Button>
          <Button asChild size="sm" variant="outline">
            <a href={withBase(`/resources/query-csv?${csvParams}${csvParams.size ? '&' : ''}as=json`)} download>
              Download JSON
            </a>
          </Button>
        </HStack>
      </HStack>
      <SectionTabs
        label="Result"
        mb="4"
        tabs={[
          { label: 'Results', to: withTab('results'), isCurrent: tab === 'results' },
          { label: 'Chart', to: withTab(CHART_TAB), isCurrent: tab === CHART_TAB },
          { label: 'Statistics', to: withTab('statistics'), isCurrent: tab === 'statistics' },
          { label: 'Analysis', to: withTab('analysis'), isCurrent: tab === 'analysis' },
        ]}
      />
      {tab === 'analysis' ? (
        analysis ? (
          <Suspense fallback={<Text>Loading the analysis…</Text>}>
            <Analysis parts={analysis} />
          </Suspense>
        ) : (
          <Text>Loading the analysis…</Text>
        )
      ) : outcome ? (
        tab === 'statistics' ? (
          <Suspense fallback={<Text>Loading the statistics…</Text>}>
            <Statistics outcome={outcome} />
          </Suspense>
        ) : tab === CHART_TAB ? (
          outcome.kind === 'rows' && outcome.rowCount && chart ? (
            <Suspense fallback={<Box maxW="48rem" color="fg" dangerouslySetInnerHTML={{ __html: chart.svg ?? '' }} />}>
              <QueryChart
                columns={chart.columns}
                data={chart.data}
                svg={chart.svg}
                search={search}
                rowCap={QUERY_UI_MAX_ROWS}
              />
            </Suspense>
          ) : outcome.kind === 'error' ? (
            <Text color="fg.muted">The query failed: see the message under the editor.</Text>
          ) : outcome.kind === 'rows' && !outcome.rowCount ? (
            <EmptyResult />
          ) : (
            <Text color="fg.muted">
              Only a result shown as a table can be drawn: this one is in{' '}
              {outcome.kind === 'text' ? outcome.format : 'another'} format.
            </Text>
          )
        ) : (
          <Results outcome={outcome} search={rowsParams.toString()} />
        )
      ) : null}
    </Box>
  )
}

function ErrorText({
  message,
  status,
  position,
}: {
  message: string
  status: number
  position?: ErrorPosition | null
}) {
  return (
    <>
      <Text fontWeight="semibold" mb="1">
        {status === 400 ? 'The query failed' : 'The query could not be run'}
        {position
          ? position.isPastEnd
            ? ` at the end of line ${position.line}`
            : ` at line ${position.line}, column ${position.column}`
          : ''}
      </Text>
      {position ? (
        <chakra.pre fontFamily="mono" fontSize="sm" m="0" mb="2" overflowX="auto" data-testid="error-position">
          {`${position.text}\n${' '.repeat(Math.max(0, position.column - 1))}^`}
        </chakra.pre>
      ) : null}
      <chakra.pre whiteSpace="pre-wrap" wordBreak="break-word" fontFamily="mono" fontSize="sm" m="0">
        {message}
      </chakra.pre>
    </>
  )
}

function Results({ outcome, search }: { outcome: QueryOutcome; search: string }) {
  const isHydrated = useHydrated()
  if (outcome.kind === 'error') {
    return <Text color="fg.muted">The query failed: see the message under the editor.</Text>
  }
  if (outcome.kind === 'text') {
    return (
      <Stack gap="2">
        <Text fontSize="sm" color="fg.muted">
          The answer is in {outcome.format || 'text'} format
          {outcome.isTruncated ? '; only its first megabyte is shown' : ''}.
        </Text>
        {outcome.text.trim() ? (
          <chakra.pre
            borderWidth="1px"
            rounded="md"
            bg="bg"
            p="3"
            fontSize="sm"
            maxH="70vh"
            overflow="auto"
            data-testid="query-text"
          >
            {outcome.text}
          </chakra.pre>
        ) : (
          <EmptyResult />
        )}
      </Stack>
    )
  }
  if (!outcome.rowCount) return <EmptyResult />
  const rowsUrl = withBase(`/resources/query-rows?${search}`)
  return (
    <Stack gap="2">
      <Text fontSize="sm" role="status">
        {formatNumber(outcome.rowCount)} {outcome.rowCount === 1 ? 'row' : 'rows'}
        {outcome.isCapped
          ? ` shown: the query UI is limited to ${formatNumber(QUERY_UI_MAX_ROWS)} rows. Download CSV for all of them, or narrow the query.`
          : ''}
      </Text>
      <ResultGrid
        columns={outcome.columns}
        rows={outcome.rows}
        offset={outcome.offset}
        rowCount={outcome.rowCount}
        rowsUrl={rowsUrl}
      />
      {isHydrated ? null : (
        <Suspense fallback={null}>
          <ResultPager outcome={outcome} search={search} />
        </Suspense>
      )}
    </Stack>
  )
}

function EmptyResult() {
  return (
    <Box borderWidth="1px" rounded="md" bg="bg" p="8" textAlign="center" color="fg.muted" role="status">
      {EMPTY_RESULT_MESSAGE}
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Query result · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The query could not be run' })
