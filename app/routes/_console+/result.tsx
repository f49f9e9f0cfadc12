import { Box, chakra, HStack, Stack, Text } from '@chakra-ui/react'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { withBase } from '~/utils/base-path'
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
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
import { type StatementDoubt } from '~/utils/sql-statement'
import { CHART_FIELDS, CHART_TAB } from '~/utils/chart-values'
import type { RouteHandle } from '~/utils/handle'
import { RUN_CHANGE_INTENT, tabOf, type ResultTab } from '~/utils/result-page'
import {
  QueryWorkspaceRoute,
  type WorkspaceHandle,
  type WorkspaceInput,
  type WorkspaceView,
} from './queries+/__workspace'
import { EMPTY_RESULT_MESSAGE, QUERY_UI_MAX_ROWS } from '~/utils/query-options'
import { ResultGrid } from '~/components/query-result/result-grid'
import type { AnalysisPart, ChartPart, ErrorPosition, QueryOutcome } from '~/services/query/run.server'
import { loadResultPage, runConfirmedChange, runFromForm } from '~/services/query/result-page.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

// The Chart tab's view is its own chunk (its controls and figure; Plotly is a further one): rendered
// on the server like the rest, it keeps the result page's first load within its budget (decision 100).
// Statistics, Analysis and the no-script pager: shown on their tab (or without scripts) only.
const resultExtras = () => import('~/components/query-result/result-extras')
const ConfirmChange = lazy(() => resultExtras().then((module) => ({ default: module.ConfirmChange })))
const Statistics = lazy(() => resultExtras().then((module) => ({ default: module.Statistics })))
const Analysis = lazy(() => resultExtras().then((module) => ({ default: module.Analysis })))
const ResultPager = lazy(() => resultExtras().then((module) => ({ default: module.ResultPager })))
const QueryChart = lazy(() =>
  import('~/components/charts/query-chart').then((module) => ({ default: module.QueryChart })),
)

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadResultPage(api, new URL(request.url))
}

/**
 * A Run (the query form's POST, which redirects to its run's link), or a statement that changes data
 * after the user confirmed it on this page (services/query/result-page.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData()
  return formData.has('intent') ? runConfirmedChange(request, formData) : runFromForm(request, formData)
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
