import { SimpleGrid, chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Link, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { SparkBars } from '~/components/charts/spark-bars'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { DateTime, EngineDateTime } from '~/components/layout/date-time'
import { useDisplayZone } from '~/components/layout/use-timezone'
import { InlineAlert } from '~/components/layout/inline-alert'
import { LoadSampleForm } from '~/components/layout/load-sample-form'
import { SectionCard } from '~/components/layout/section-card'
import { Code } from '~/components/ui/code'
import { Heading } from '~/components/ui/heading'
import { engineTimeToIso, formatClock, formatEngineTime } from '~/utils/engine-time'
import { formatBytes, formatNumber } from '~/utils/format-number'
import type { TableIngest } from './__table-ingest'
import {
  DATA_PAGE_ROWS,
  DATA_PARAMS,
  FIGURE_WINDOWS,
  type ArrivalPart,
  type ColumnFigures,
  type DataColumn,
  type IngestState,
  type QueryCost,
  type RowsPart,
  type TableDataPart,
} from './__table-data-values'
import { FigureList } from '~/components/ui/figure-list'
import { defineCss } from '~/components/ui/plain'

/*
 * Times (issue 54): the engine's texts are UTC; the part shows them in the user's timezone
 * preference, labelled (app/utils/engine-time.ts), as the page's details are.
 */

/** The ms of an engine UTC time text (NaN when it is not one). */
function msOf(text: string): number {
  return Date.parse(engineTimeToIso(text) ?? '')
}

/**
 * Whether a column's values are engine UTC texts: a date and time type without a zone of its own,
 * or with UTC (a column typed in another zone is printed in that zone, and shown as it is).
 */
function isUtcTime(column: DataColumn): boolean {
  if (column.kind !== 'time') return false
  const zone = /'([^']+)'/.exec(column.type)?.[1]
  return zone === undefined || zone === 'UTC'
}

const linkCss = defineCss({
  '& a': { color: 'link', textDecoration: 'underline', textUnderlineOffset: '2px' },
  '& a[aria-current]': { fontWeight: 'semibold', textDecoration: 'none' },
} as const)

function CostLine({ cost, href, what }: { cost: QueryCost; href: string; what: string }) {
  return (
    <Text fontSize="xs" color="fg.muted" css={linkCss}>
      Cost: {formatNumber(cost.rowsRead)} rows read ({formatBytes(cost.bytesRead)}) in {formatNumber(cost.ms)} ms, from
      the query&apos;s statistics. <Link to={href}>Open {what} in the query workspace</Link>
    </Text>
  )
}

/**
 * The table page's data parts (issue 51): "Is data arriving?" (the last hour and day, the newest row,
 * the ingest sources' state, or what to do next when the table is empty) and "Data" (the newest rows,
 * paged by links, and a column's figures on request). Everything is links and server HTML. Loaded
 * lazily by __table-data.tsx, so the page's first load stays within its budget.
 */
export default function TableDataViews({
  data,
  ingest,
  isSummary = false,
}: {
  data: TableDataPart
  ingest: TableIngest
  /** A summary table takes no data of its own: an empty one says where its rows come from instead. */
  isSummary?: boolean
}) {
  return (
    <>
      <ArrivalPanel data={data} ingest={ingest} isSummary={isSummary} />
      <DataPanel data={data} />
    </>
  )
}

function ArrivalPanel({ data, ingest, isSummary }: { data: TableDataPart; ingest: TableIngest; isSummary: boolean }) {
  const arrival = data.arrival
  return (
    <SectionCard id="arrival" title="Is data arriving?">
      <Stack gap="4">
        {!arrival ? (
          <Text>{data.message}</Text>
        ) : arrival.denied ? (
          <Text role="status" data-denied="">
            {arrival.denied}
          </Text>
        ) : arrival.error ? (
          <InlineAlert title="What arrived could not be read">{arrival.error}</InlineAlert>
        ) : arrival.isEmpty && isSummary ? (
          <Text role="status">
            This summary table has no rows yet: they are written as its source table takes data (see Summary of).
          </Text>
        ) : arrival.isEmpty ? (
          <EmptyTable ingest={ingest} />
        ) : (
          <ArrivalFigures arrival={arrival} />
        )}
        <IngestStateList state={data.ingest} />
      </Stack>
    </SectionCard>
  )
}

