import { Badge, Box, Button, Code, DataList, Heading, HStack, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useRouteError } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { requireApi } from '~/api/client.server'
import { deleteTable, findTable, getTableStats, type TableSettings, type TableStats } from '~/api/tables.server'
import { listTransforms } from '~/api/transforms.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { useTimezone } from '~/components/layout/use-timezone'
import { SubmitButton } from '~/components/forms/submit-button'
import { errorMessage } from '~/utils/error-message'
import { formatDateTime } from '~/utils/format-date'
import { loadFromCluster, settle } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'

export const handle: RouteHandle = {
  docsTopic: 'table',
  breadcrumb: (data: { table?: { name: string } } | undefined) => ({ tableId: data?.table?.name }),
}

const DELETE_INTENT = 'delete-table'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, url.searchParams.get('project')),
  )
  const [transforms, statsLoad] = await Promise.all([
    loadFromCluster(() => listTransforms(api, project.uuid, table.uuid)),
    // Figures are a bonus on this page: when the cluster cannot give them, the rest still shows.
    settle<TableStats>(() => getTableStats(api, project.uuid, table.uuid)),
  ])
  const stats = statsLoad.value
  return {
    table: {
      uuid: table.uuid,
      name: table.name,
      description: table.description ?? '',
      type: table.type ?? 'turbine',
      primaryKey: table.primary_key ?? '',
      created: table.created ?? '',
      modified: table.modified ?? '',
    },
    settings: settingsGroups(table.settings ?? {}),
    stats,
    project: { uuid: project.uuid, name: project.name },
    transforms: transforms.map((transform) => ({
      uuid: transform.uuid,
      name: transform.name,
      type: transform.type ?? '',
      isDefault: Boolean(transform.settings?.is_default),
      columns: transform.settings?.output_columns?.length ?? 0,
    })),
    isConfirmingDelete: url.searchParams.has('delete'),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  if (formData.get('intent') !== DELETE_INTENT) {
    throw data({ message: 'Unknown action' }, { status: 400 })
  }
  const projectHint = formData.get('project')
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, typeof projectHint === 'string' ? projectHint : null),
  )
  await loadFromCluster(() => deleteTable(api, project.uuid, table.uuid))
  return redirectWithToast('/data/tables', { title: `Table ${table.name} deleted`, type: 'success' })
}

type SettingsGroup = { title: string; entries: { label: string; value: string }[] }

const GROUP_TITLES: Record<string, string> = {
  general: 'General',
  age: 'Lifecycle: max age',
  reaper: 'Lifecycle: permanent deletion',
  stream: 'Stream (hot and cold flush)',
  merge: 'Merge',
  autoingest: 'Auto ingest',
  default_query_options: 'Query options',
  summary: 'Summary',
  storage_map: 'Bucket map',
}

