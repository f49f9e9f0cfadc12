import type { ReactNode } from 'react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { whyNotEach } from '~/api/access.server'
import { requireApi } from '~/api/client.server'
import { deleteTable, findTable, getTableStats, type TableStats } from '~/api/tables.server'
import { listTransforms } from '~/api/transforms.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { InlineAlert } from '~/components/layout/inline-alert'
import { DateTime } from '~/components/layout/date-time'
import { formatBytes, formatNumber, formatRatio } from '~/utils/format-number'
import { loadFromCluster } from '~/api/policies.server'
import { readPart } from '~/api/part-read.server'
import { ForceConfirmSchema } from '~/schemas/confirm'
import { RenameTableSchema } from '~/schemas/table-settings'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'
import { TableSummariesPanel, TableViewsPanel } from './__table-related'
import { loadTableRelated } from './__table-related.server'
import { RenameTableForm, SettingsGroupForm, TableManageLinks, TableSettingsOverview } from './__table-settings'
import {
  loadSettingsStep,
  renameTableAction,
  saveSettingsAction,
  settingsOverview,
  truncateTableAction,
} from './__table-settings.server'
import { RENAME_INTENT, SETTINGS_INTENT, TRUNCATE_INTENT } from './__table-intents'
// Ingest sources (issue 8): the panel and its rows live in the source helpers.
import { SourcesPanel } from './__source-list'
import { loadSourceRows } from './__source-editor.server'
import { CreateLink } from '~/components/layout/create-link'
import { GuardedLink } from '~/components/layout/denied'
import { TableIngestPanel, type TableIngest } from './__table-ingest'
import { loadSummarySource, type SummarySource } from './__summary-source.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
// The table's data and arrivals (issue 51): loaders and views in their own modules.
import { loadTableData } from './__table-data.server'
import { TableDataPanels } from './__table-data'
import { DeniedNote, DeniedSection } from './__table-denied'
import { FigureList } from '~/components/ui/figure-list'

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
  // Each part is read on its own (issue 54, point 6): a part the user's role may not read (a
  // project-scoped role that reads the table but not its transforms, say) is marked in its place,
  // one the cluster fails says so there; the table itself is the page (its 403 or 404 is the page's).
  const [transformsLoad, statsLoad, related, sources, denied, tableData, summary] = await Promise.all([
    readPart(() => listTransforms(api, project.uuid, table.uuid)),
    readPart<TableStats>(() => getTableStats(api, project.uuid, table.uuid)),
    loadTableRelated(api, table, project),
    readPart(() => loadSourceRows(api, project.uuid, table)),
    // Rename, settings, truncate and delete: offered only to a user the cluster would let do them.
    whyNotEach(api, { change: 'change_table', truncate: 'truncate_table', remove: 'delete_table' }, { project, table }),
    loadTableData(api, url, { project, table }),
    // a summary table's page says where its rows come from, instead of how to send it data
    readPart(() => loadSummarySource(api, table)),
  ])
  const stats = statsLoad.value
  const transforms = transformsLoad.value ?? []
  const ingestTransform = transforms.find((transform) => transform.settings?.is_default) ?? transforms[0]
  const tokenList: unknown = table.settings?.stream?.token_list
  const ingest: TableIngest = {
    url: `${api.origin}/ingest/event`,
    tableRef: `${project.name}.${table.name}`,
    transform: ingestTransform
      ? {
          name: ingestTransform.name,
          type: ingestTransform.type ?? 'json',
          editTo: `/data/tables/${table.uuid}/transform/edit/${ingestTransform.uuid}?project=${project.uuid}#sample-data`,
        }
      : null,
    hasStreamTokens: Array.isArray(tokenList) && tokenList.some(Boolean),
    newTransformTo: `/data/new-transform?table=${table.uuid}&project=${project.uuid}`,
  }
  const edit = url.searchParams.get('edit')
  const settingsStep =
    edit && edit !== 'rename' && !denied.change
      ? await loadSettingsStep(api, table, edit, { asJson: url.searchParams.get('as') === 'json' })
      : null
  return {
    ingest,
    summary,
    tableData,
    sources,
    table: {
      uuid: table.uuid,
      name: table.name,
      description: table.description ?? '',
      // the stored name and description (null and absent as stored): the rename form saves only a change
      original: JSON.stringify({ name: table.name, description: table.description }),
      type: table.type ?? 'turbine',
      primaryKey: table.primary_key ?? '',
      created: table.created ?? '',
      modified: table.modified ?? '',
    },
    settings: settingsOverview(table),
    related,
    settingsStep,
    isRenaming: edit === 'rename' && !denied.change,
    // The rename form's HTML constraints: its schema loads after hydration (decision 077).
    renameConstraint: edit === 'rename' ? getZodConstraint(RenameTableSchema) : undefined,
    denied,
    isConfirmingTruncate: url.searchParams.get('truncate') === table.uuid,
    stats,
    statsDenied: statsLoad.denied,
    project: { uuid: project.uuid, name: project.name },
    transforms: transforms.map((transform) => ({
      uuid: transform.uuid,
      name: transform.name,
      type: transform.type ?? '',
      isDefault: Boolean(transform.settings?.is_default),
      columns: transform.settings?.output_columns?.length ?? 0,
    })),
    transformsDenied: transformsLoad.denied,
    transformsError: transformsLoad.error,
    isConfirmingDelete: url.searchParams.get('delete') === table.uuid,
  }
}

