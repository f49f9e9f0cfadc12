import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { lazy, Suspense } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { SectionTabs } from '~/components/layout/section-tabs'
import type { AnalysisPart, ChartPart, QueryOutcome } from '~/services/query/run.server'
import { withBase } from '~/utils/base-path'
import { CHART_FIELDS, CHART_TAB } from '~/utils/chart-values'
import { formatNumber } from '~/utils/format-number'
import { EMPTY_RESULT_MESSAGE, QUERY_UI_MAX_ROWS } from '~/utils/query-options'
import { tabOf, type ResultTab } from '~/utils/result-page'
import { ResultGrid } from './result-grid'

// The Chart tab's view is its own chunk (its controls and figure; Plotly is a further one): rendered
// on the server like the rest, it keeps the result page's first load within its budget (decision 100).
// Statistics, Analysis and the no-script pager: shown on their tab (or without scripts) only.
const resultExtras = () => import('./result-extras')
const Statistics = lazy(() => resultExtras().then((module) => ({ default: module.Statistics })))
const Analysis = lazy(() => resultExtras().then((module) => ({ default: module.Analysis })))
const ResultPager = lazy(() => resultExtras().then((module) => ({ default: module.ResultPager })))
const QueryChart = lazy(() =>
  import('~/components/charts/query-chart').then((module) => ({ default: module.QueryChart })),
)

/**
 * A run's result below the editor: its downloads, its tabs (Results, Chart, Statistics, Analysis, in
 * the URL's `tab`) and the tab's part; `search` is the page's search with the run's id.
 */
export function ResultSection({
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
