import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { lazy, Suspense } from 'react'
import { ClientOnly } from 'remix-utils/client-only'
import { useHydrated } from 'remix-utils/use-hydrated'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { InlineAlert } from '~/components/layout/inline-alert'
import { formatNumber } from '~/utils/format-number'
import { utcCell, type SeriesPanelData } from './__series'
import { defineCss } from '~/components/ui/plain'

// Plotly (about 400 KB gzipped) is its own chunk, fetched only once a chart is on screen.
const SeriesChart = lazy(() => import('./__series-chart.client'))

type Row = { time: number; values: number[]; total: number }

const panelCss = defineCss({
  '& details > summary': { cursor: 'pointer', fontSize: 'sm', color: 'link', py: '1', width: 'fit-content' },
  '& details[open] > summary': { mb: '2' },
} as const)

/**
 * One Counts panel: a Plotly chart (with scripts) over a server-rendered table of the same series.
 * Without scripts the table is the panel, open; with them it stays under the chart in "Show data".
 */
export function SeriesPanel({ panel, withSeconds }: { panel: SeriesPanelData; withSeconds: boolean }) {
  const isHydrated = useHydrated()
  const headingId = `panel-${panel.id}-heading`
  return (
    <Box as="section" aria-labelledby={headingId} bg="bg" borderWidth="1px" rounded="md" p="4" css={panelCss}>
      <Box display="flex" justifyContent="space-between" alignItems="baseline" gap="3" mb="2" flexWrap="wrap">
        <Box>
          <Heading as="h2" id={headingId} size="sm">
            {panel.title}
          </Heading>
          <Text fontSize="xs" color="fg.muted">
            {panel.description}
          </Text>
        </Box>
        {panel.error ? null : (
          <Text fontSize="sm" color="fg.muted" data-testid="panel-total">
            {formatNumber(panel.total)} {panel.unit} in range
          </Text>
        )}
      </Box>
      {panel.error ? (
        <InlineAlert>{panel.error}</InlineAlert>
      ) : !panel.series.length ? (
        <Box
          role="status"
          color="fg.muted"
          fontSize="sm"
          p="3"
          textAlign="center"
          borderWidth="1px"
          borderStyle="dashed"
          rounded="md"
        >
          No {panel.unit} in this range.
        </Box>
      ) : (
        <>
          <ClientOnly fallback={null}>
            {() => (
              <Suspense fallback={<ChartPlaceholder />}>
                <SeriesChart panel={panel} />
              </Suspense>
            )}
          </ClientOnly>
          <details open={!isHydrated}>
            <summary>Show data</summary>
            <SeriesTable panel={panel} withSeconds={withSeconds} />
          </details>
        </>
      )}
    </Box>
  )
}

function ChartPlaceholder() {
  return (
    <Box
      h="260px"
      display="flex"
      alignItems="center"
      justifyContent="center"
      color="fg.muted"
      fontSize="sm"
      role="status"
    >
      Loading chart…
    </Box>
  )
}

function SeriesTable({ panel, withSeconds }: { panel: SeriesPanelData; withSeconds: boolean }) {
  const hasTotal = panel.series.length > 1
  // Newest first, as the logs: the latest intervals are what people open the table for.
  const rows: Row[] = panel.times
    .map((time, index) => {
      const values = panel.series.map((series) => series.values[index] ?? 0)
      return { time, values, total: values.reduce((sum, value) => sum + value, 0) }
    })
    .reverse()
  const columns: Column<Row>[] = [
    { key: 'time', header: 'Interval ending (UTC)', isRowHeader: true, cell: (row) => utcCell(row.time, withSeconds) },
    ...panel.series.map((series, index) => ({
      key: `s-${series.name}`,
      header: series.name || 'all',
      cell: (row: Row) => formatNumber(row.values[index]),
    })),
    ...(hasTotal ? [{ key: 'total', header: 'Total', cell: (row: Row) => formatNumber(row.total) }] : []),
  ]
  return (
    // a scrolling box a keyboard can reach (tab to it, then arrows scroll it)
    <Box maxH="80" overflowY="auto" tabIndex={0} role="region" aria-label={`${panel.title} data`}>
      <DataTable
        caption={`${panel.title} per interval, newest first`}
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.time)}
        empty={null}
      />
    </Box>
  )
}