function EmptyTable({ ingest }: { ingest: TableIngest }) {
  return (
    <Box role="status" borderWidth="1px" rounded="md" p="4" css={linkCss}>
      <Text fontWeight="semibold" mb="1">
        This table has no rows yet.
      </Text>
      <Text mb="2">
        Send it rows with <Code>POST {ingest.url}</Code> and the header <Code>x-hdx-table: {ingest.tableRef}</Code> (the
        whole request is under <a href="#ingest-heading">Send data over HTTP</a>), or add a Kafka, Kinesis or auto batch
        source.
      </Text>
      <HStack gap="3" wrap="wrap">
        {ingest.transform ? (
          <Link to={ingest.transform.editTo}>Ingest sample rows through the {ingest.transform.name} transform</Link>
        ) : (
          <Link to={ingest.newTransformTo}>Publish a transform first</Link>
        )}
        <LoadSampleForm />
      </HStack>
    </Box>
  )
}

function ArrivalFigures({ arrival }: { arrival: ArrivalPart }) {
  const zone = useDisplayZone()
  const minuteStart = msOf(arrival.minuteStart)
  const dayStart = msOf(arrival.dayStart)
  const minuteLabels = arrival.minutes.map((_, i) => formatClock(minuteStart + i * 60_000, zone))
  const hourLabels = arrival.hours.map((_, i) => formatClock(dayStart + i * 3_600_000, zone, true))
  const figures: [string, ReactNode][] = [
    ['Rows in the last hour', formatNumber(arrival.lastHour)],
    ['Rows in the last day', formatNumber(arrival.lastDay)],
    [
      'Newest timestamp',
      arrival.newest ? (
        <>
          <DateTime value={engineTimeToIso(arrival.newest)} />
          {arrival.ageText ? (
            <chakra.span display="block" fontSize="sm" fontWeight="normal">
              {arrival.ageText}
            </chakra.span>
          ) : null}
        </>
      ) : (
        '—'
      ),
    ],
  ]
  return (
    <Stack gap="3">
      <FigureList figures={figures} columns={{ base: 1, sm: 3 }} gap="3" />
      <Text fontSize="xs" color="fg.muted">
        Counted by the primary timestamp
        {arrival.ahead ? `; ${formatNumber(arrival.ahead)} rows are timestamped ahead of now` : ''}.
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Box>
          <Heading as="h3" size="sm" mb="1">
            Per minute, last hour
          </Heading>
          <SparkBars
            title="Rows per minute over the last hour"
            values={arrival.minutes}
            labels={minuteLabels}
            unit="rows"
            startLabel={minuteLabels[0]!}
            endLabel="now"
          />
        </Box>
        <Box>
          <Heading as="h3" size="sm" mb="1">
            Per hour, last day
          </Heading>
          <SparkBars
            title="Rows per hour over the last day"
            values={arrival.hours}
            labels={hourLabels}
            unit="rows"
            startLabel={hourLabels[0]!}
            endLabel="now"
          />
        </Box>
      </SimpleGrid>
      <CostLine cost={arrival.cost} href={arrival.workspaceHref} what="this count" />
    </Stack>
  )
}

const TONES = { ok: 'green', off: 'gray', bad: 'red' } as const

function IngestStateList({ state }: { state: IngestState }) {
  type Entry = IngestState['entries'][number]
  const columns: Column<Entry>[] = [
    { key: 'name', header: 'Source', isRowHeader: true, cell: (row) => <Link to={row.href}>{row.name}</Link> },
    { key: 'kind', header: 'Kind', cell: (row) => row.kind },
    {
      key: 'state',
      header: 'State',
      cell: (row) => (
        <chakra.span color={`${TONES[row.tone]}.fg`} fontWeight="medium">
          {row.state}
        </chakra.span>
      ),
    },
  ]
  return (
    <Box>
      <Heading as="h3" size="sm" mb="2">
        What feeds this table
      </Heading>
      {state.sourcesError ? (
        <Text role="status" data-denied="" mb="2">
          {state.sourcesError}
        </Text>
      ) : null}
      {state.jobsError ? (
        <Text role="status" data-denied="" mb="2">
          {state.jobsError}
        </Text>
      ) : null}
      <DataTable
        caption="Ingest sources, auto batch entries and batch jobs of this table, with their state"
        columns={columns}
        rows={state.entries}
        rowKey={(row) => row.key}
        empty={
          <Text>
            No pull source, auto batch entry or recent batch job feeds this table: rows come over HTTP (see{' '}
            <a href="#ingest-heading">Send data over HTTP</a>).
          </Text>
        }
      />
      <Text fontSize="xs" color="fg.muted" mt="1">
        Batch jobs: among the organization&apos;s {state.jobsRead} newest.
      </Text>
    </Box>
  )
}

