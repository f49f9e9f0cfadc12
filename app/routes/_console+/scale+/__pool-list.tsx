import { Box, Text } from '~/components/ui/box'
import { Link as ChakraLink } from '~/components/ui/link'
import { Heading } from '~/components/ui/heading'
import { Link } from '@remix-run/react'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { KIND_LABELS, KIND_PATHS, type PoolKind } from '~/schemas/pool'
import { formatNumber } from '~/utils/format-number'
import type { Settled } from '~/api/policies.server'
import { cores, formatSize, rangeText } from './__pool-sizes'

export { cores, formatSize, rangeText }
import { InlineAlert } from '~/components/layout/inline-alert'
import type { IngestTable, PoolRow, PoolTotals } from './__pools.server'
import { CreateLink } from '~/components/layout/create-link'
import { FigureList } from '~/components/ui/figure-list'

const tableColumns: Column<IngestTable>[] = [
  {
    key: 'table',
    header: 'Table',
    isRowHeader: true,
    cell: (row) => <Link to={`/data/tables/${row.uuid}?project=${row.projectId}`}>{row.name}</Link>,
  },
  {
    key: 'pools',
    header: 'Ingest pools',
    cell: (row) =>
      row.pools.length ? (
        row.pools.map((pool, index) => (
          <span key={pool.uuid}>
            {index ? ', ' : ''}
            <Link to={`/scale/pool/${pool.uuid}`}>{pool.name}</Link> <span data-muted="">({pool.service})</span>
          </span>
        ))
      ) : (
        <span data-muted="">
          None: HTTP stream goes through the default intake ·{' '}
          <Link to={`/scale/pool/create?type=ingest&table=${encodeURIComponent(row.name)}`}>add a pool</Link>
        </span>
      ),
  },
  { key: 'replicas', header: 'Replicas', cell: (row) => (row.pools.length ? rangeText(row.replicas) : '—') },
  { key: 'cpu', header: 'CPU (cores)', cell: (row) => (row.pools.length ? rangeText(row.cpu, cores) : '—') },
]

/** The ingest tab's second list: the tables ingest pools write into, then the first others (at most 25). */
function IngestTables({ tables, q }: { tables: Settled<IngestTable[]>; q: string }) {
  return (
    <Box as="section" aria-labelledby="ingest-tables-heading" mt="4">
      <Heading as="h3" id="ingest-tables-heading" size="md" mb="1">
        Tables
      </Heading>
      <Text color="fg.muted" fontSize="sm" mb="3">
        {q
          ? `Tables matching “${q}” (the first 25, those with pools first).`
          : 'Where ingest pools write (the first 25 tables, those with pools first): the filter above finds any other.'}{' '}
        A table with no pool of its own still takes HTTP stream ingest through the cluster’s default intake.
      </Text>
      {tables.error !== null ? (
        <InlineAlert title="The tables could not be loaded">{tables.error}</InlineAlert>
      ) : (
        <DataTable
          caption="Tables and their ingest pools"
          columns={tableColumns}
          rows={tables.value}
          rowKey={(row) => row.uuid}
          empty={
            q ? (
              <Text>No table matches “{q}”.</Text>
            ) : (
              <>
                <Text mb="2">No tables yet: an ingest pool writes into one.</Text>
                <ChakraLink asChild color="link">
                  <Link to="/data/new-table">Create a table</Link>
                </ChakraLink>
              </>
            )
          }
        />
      )}
    </Box>
  )
}

/** What each tab says about its kind of pool. */
const INTROS: Record<PoolKind, string> = {
  ingest:
    'Workers that take data in: HTTP stream intake, Kafka, Kinesis, security-event feeds, ' +
    'summaries and batch loads. Each writes into one table through one transform.',
  search: 'Query workers. A query runs on the default pool unless it names another (the hdx_query_pool_name option).',
  core: 'The services that keep stored data in shape: merges, alter jobs, ageing and deletion.',
}

/** One size cell: the cluster's own words ("2Gi"), or a dash. */
const sizeCell = (text: string) => text || '—'