/**
 * Deletes the table after the user typed FORCE (its data goes with it: issue 15); without FORCE the
 * confirmation comes back with the field's error. Redirects to the list with a toast.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === SETTINGS_INTENT || intent === RENAME_INTENT || intent === TRUNCATE_INTENT) {
    const projectHint = new URL(request.url).searchParams.get('project') ?? formData.get('project')
    const found = await loadFromCluster(() =>
      findTable(api, params.tableId!, typeof projectHint === 'string' ? projectHint : null),
    )
    if (intent === SETTINGS_INTENT) return saveSettingsAction(api, formData, found)
    if (intent === RENAME_INTENT) return renameTableAction(api, formData, found)
    return truncateTableAction(api, formData, found)
  }
  if (intent !== DELETE_INTENT) {
    throw data({ message: 'Unknown action' }, { status: 400 })
  }
  const confirmation = parseWithZod(formData, { schema: ForceConfirmSchema })
  if (confirmation.status !== 'success') return data({ deleteResult: confirmation.reply() }, { status: 400 })
  const projectHint = formData.get('project')
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, typeof projectHint === 'string' ? projectHint : null),
  )
  await loadFromCluster(() => deleteTable(api, project.uuid, table.uuid))
  return redirectWithToast('/data/tables', { title: `Table ${table.name} deleted`, type: 'success' })
}

type TransformRow = Awaited<ReturnType<typeof loader>>['transforms'][number]

export default function TableDetailRoute() {
  const {
    related,
    table,
    project,
    settings,
    settingsStep,
    isRenaming,
    renameConstraint,
    isConfirmingTruncate,
    stats,
    statsDenied,
    transforms,
    transformsDenied,
    transformsError,
    isConfirmingDelete,
    sources,
    denied,
    ingest,
    tableData,
    summary,
  } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const base = tableUrl(table.uuid, project.uuid)
  const formResult = actionData && 'result' in actionData ? actionData.result : undefined
  const isSummary = table.type === 'summary'
  const storedText =
    stats?.compressed_data_size !== undefined ? `, ${formatBytes(stats.compressed_data_size)} stored` : ''
  const columns: Column<TransformRow>[] = [
    {
      key: 'name',
      header: 'Transform',
      isRowHeader: true,
      cell: (row) => (
        <Link to={`/data/tables/${table.uuid}/transform/edit/${row.uuid}?project=${project.uuid}`}>{row.name}</Link>
      ),
    },
    { key: 'type', header: 'Type', cell: (row) => row.type || '—' },
    { key: 'default', header: 'Default', cell: (row) => (row.isDefault ? 'Yes' : 'No') },
    { key: 'columns', header: 'Output columns', cell: (row) => row.columns },
  ]
  return (
    <Stack gap="6">
      <PageHeader
        eyebrow={`Project ${project.name}`}
        title={
          <>
            {table.name}{' '}
            <Badge colorPalette={table.type === 'summary' ? 'purple' : 'gray'} verticalAlign="middle">
              {table.type}
            </Badge>
          </>
        }
        description={table.description || undefined}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <Link to={`/queries?table_id=${table.uuid}`}>Query this table</Link>
            </Button>
            <CreateLink
              to={`/jobs/alter-jobs/create?table=${encodeURIComponent(`${project.name}.${table.name}`)}`}
              variant="outline"
            >
              New alter job
            </CreateLink>
            <TableManageLinks base={base} tableId={table.uuid} isSummary={table.type === 'summary'} denied={denied} />
            {isConfirmingDelete ? null : (
              <GuardedLink
                to={`${tableUrl(table.uuid, project.uuid)}&delete=${table.uuid}`}
                reason={denied.remove}
                colorPalette="red"
              >
                Delete table…
              </GuardedLink>
            )}
          </>
        }
      />

      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-table"
          title={`Delete table ${table.name}?`}
          intent={DELETE_INTENT}
          hiddenFields={{ project: project.uuid }}
          confirmLabel="Delete table"
          deniedReason={denied.remove}
          force={{ lastResult: actionData && 'deleteResult' in actionData ? actionData.deleteResult : undefined }}
        >
          The table {table.name} in project {project.name}, its transforms and all its data will be removed
          {stats?.total_rows !== undefined ? `: ${formatNumber(stats.total_rows)} rows${storedText}` : ''}. This cannot
          be undone.
        </ConfirmPanel>
      ) : null}

      {isConfirmingTruncate ? (
        <ConfirmPanel
          id="truncate-table"
          title={`Truncate table ${table.name}?`}
          intent={TRUNCATE_INTENT}
          stepParam="truncate"
          hiddenFields={{ project: project.uuid }}
          confirmLabel="Truncate table"
          deniedReason={denied.truncate}
          force={{ lastResult: actionData && 'truncateResult' in actionData ? actionData.truncateResult : undefined }}
        >
          Every row of {table.name} will be removed
          {stats?.total_rows !== undefined
            ? `: ${formatNumber(stats.total_rows)} rows in ${formatNumber(stats.total_partitions)} partitions${storedText}`
            : ''}
          . Its settings, transforms and views stay. This cannot be undone.
        </ConfirmPanel>
      ) : null}

      {settingsStep ? (
        <SettingsGroupForm
          key={settingsStep.key}
          step={settingsStep}
          lastResult={formResult}
          cancelTo={`${base}#settings`}
        />
      ) : null}
      {isRenaming ? (
        <RenameTableForm
          name={table.name}
          description={table.description}
          original={table.original}
          constraint={renameConstraint}
          lastResult={formResult}
          cancelTo={base}
        />
      ) : null}

      <SectionCard id="details" title="Details">
        <DetailList
          entries={[
            ['Table ID', <code key="id">{table.uuid}</code>],
            ['Project', project.name],
            ['Primary key', table.primaryKey || 'Set by the default transform'],
            ['Created', <DateTime key="c" value={table.created} />],
            ['Modified', <DateTime key="m" value={table.modified} />],
          ]}
        />
      </SectionCard>

      {summary.value ? (
        <SummarySourcePanel summary={summary.value} />
      ) : isSummary ? (
        <SectionCard id="summary-source" title="Summary of">
          {summary.denied ? (
            <DeniedNote what="the source tables of this summary table" />
          ) : (
            <InlineAlert title="The source tables could not be loaded">{summary.error}</InlineAlert>
          )}
        </SectionCard>
      ) : null}
      <StatsPanel stats={stats} isDenied={statsDenied} isSummary={isSummary} />
      <TableDataPanels data={tableData} ingest={ingest} isSummary={isSummary} />

      {isSummary ? null : (
        <Box as="section" aria-labelledby="transforms-heading">
          <HStack justify="space-between" mb="2">
            <Heading as="h2" id="transforms-heading" size="md">
              Transforms
            </Heading>
            <CreateLink to={`/data/new-transform?table=${table.uuid}&project=${project.uuid}`} variant="outline">
              New transform
            </CreateLink>
          </HStack>
          {transformsDenied ? (
            <DeniedNote what="the transforms of this table" />
          ) : transformsError ? (
            <InlineAlert title="The transforms could not be loaded">{transformsError}</InlineAlert>
          ) : (
            <DataTable
              caption={`Transforms of ${table.name}`}
              columns={columns}
              rows={transforms}
              rowKey={(row) => row.uuid}
              empty={<Text>This table has no transforms yet: data cannot be ingested until one is published.</Text>}
            />
          )}
        </Box>
      )}

      <TableViewsPanel views={related.views} tableId={table.uuid} projectId={project.uuid} tableName={table.name} />
      <TableSummariesPanel summaries={related.summaries} tableId={table.uuid} projectId={project.uuid} />

      {isSummary ? null : (
        <>
          {sources.denied ? (
            <DeniedSection id="sources" title="Ingest sources" what="the ingest sources of this table" />
          ) : (
            <SourcesPanel table={table} project={project} sources={sources.value} error={sources.error} />
          )}
          <TableIngestPanel ingest={ingest} />
        </>
      )}

      <TableSettingsOverview groups={settings} base={base} editReason={denied.change} />
    </Stack>
  )
}

/** A summary table's source tables and SQL: where its rows come from (issue 54, point 9). */
function SummarySourcePanel({ summary }: { summary: SummarySource }) {
  return (
    <SectionCard id="summary-source" title="Summary of">
      <Stack gap="3">
        <Text>
          A summary table is written by its SQL as its source table takes data: it takes no transforms and no data of
          its own.
        </Text>
        <DetailList
          entries={[
            [
              summary.sources.length === 1 ? 'Source table' : 'Source tables',
              summary.sources.length ? (
                <HStack key="sources" gap="3" wrap="wrap">
                  {summary.sources.map((source) =>
                    source.to ? (
                      <Link key={source.ref} to={source.to}>
                        {source.ref}
                      </Link>
                    ) : (
                      <Text as="span" key={source.ref}>
                        {source.ref} (not found)
                      </Text>
                    ),
                  )}
                </HStack>
              ) : (
                '—'
              ),
            ],
          ]}
        />
        <Box
          as="pre"
          aria-label="Summary SQL"
          fontFamily="mono"
          fontSize="sm"
          whiteSpace="pre-wrap"
          bg="bg.muted"
          p="3"
          rounded="md"
        >
          {summary.sql}
        </Box>
      </Stack>
    </SectionCard>
  )
}