function DataPanel({ data }: { data: TableDataPart }) {
  const rows = data.rows
  return (
    <SectionCard id="data" title="Data">
      {!rows ? (
        <Text>{data.message}</Text>
      ) : rows.denied ? (
        <Text role="status" data-denied="">
          {rows.denied}
        </Text>
      ) : rows.error ? (
        <InlineAlert title="The rows could not be read">{rows.error}</InlineAlert>
      ) : (
        <Stack gap="4">
          <RowsView rows={rows} primary={data.primary!} />
          {data.figures ? <FiguresView figures={data.figures} /> : null}
          <ColumnsList rows={rows} figures={data.figures} />
        </Stack>
      )}
    </SectionCard>
  )
}

function RowsView({ rows, primary }: { rows: RowsPart; primary: string }) {
  const isPaged = rows.newest !== null
  const columns: Column<(string | null)[]>[] = rows.columns.map((column, index) => ({
    key: column.name,
    header: column.name,
    isRowHeader: index === rows.primaryIndex,
    cell: (row) =>
      row[index] === null ? (
        <span data-muted="">NULL</span>
      ) : isUtcTime(column) ? (
        <EngineDateTime text={row[index]} />
      ) : (
        row[index]
      ),
  }))
  const order = rows.columns[rows.primaryIndex] ? [rows.primaryIndex] : []
  // the primary timestamp first: it is what the page is ordered and paged by
  const ordered = [...order.map((i) => columns[i]!), ...columns.filter((_, i) => !order.includes(i))]
  const shown = isPaged ? 'Rows' : `The ${formatNumber(Math.min(DATA_PAGE_ROWS, rows.rows.length))} newest rows`
  const stepsText = rows.steps.length > 1 ? ` (read in ${rows.steps.length} steps: ${rows.steps.join(', then ')})` : ''
  return (
    <Stack gap="2">
      <Text fontSize="sm">
        {rows.rows.length
          ? `${shown} by ${primary}, newest first, from ${rows.windowText}${stepsText}.`
          : `No rows in ${rows.windowText || 'any window'}.`}
      </Text>
      {rows.stoppedBy ? (
        <Text fontSize="sm" color="fg.muted">
          A wider window was refused: {rows.stoppedBy}
        </Text>
      ) : null}
      {rows.rows.length ? (
        <DataTable
          caption={`Rows of the table, newest first by ${primary}`}
          columns={ordered}
          rows={rows.rows}
          rowKey={(row) => rows.rows.indexOf(row).toString()}
          empty={null}
          css={{
            '& td, & th': { whiteSpace: 'nowrap', maxWidth: '24rem', overflow: 'hidden', textOverflow: 'ellipsis' },
          }}
        />
      ) : null}
      <HStack as="nav" aria-label="Pages of rows" gap="4" wrap="wrap" fontSize="sm" css={linkCss}>
        {rows.newest !== null ? <Link to={`?${rows.newest}#data`}>Newest rows</Link> : null}
        {rows.newer ? <Link to={`?${rows.newer}#data`}>Newer rows</Link> : null}
        {rows.older ? <Link to={`?${rows.older}#data`}>Older rows</Link> : null}
      </HStack>
      <CostLine cost={rows.cost} href={rows.workspaceHref} what="this read" />
    </Stack>
  )
}

/** The current page's search with `set` applied (empty values removed), for the part's GET links. */
function useSearchWith(set: Record<string, string | null>): string {
  const search = new URLSearchParams(useLocation().search)
  for (const [name, value] of Object.entries(set)) {
    if (value === null) search.delete(name)
    else search.set(name, value)
  }
  return `?${search}`
}

