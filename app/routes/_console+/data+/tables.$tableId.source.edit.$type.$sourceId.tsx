import { Button, Stack } from '@chakra-ui/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { deleteSource, findSourcePool, getSource } from '~/api/sources.server'
import { isSourceKind, SOURCE_LABELS } from '~/schemas/source'
import { findTable } from '~/api/tables.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { ErrorPanel } from '~/components/layout/route-error'
import { SectionCard } from '~/components/layout/section-card'
import { errorMessage } from '~/utils/error-message'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { SourceEditor } from './__source-editor'
import { loadTransformNames, scaleValue, sourceEditorAction, sourceFormValue } from './__source-editor.server'
import { tableUrl } from './__table-url'

export const handle: RouteHandle = {
  docsTopic: 'table',
  breadcrumb: (data: { table?: { name: string }; source?: { name: string } } | undefined) => ({ tableId: data?.table?.name, sourceId: data?.source?.name }),
}

const DELETE_INTENT = 'delete-source'

function kindOf(type: string | undefined) {
  if (!isSourceKind(type)) throw data({ message: `404 Error: Not Found.` }, { status: 404, statusText: 'Not Found' })
  return type
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const kind = kindOf(params.type)
  const { table, project } = await loadFromCluster(() => findTable(api, params.tableId!, url.searchParams.get('project')))
  const source = await loadFromCluster(() => getSource(api, project.uuid, table.uuid, kind, params.sourceId!))
  const tableValue = `${project.uuid}/${table.uuid}`
  const [transforms, pool] = await Promise.all([loadFromCluster(() => loadTransformNames(api, tableValue)), settle(() => findSourcePool(api, source.pool_name))])
  const poolScale = pool.value ? scaleValue(pool.value.settings?.k8s_deployment) : null
  return {
    kind,
    table: { uuid: table.uuid, name: table.name, value: tableValue, label: `${project.name}.${table.name}` },
    project: { uuid: project.uuid, name: project.name },
    source: { uuid: source.uuid, name: source.name, transform: source.transform ?? '', created: source.created ?? '', modified: source.modified ?? '' },
    pool: pool.value ? { uuid: pool.value.uuid, name: pool.value.name, ...poolScale } : null,
    poolError: pool.error,
    poolName: source.pool_name ?? '',
    transforms,
    defaultValue: sourceFormValue(source, kind, tableValue),
    isConfirmingDelete: url.searchParams.get('delete') === source.uuid,
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const kind = kindOf(params.type)
  const formData = await request.formData()
  if (formData.get('intent') === DELETE_INTENT) {
    const { table, project } = await loadFromCluster(() => findTable(api, params.tableId!, String(formData.get('project') ?? '') || null))
    const source = await loadFromCluster(() => getSource(api, project.uuid, table.uuid, kind, params.sourceId!))
    await loadFromCluster(() => deleteSource(api, project.uuid, table.uuid, kind, source.uuid))
    return redirectWithToast(tableUrl(table.uuid, project.uuid), { title: `Source ${source.name} deleted`, type: 'success' })
  }
  return sourceEditorAction(api, kind, formData, { sourceId: params.sourceId! })
}

export default function EditSourceRoute() {
  const { kind, table, project, source, pool, poolError, poolName, transforms, defaultValue, isConfirmingDelete } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const base = `/data/tables/${table.uuid}/source/edit/${kind}/${source.uuid}?project=${project.uuid}`
  const state = pool ? `Running in pool ${pool.name}` : poolError ? 'Unknown (the pool could not be read)' : 'No pool: the source is stored but not running'
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        eyebrow={`${SOURCE_LABELS[kind]} source · table ${table.label}`}
        title={source.name}
        mb="0"
        actions={
          isConfirmingDelete ? null : (
            <Button asChild size="sm" variant="outline" colorPalette="red">
              <Link to={`${base}&delete=${source.uuid}`}>Delete source…</Link>
            </Button>
          )
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel id="delete-source" title={`Delete source ${source.name}?`} intent={DELETE_INTENT} hiddenFields={{ project: project.uuid }} confirmLabel="Delete source">
          The source stops pulling and its pool {poolName || ''} is removed. Rows already stored stay in the table.
        </ConfirmPanel>
      ) : null}
      <SectionCard id="pool" title="Pool and state">
        <DetailList
          entries={[
            ['State', state],
            ['Pool', pool ? <Link key="pool" to={`/scale/pool/${pool.uuid}`}>{pool.name}</Link> : poolName || '—'],
            ['Replicas', pool ? (pool.replicasMax ? `${pool.replicasMin}–${pool.replicasMax}` : pool.replicasMin) : '—'],
            ['CPU', pool?.cpu || '—'],
            ['Memory', pool?.memory ? `${pool.memory} GiB` : '—'],
            ['Storage', pool?.storage ? `${pool.storage} GiB` : '—'],
            ['Transform', source.transform || '—'],
          ]}
        />
      </SectionCard>
      <SourceEditor
        kind={kind}
        table={table.value}
        tableLabel={table.label}
        transforms={transforms}
        defaultValue={defaultValue}
        lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        submitLabel="Save source"
        cancelTo={tableUrl(table.uuid, project.uuid)}
        isEdit
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.source.name ?? 'Source'} · Sources · Cluster Console` }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel title="The source could not be shown" message={errorMessage(error)} back={{ to: '/data/tables', label: 'Back to the tables' }} />
}