function columns(kind: PoolKind): Column<PoolRow>[] {
  return [
    {
      key: 'name',
      header: 'Pool',
      isRowHeader: true,
      cell: (row) => (
        <>
          <Link to={`/scale/pool/${row.uuid}`}>{row.name}</Link>
          {row.isDefault ? (
            <>
              {' '}
              <span data-badge="default">default</span>
            </>
          ) : null}
        </>
      ),
    },
    { key: 'service', header: 'Service', cell: (row) => <code>{row.service || '—'}</code> },
    ...(kind === 'ingest'
      ? [
          {
            key: 'table',
            header: 'Table · transform',
            cell: (row: PoolRow) =>
              row.table ? `${row.table}${row.transform ? ` · ${row.transform}` : ''}` : <span data-muted="">any</span>,
          },
        ]
      : []),
    {
      key: 'replicas',
      header: 'Replicas',
      cell: (row) => (row.replicas ? rangeText(row.replicas) : sizeCell(row.replicasText)),
    },
    { key: 'cpu', header: 'CPU', cell: (row) => sizeCell(row.cpuText) },
    { key: 'memory', header: 'Memory', cell: (row) => sizeCell(row.memoryText) },
    { key: 'storage', header: 'Storage', cell: (row) => sizeCell(row.storageText) },
    {
      key: 'share',
      header: 'Share of CPU',
      width: '9rem',
      cell: (row) => {
        const percent = Math.round(row.cpuShare * 100)
        return (
          <span data-bar="">
            <span data-bar-track="" aria-hidden="true">
              <span data-bar-fill="" style={{ width: `${Math.max(percent, row.cpuShare > 0 ? 2 : 0)}%` }} />
            </span>
            <span data-bar-label="">{percent}%</span>
          </span>
        )
      },
    },
  ]
}

// The capacity bar is plain HTML and CSS: it shows the same with and without scripts.
const barCss = {
  '& [data-bar]': { display: 'flex', alignItems: 'center', gap: '2' },
  '& [data-bar-track]': { flex: '1', h: '2', bg: 'bg.muted', rounded: 'full', overflow: 'hidden', minW: '12' },
  '& [data-bar-fill]': { display: 'block', h: 'full', bg: 'blue.500', rounded: 'full' },
  '& [data-bar-label]': { fontSize: 'xs', color: 'fg.muted', minW: '8', textAlign: 'end' },
  '& [data-badge=default]': { bg: 'green.subtle', color: 'green.fg' },
}

/** A kind's figures over all its pools: count, replicas, CPU, memory, storage (fewest–most replicas). */
function TotalsPanel({ totals }: { totals: PoolTotals }) {
  const figures: [string, string][] = [
    ['Pools', formatNumber(totals.pools)],
    ['Replicas', rangeText(totals.replicas)],
    ['CPU (cores)', rangeText(totals.cpu, cores)],
    ['Memory', rangeText(totals.memory, formatSize)],
    ['Ephemeral storage', rangeText(totals.storage, formatSize)],
  ]
  return (
    <Box as="section" aria-label="Capacity" bg="bg" borderWidth="1px" rounded="md" p="4">
      <FigureList figures={figures} columns={{ base: 2, md: 5 }} gap="4" size="lg" />
      <Text fontSize="xs" color="fg.muted" mt="2">
        Each pool&apos;s size times its replicas; an autoscaled pool counts from its fewest to its most replicas.
        {totals.unreadable
          ? ` ${totals.unreadable} ${totals.unreadable === 1 ? 'pool has' : 'pools have'} a size that ` +
            `could not be read and ${totals.unreadable === 1 ? 'is' : 'are'} partly left out.`
          : ''}
      </Text>
    </Box>
  )
}

export type PoolListData = {
  kind: PoolKind
  rows: PoolRow[]
  page: number
  pageCount: number
  pageSize: number
  total: number
  q: string
  totals: PoolTotals
  allPools: number
  /** The ingest tab's tables with their pools (null on the other tabs). */
  tables: Settled<IngestTable[]> | null
}

/** One Scale tab: the kind's heading and New pool link, its capacity, the filter, the pools and paging. */
export function PoolList({ data }: { data: PoolListData }) {
  const label = KIND_LABELS[data.kind]
  const createTo = `/scale/pool/create?type=${data.kind}`
  return (
    <ListPage
      level={2}
      title={`${label} pools`}
      description={INTROS[data.kind]}
      actions={
        <CreateLink to={createTo} colorPalette="blue">
          New {label.toLowerCase()} pool
        </CreateLink>
      }
      filter={data.totals.pools || data.tables ? 'Filter by pool, service or table' : null}
      q={data.q}
      caption={`${label} pools`}
      columns={columns(data.kind)}
      rows={data.rows}
      rowKey={(row) => row.uuid}
      css={barCss}
      empty={{
        message:
          `No ${label.toLowerCase()} pools ` +
          `yet.${data.kind === 'search' ? ' Queries run on the cluster’s built-in query workers until a pool is made.' : ''}`,
        action: { to: createTo, label: `Create a ${label.toLowerCase()} pool` },
      }}
      noMatch={{ message: `No ${label.toLowerCase()} pools match “${data.q}”.`, clearTo: KIND_PATHS[data.kind] }}
      paging={data}
      footer={data.tables ? <IngestTables tables={data.tables} q={data.q} /> : null}
    >
      {data.totals.pools ? <TotalsPanel totals={data.totals} /> : null}
    </ListPage>
  )
}
