import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Stack } from '~/components/ui/stack'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { deleteSource, findSourcePool, getSource } from '~/api/sources.server'
import { AUTO_BATCH, isSourceKind, SOURCE_LABELS } from '~/schemas/source-values'
import { listAutoBatches } from '~/api/sources.server'
import { AutoBatchEditor } from './__source-autobatch'
import {
  autoBatchAction,
  autoBatchConstraint,
  autoBatchEditValue,
  deleteAutoBatch,
  loadCredentialChoices,
} from './__source-autobatch.server'
import { findTable } from '~/api/tables.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { SourceEditor } from './__source-editor'
import {
  loadTransformNames,
  scaleValue,
  sourceConstraint,
  sourceEditorAction,
  sourceEditValue,
} from './__source-editor.server'
import { tableUrl } from './__table-url'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  docsTopic: (params) => (params.type === 'kafka' || params.type === 'kinesis' ? params.type : 'source'),
  breadcrumb: (data: { table?: { name: string }; source?: { name: string } } | undefined) => ({
    tableId: data?.table?.name,
    sourceId: data?.source?.name,
  }),
}

const DELETE_INTENT = 'delete-source'

function kindOf(type: string | undefined) {
  if (!isSourceKind(type)) throw data({ message: `404 Error: Not Found.` }, { status: 404, statusText: 'Not Found' })
  return type
}

/** An auto batch entry's index from the URL (`/source/edit/autobatch/0`); 404 when it is not one. */
function indexOf(sourceId: string | undefined): number {
  if (!/^\d+$/.test(sourceId ?? ''))
    throw data({ message: '404 Error: Not Found.' }, { status: 404, statusText: 'Not Found' })
  return Number(sourceId)
}

async function loadAutoBatch(request: Request, tableId: string, sourceId: string | undefined) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const index = indexOf(sourceId)
  const { table, project } = await loadFromCluster(() => findTable(api, tableId, url.searchParams.get('project')))
  const [entries, credentials] = await Promise.all([
    loadFromCluster(() => listAutoBatches(api, project.uuid, table.uuid)),
    loadCredentialChoices(api),
  ])
  const entry = entries[index]
  if (!entry) throw data({ message: '404 Error: Not Found.' }, { status: 404, statusText: 'Not Found' })
  const tableValue = `${project.uuid}/${table.uuid}`
  return {
    mode: AUTO_BATCH,
    // An auto batch lives in the table's settings: changing or removing one changes the table.
    denied: await whyNotEach(api, { change: 'change_table', remove: 'change_table' }, { project, table }),
    index,
    table: { uuid: table.uuid, name: table.name, value: tableValue, label: `${project.name}.${table.name}` },
    project: { uuid: project.uuid, name: project.name },
    source: { name: entry.source || `Auto batch ${index + 1}` },
    state: entry.enabled ? (entry.dry_run ? 'Enabled (dry run: nothing is stored)' : 'Enabled') : 'Disabled',
    credentials,
    defaultValue: autoBatchEditValue(entry, tableValue),
    // the form's HTML constraints: its schema loads after hydration (decision 077)
    constraint: autoBatchConstraint(),
    isConfirmingDelete: url.searchParams.get('delete') === String(index),
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (params.type === AUTO_BATCH) return loadAutoBatch(request, params.tableId!, params.sourceId)
  const api = await requireApi(request)
  const url = new URL(request.url)
  const kind = kindOf(params.type)
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, url.searchParams.get('project')),
  )
  const tableValue = `${project.uuid}/${table.uuid}`
  // the source, the table's transforms and the permissions do not depend on each other; the pool is the source's
  const [source, transforms, denied] = await Promise.all([
    loadFromCluster(() => getSource(api, project.uuid, table.uuid, kind, params.sourceId!)),
    loadFromCluster(() => loadTransformNames(api, tableValue)),
    whyNotEach(api, { change: `change_${kind}source`, remove: `delete_${kind}source` }, { project, table }),
  ])
  const pool = await settle(() => findSourcePool(api, source.pool_name))
  const poolScale = pool.value ? scaleValue(pool.value.settings?.k8s_deployment) : null
  return {
    mode: 'source' as const,
    denied,
    kind,
    table: { uuid: table.uuid, name: table.name, value: tableValue, label: `${project.name}.${table.name}` },
    project: { uuid: project.uuid, name: project.name },
    source: {
      uuid: source.uuid,
      name: source.name,
      transform: source.transform ?? '',
      created: source.created ?? '',
      modified: source.modified ?? '',
    },
    pool: pool.value ? { uuid: pool.value.uuid, name: pool.value.name, ...poolScale } : null,
    poolError: pool.error,
    poolName: source.pool_name ?? '',
    transforms,
    defaultValue: sourceEditValue(source, kind, tableValue),
    constraint: sourceConstraint(kind, true),
    isConfirmingDelete: url.searchParams.get('delete') === source.uuid,
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  if (params.type === AUTO_BATCH) {
    const index = indexOf(params.sourceId)
    if (formData.get('intent') !== DELETE_INTENT) return autoBatchAction(api, formData, { index })
    const { table, project } = await loadFromCluster(() =>
      findTable(api, params.tableId!, String(formData.get('project') ?? '') || null),
    )
    return loadFromCluster(() => deleteAutoBatch(api, project.uuid, table.uuid, index))
  }
  const kind = kindOf(params.type)
  if (formData.get('intent') === DELETE_INTENT) {
    const { table, project } = await loadFromCluster(() =>
      findTable(api, params.tableId!, String(formData.get('project') ?? '') || null),
    )
    const source = await loadFromCluster(() => getSource(api, project.uuid, table.uuid, kind, params.sourceId!))
    await loadFromCluster(() => deleteSource(api, project.uuid, table.uuid, kind, source.uuid))
    return redirectWithToast(tableUrl(table.uuid, project.uuid), {
      title: `Source ${source.name} deleted`,
      type: 'success',
    })
  }
  return sourceEditorAction(api, kind, formData, { sourceId: params.sourceId! })
}