function labelOf(key: string): string {
  const text = key.replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/** The table's settings as titled groups of label/value pairs; stream tokens are counted, not shown. */
function settingsGroups(settings: TableSettings): SettingsGroup[] {
  const general: SettingsGroup = { title: GROUP_TITLES.general!, entries: [] }
  const groups: SettingsGroup[] = [general]
  const entriesOf = (record: Record<string, unknown>) =>
    Object.entries(record).map(([inner, innerValue]) => ({
      label: labelOf(inner),
      value:
        inner === 'token_list' && Array.isArray(innerValue)
          ? `${innerValue.length} ${innerValue.length === 1 ? 'token' : 'tokens'}`
          : show(innerValue),
    }))
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    Boolean(value) && typeof value === 'object' && !Array.isArray(value)
  for (const [key, value] of Object.entries(settings)) {
    const title = GROUP_TITLES[key] ?? labelOf(key)
    if (isRecord(value)) {
      groups.push({ title, entries: entriesOf(value) })
    } else if (Array.isArray(value) && value.length && value.every(isRecord)) {
      // A list of settings objects (auto ingest): one group each.
      value.forEach((item, index) => groups.push({ title: value.length > 1 ? `${title} ${index + 1}` : title, entries: entriesOf(item) }))
    } else {
      general.entries.push({ label: labelOf(key), value: show(value) })
    }
  }
  return groups.filter((group) => group.entries.length)
}

type TransformRow = Awaited<ReturnType<typeof loader>>['transforms'][number]

export default function TableDetailRoute() {
  const { table, project, settings, stats, transforms, isConfirmingDelete } = useLoaderData<typeof loader>()
  const timezone = useTimezone()
  const columns: Column<TransformRow>[] = [
    {
      key: 'name',
      header: 'Transform',
      isRowHeader: true,
      cell: (row) => <Link to={`/data/tables/${table.uuid}/transform/edit/${row.uuid}?project=${project.uuid}`}>{row.name}</Link>,
    },
    { key: 'type', header: 'Type', cell: (row) => row.type || '—' },
    { key: 'default', header: 'Default', cell: (row) => (row.isDefault ? 'Yes' : 'No') },
    { key: 'columns', header: 'Output columns', cell: (row) => row.columns },
  ]
  return (
    <Stack gap="6">
      <HStack justify="space-between" align="start" wrap="wrap" gap="3">
        <Box>
          <Text color="fg.muted" fontSize="sm">
            Project {project.name}
          </Text>
          <Heading as="h1" size="lg">
            {table.name}{' '}
            <Badge colorPalette={table.type === 'summary' ? 'purple' : 'gray'} verticalAlign="middle">
              {table.type}
            </Badge>
          </Heading>
          {table.description ? <Text mt="1">{table.description}</Text> : null}
        </Box>
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm" variant="outline">
            <Link to={`/queries?table_id=${table.uuid}`}>Query this table</Link>
          </Button>
          <Button asChild size="sm" variant="outline">
            <Link to={`/jobs/alter-jobs/create?table=${encodeURIComponent(`${project.name}.${table.name}`)}`}>New alter job</Link>
          </Button>
          {isConfirmingDelete ? null : (
            <Button asChild size="sm" variant="outline" colorPalette="red">
              <Link to={`${tableUrl(table.uuid, project.uuid)}&delete`}>Delete table…</Link>
            </Button>
          )}
        </HStack>
      </HStack>

      {isConfirmingDelete ? <DeleteConfirm table={table} project={project} /> : null}

      <Box as="section" aria-labelledby="details-heading" bg="bg" borderWidth="1px" rounded="md" p="4">
        <Heading as="h2" id="details-heading" size="md" mb="3">
          Details
        </Heading>
        <DataList.Root orientation="horizontal" size="sm">
          {[
            ['Table ID', table.uuid],
            ['Project', project.name],
            ['Primary key', table.primaryKey || 'Set by the default transform'],
            ['Created', formatDateTime(table.created, timezone)],
            ['Modified', formatDateTime(table.modified, timezone)],
          ].map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel>{label}</DataList.ItemLabel>
              <DataList.ItemValue suppressHydrationWarning>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      </Box>

      <StatsPanel stats={stats} timezone={timezone} />

      <Box as="section" aria-labelledby="transforms-heading">
        <HStack justify="space-between" mb="2">
          <Heading as="h2" id="transforms-heading" size="md">
            Transforms
          </Heading>
          <Button asChild size="sm" variant="outline">
            <Link to={`/data/new-transform?table=${table.uuid}&project=${project.uuid}`}>New transform</Link>
          </Button>
        </HStack>
        <DataTable
          caption={`Transforms of ${table.name}`}
          columns={columns}
          rows={transforms}
          rowKey={(row) => row.uuid}
          empty={<Text>This table has no transforms yet: data cannot be ingested until one is published.</Text>}
        />
      </Box>

      <Box as="section" aria-labelledby="settings-heading">
        <Heading as="h2" id="settings-heading" size="md" mb="2">
          Settings
        </Heading>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
          {settings.map((group) => (
            <Box key={group.title} bg="bg" borderWidth="1px" rounded="md" p="4">
              <Heading as="h3" size="sm" mb="2">
                {group.title}
              </Heading>
              <DataList.Root orientation="horizontal" size="sm">
                {group.entries.map((entry) => (
                  <DataList.Item key={entry.label}>
                    <DataList.ItemLabel>{entry.label}</DataList.ItemLabel>
                    <DataList.ItemValue>
                      <Code variant="plain" whiteSpace="pre-wrap" wordBreak="break-all">
                        {entry.value}
                      </Code>
                    </DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </Box>
          ))}
        </SimpleGrid>
      </Box>
    </Stack>
  )
}

const numberFormat = new Intl.NumberFormat('en-US')

/** Bytes as B, KB, MB, GB (powers of 1024) with one decimal. */
function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '—'
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}

/** The table's storage figures, or a line saying they are unavailable. */
function StatsPanel({ stats, timezone }: { stats: TableStats | null; timezone: ReturnType<typeof useTimezone> }) {
  const figures: [string, string][] = stats
    ? [
        ['Rows', stats.total_rows === undefined ? '—' : numberFormat.format(stats.total_rows)],
        ['Partitions', stats.total_partitions === undefined ? '—' : numberFormat.format(stats.total_partitions)],
        ['Raw size', formatBytes(stats.raw_data_size)],
        ['Compressed size', formatBytes(stats.compressed_data_size)],
        ['Compression ratio', stats.compression_ratio ? `${stats.compression_ratio}×` : '—'],
        ['Oldest row', formatDateTime(stats.oldest_timestamp, timezone)],
        ['Latest row', formatDateTime(stats.latest_timestamp, timezone)],
      ]
    : []
  return (
    <Box as="section" aria-labelledby="stats-heading" bg="bg" borderWidth="1px" rounded="md" p="4">
      <Heading as="h2" id="stats-heading" size="md" mb="3">
        Statistics
      </Heading>
      {stats ? (
        <SimpleGrid as="dl" columns={{ base: 2, md: 4, xl: 7 }} gap="4">
          {figures.map(([label, value]) => (
            <Box key={label}>
              <Text as="dt" fontSize="xs" color="fg.muted">
                {label}
              </Text>
              <Text as="dd" fontWeight="semibold" suppressHydrationWarning>
                {value}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      ) : (
        <Text color="fg.muted">Statistics are not available for this table right now.</Text>
      )}
    </Box>
  )
}

/** The confirmation step: a real POST form, so deleting works the same with and without scripts. */
function DeleteConfirm({ table, project }: { table: { uuid: string; name: string }; project: { uuid: string; name: string } }) {
  // With scripts the page does not reload: move focus to the question so it is read out.
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])
  return (
    <Box
      as="section"
      aria-labelledby="delete-heading"
      aria-describedby="delete-text"
      bg="red.subtle"
      borderWidth="1px"
      borderColor="red.muted"
      rounded="md"
      p="4"
    >
      <Heading as="h2" id="delete-heading" size="md" mb="2" ref={headingRef} tabIndex={-1} outline="none">
        Delete table {table.name}?
      </Heading>
      <Text id="delete-text" mb="3">
        The table {table.name} in project {project.name}, its transforms and all its data will be removed. This cannot be undone.
      </Text>
      <Form method="post">
        <input type="hidden" name="project" value={project.uuid} />
        <HStack gap="3">
          <SubmitButton name="intent" value={DELETE_INTENT} colorPalette="red">
            Delete table
          </SubmitButton>
          <Button asChild variant="outline">
            <Link to={tableUrl(table.uuid, project.uuid)}>Cancel</Link>
          </Button>
        </HStack>
      </Form>
    </Box>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.table.name ?? 'Table'} · Tables · Cluster Console` },
]

export function ErrorBoundary() {
  const error = useRouteError()
  return (
    <Box role="alert" bg="bg" borderWidth="1px" rounded="md" p="6">
      <Heading as="h1" size="md" mb="2">
        The table could not be shown
      </Heading>
      <Text mb="3">{errorMessage(error)}</Text>
      <ChakraLink asChild color="blue.600">
        <Link to="/data/tables">Back to the tables</Link>
      </ChakraLink>
    </Box>
  )
}