function ColumnsList({ rows, figures }: { rows: RowsPart; figures: ColumnFigures | null }) {
  const search = new URLSearchParams(useLocation().search)
  const windowKey = figures?.window.key ?? FIGURE_WINDOWS[1].key
  const hrefFor = (name: string) => {
    const next = new URLSearchParams(search)
    next.set(DATA_PARAMS.column, name)
    next.set(DATA_PARAMS.window, windowKey)
    return `?${next}#figures`
  }
  type Row = RowsPart['columns'][number]
  const columns: Column<Row>[] = [
    { key: 'name', header: 'Column', isRowHeader: true, cell: (row) => <code>{row.name}</code> },
    { key: 'type', header: 'Type', cell: (row) => <code>{row.type}</code> },
    {
      key: 'figures',
      header: 'Figures',
      cell: (row) =>
        figures?.column === row.name ? (
          <span data-muted="">Shown above</span>
        ) : (
          <Link to={hrefFor(row.name)} aria-label={`Figures of ${row.name}`}>
            Figures
          </Link>
        ),
    },
  ]
  return (
    <Box>
      <Heading as="h3" size="sm" mb="2">
        Columns
      </Heading>
      <DataTable
        caption="Columns of the table, each with a link to its figures"
        columns={columns}
        rows={rows.columns}
        rowKey={(row) => row.name}
        empty={<Text>No columns were read.</Text>}
      />
    </Box>
  )
}

function FiguresView({ figures }: { figures: ColumnFigures }) {
  const close = useSearchWith({ [DATA_PARAMS.column]: null, [DATA_PARAMS.window]: null })
  const zone = useDisplayZone()
  // a time column's min and max are engine UTC texts too
  const timeText = (text: string | null) =>
    text === null
      ? '—'
      : isUtcTime({ name: figures.column, type: figures.type, kind: figures.kind })
        ? formatEngineTime(text, zone)
        : text
  const search = new URLSearchParams(useLocation().search)
  const entries: [string, ReactNode][] = [
    ['Rows in the window', formatNumber(figures.rows)],
    ['Values (not null)', formatNumber(figures.values)],
    ['Nulls', formatNumber(figures.nulls)],
    ['Distinct values (approximate)', formatNumber(figures.distinct)],
  ]
  if (figures.kind === 'number' || figures.kind === 'time') {
    entries.push(['Min', timeText(figures.min)], ['Max', timeText(figures.max)])
  }
  return (
    <Box as="section" id="figures" aria-labelledby="figures-heading" borderWidth="1px" rounded="md" p="3">
      <HStack justify="space-between" wrap="wrap" gap="2" mb="2">
        <Heading as="h3" id="figures-heading" size="sm">
          Figures of <code>{figures.column}</code> ({figures.type})
        </Heading>
        <Box css={linkCss} fontSize="sm">
          <Link to={`${close}#data`}>Close the figures</Link>
        </Box>
      </HStack>
      <Text fontSize="sm" mb="1">
        Over {figures.window.label}: rows whose primary timestamp is from {formatEngineTime(figures.window.from, zone)}
        {figures.window.key === 'all' ? '' : ' up to now'} (rows timestamped ahead of now included).
      </Text>
      <HStack as="nav" aria-label="Window of the figures" gap="3" wrap="wrap" fontSize="sm" mb="3" css={linkCss}>
        <span>Window:</span>
        {FIGURE_WINDOWS.map((entry) => {
          const next = new URLSearchParams(search)
          next.set(DATA_PARAMS.window, entry.key)
          return (
            <Link
              key={entry.key}
              to={`?${next}#figures`}
              aria-current={entry.key === figures.window.key ? 'true' : undefined}
            >
              {entry.label}
            </Link>
          )
        })}
      </HStack>
      {figures.denied ? (
        <Text role="status" data-denied="">
          {figures.denied}
        </Text>
      ) : figures.error ? (
        <InlineAlert title="The figures could not be computed">{figures.error}</InlineAlert>
      ) : (
        <Stack gap="3">
          <FigureList
            figures={entries}
            columns={{ base: 2, md: 3 }}
            gap="3"
            wrap
            aria-label={`Figures of ${figures.column}`}
          />
          {figures.top ? (
            <Box>
              <Text fontSize="xs" color="fg.muted" mb="1" id="figures-top">
                Most frequent values (topK, approximate)
              </Text>
              {figures.top.length ? (
                <chakra.ol aria-labelledby="figures-top" ps="5" fontSize="sm" overflowWrap="anywhere">
                  {figures.top.map((value, index) => (
                    <li key={index}>{value === '' ? <span>(empty string)</span> : value}</li>
                  ))}
                </chakra.ol>
              ) : (
                <Text fontSize="sm">None: no values in the window.</Text>
              )}
            </Box>
          ) : null}
          <CostLine cost={figures.cost} href={figures.workspaceHref} what="these figures" />
        </Stack>
      )}
    </Box>
  )
}