/** The table's storage figures, or a line saying they are unavailable or not the user's to see. */
function StatsPanel({
  stats,
  isDenied = false,
  isSummary = false,
}: {
  stats: TableStats | null
  isDenied?: boolean
  isSummary?: boolean
}) {
  const figures: [string, ReactNode][] = stats
    ? [
        ['Rows', formatNumber(stats.total_rows)],
        ['Partitions', formatNumber(stats.total_partitions)],
        ['Raw size', formatBytes(stats.raw_data_size)],
        ['Compressed size', formatBytes(stats.compressed_data_size)],
        ['Compression ratio', stats.compression_ratio ? formatRatio(stats.compression_ratio) : '—'],
        ['Oldest row', <DateTime key="oldest_timestamp" value={stats.oldest_timestamp} />],
        ['Latest row', <DateTime key="latest_timestamp" value={stats.latest_timestamp} />],
      ]
    : []
  return (
    <SectionCard id="stats" title="Statistics">
      {stats ? (
        <FigureList figures={figures} columns={{ base: 2, md: 4, xl: 7 }} gap="4" />
      ) : isDenied ? (
        <DeniedNote what="the statistics of this table" />
      ) : (
        <Text color="fg.muted">Statistics are not available for this table right now.</Text>
      )}
      {isSummary ? (
        <Text fontSize="sm" color="fg.muted" mt="3">
          A summary table holds aggregate rows written from its source table: these figures are of those rows, not of
          the rows summarised.
        </Text>
      ) : null}
    </SectionCard>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.table.name ?? 'Table'} · Tables · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The table could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