export default function EditSourceRoute() {
  const loaded = useLoaderData<typeof loader>()
  return loaded.mode === AUTO_BATCH ? <AutoBatchPage {...loaded} /> : <SourcePage {...loaded} />
}

function AutoBatchPage({
  index,
  table,
  project,
  source,
  state,
  credentials,
  defaultValue,
  constraint,
  isConfirmingDelete,
  denied,
}: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { mode: 'autobatch' }>) {
  const actionData = useActionData<typeof action>()
  const base = `/data/tables/${table.uuid}/source/edit/autobatch/${index}?project=${project.uuid}`
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        eyebrow={`Auto batch · table ${table.label}`}
        title={source.name}
        mb="0"
        actions={
          isConfirmingDelete ? null : (
            <GuardedLink to={`${base}&delete=${index}`} reason={denied.remove} colorPalette="red">
              Delete auto batch…
            </GuardedLink>
          )
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-autobatch"
          title="Delete this auto batch?"
          intent={DELETE_INTENT}
          hiddenFields={{ project: project.uuid }}
          confirmLabel="Delete auto batch"
          deniedReason={denied.remove}
        >
          New files on the queue will no longer be loaded. Rows already stored stay in the table.
        </ConfirmPanel>
      ) : null}
      <SectionCard id="state" title="State">
        <DetailList
          entries={[
            ['State', state],
            ['Transform', "The table's default transform"],
          ]}
        />
      </SectionCard>
      <AutoBatchEditor
        deniedReason={denied.change}
        table={table.value}
        tableLabel={table.label}
        credentials={credentials}
        defaultValue={defaultValue}
        constraint={constraint}
        lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        submitLabel="Save auto batch"
        cancelTo={tableUrl(table.uuid, project.uuid)}
      />
    </Stack>
  )
}

function SourcePage({
  kind,
  table,
  project,
  source,
  pool,
  poolError,
  poolName,
  transforms,
  defaultValue,
  constraint,
  isConfirmingDelete,
  denied,
}: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { mode: 'source' }>) {
  const actionData = useActionData<typeof action>()
  const base = `/data/tables/${table.uuid}/source/edit/${kind}/${source.uuid}?project=${project.uuid}`
  const state = pool
    ? `Running in pool ${pool.name}`
    : poolError
      ? 'Unknown (the pool could not be read)'
      : 'No pool: the source is stored but not running'
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        eyebrow={`${SOURCE_LABELS[kind]} source · table ${table.label}`}
        title={source.name}
        mb="0"
        actions={
          isConfirmingDelete ? null : (
            <GuardedLink to={`${base}&delete=${source.uuid}`} reason={denied.remove} colorPalette="red">
              Delete source…
            </GuardedLink>
          )
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-source"
          title={`Delete source ${source.name}?`}
          intent={DELETE_INTENT}
          hiddenFields={{ project: project.uuid }}
          confirmLabel="Delete source"
          deniedReason={denied.remove}
        >
          The source stops pulling and its pool {poolName || ''} is removed. Rows already stored stay in the table.
        </ConfirmPanel>
      ) : null}
      <SectionCard id="pool" title="Pool and state">
        <DetailList
          entries={[
            ['State', state],
            [
              'Pool',
              pool ? (
                <Link key="pool" to={`/scale/pool/${pool.uuid}`}>
                  {pool.name}
                </Link>
              ) : (
                poolName || '—'
              ),
            ],
            [
              'Replicas',
              pool ? (pool.replicasMax ? `${pool.replicasMin}–${pool.replicasMax}` : pool.replicasMin) : '—',
            ],
            ['CPU', pool?.cpu || '—'],
            ['Memory', pool?.memory ? `${pool.memory} GiB` : '—'],
            ['Storage', pool?.storage ? `${pool.storage} GiB` : '—'],
            ['Transform', source.transform || '—'],
          ]}
        />
      </SectionCard>
      <SourceEditor
        deniedReason={denied.change}
        kind={kind}
        table={table.value}
        tableLabel={table.label}
        transforms={transforms}
        defaultValue={defaultValue}
        constraint={constraint}
        lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        submitLabel="Save source"
        cancelTo={tableUrl(table.uuid, project.uuid)}
        isEdit
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.source.name ?? 'Source'} · Sources · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The source could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
