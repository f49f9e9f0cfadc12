import { getZodConstraint } from '@conform-to/zod/v4'
import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { findTable } from '~/api/tables.server'
import { AUTO_VIEW, deleteView, getView } from '~/api/views.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'
import { ViewEditor } from './__view-editor'
import { loadTableViews, saveViewAction, viewOriginal } from './__view-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { ViewFormSchema } from '~/schemas/view'

export const handle: RouteHandle = {
  docsTopic: 'table',
  breadcrumb: (data: { tableName?: string } | undefined) => ({ tableId: data?.tableName }),
}

const DELETE_INTENT = 'delete-view'

async function findView(request: Request, tableId: string, viewId: string, projectHint: string | null) {
  const api = await requireApi(request)
  const { table, project } = await loadFromCluster(() => findTable(api, tableId, projectHint))
  const view = await loadFromCluster(() => getView(api, project.uuid, table.uuid, viewId))
  return { api, table, project, view }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const { api, table, project, view } = await findView(
    request,
    params.tableId!,
    params.viewId!,
    url.searchParams.get('project'),
  )
  const [tableViews, denied] = await Promise.all([
    loadTableViews(api, project.uuid, table.uuid),
    whyNotEach(api, { change: 'change_view', remove: 'delete_view' }, { project, table }),
  ])
  const views = tableViews?.views ?? []
  const columns = (view.settings?.output_columns ?? []).map((column) => column.name)
  // The cluster keeps no parent: the smallest other view holding every column of this one (auto_view at worst).
  const parent = views
    .filter(
      (candidate) =>
        candidate.uuid !== view.uuid &&
        columns.every((name) => candidate.columns.some((column) => column.name === name)),
    )
    .sort((a, b) => a.columns.length - b.columns.length)[0]
  return {
    denied,
    tableName: table.name,
    table: `${project.uuid}/${table.uuid}`,
    tableLabel: `${project.name}.${table.name}`,
    tablePage: tableUrl(table.uuid, project.uuid),
    views,
    hasAutoView: tableViews?.hasAutoView ?? false,
    constraint: getZodConstraint(ViewFormSchema),
    view: {
      uuid: view.uuid,
      name: view.name,
      description: view.description ?? '',
      columns,
      parentView: parent?.uuid,
      original: viewOriginal(view, columns, parent ?? views.find((candidate) => candidate.name === AUTO_VIEW)),
    },
    isConfirmingDelete: url.searchParams.get('delete') === view.uuid,
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const formData = await request.formData()
  const projectHint = new URL(request.url).searchParams.get('project')
  const { api, table, project, view } = await findView(request, params.tableId!, params.viewId!, projectHint)
  if (formData.get('intent') === DELETE_INTENT) {
    await loadFromCluster(() => deleteView(api, project.uuid, table.uuid, view.uuid))
    return redirectWithToast(`${tableUrl(table.uuid, project.uuid)}#views`, {
      title: `View ${view.name} deleted`,
      type: 'success',
    })
  }
  // The table is this page's, whatever the form says.
  formData.set('table', `${project.uuid}/${table.uuid}`)
  return saveViewAction(api, formData, view.uuid)
}

export default function EditViewRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { view } = loaded
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        eyebrow={`View of ${loaded.tableLabel}`}
        title={view.name}
        mb="0"
        actions={
          loaded.isConfirmingDelete ? null : (
            <GuardedLink
              to={`?project=${loaded.table.split('/')[0]}&delete=${view.uuid}`}
              reason={loaded.denied.remove}
              colorPalette="red"
            >
              Delete view…
            </GuardedLink>
          )
        }
      />
      {loaded.isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-view"
          title={`Delete view ${view.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete view"
          deniedReason={loaded.denied.remove}
        >
          Queries that read {loaded.tableLabel}#{view.name} will fail. The table and its data stay.
        </ConfirmPanel>
      ) : null}
      <ViewEditor
        deniedReason={loaded.denied.change}
        table={loaded.table}
        tableLabel={loaded.tableLabel}
        views={loaded.views}
        hasAutoView={loaded.hasAutoView}
        constraint={loaded.constraint}
        excludeViewId={view.uuid}
        defaults={{
          name: view.name,
          description: view.description,
          parentView: view.parentView,
          outputColumns: view.columns,
          original: view.original,
        }}
        lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        submitLabel="Save view"
        cancelTo={loaded.tablePage}
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.view.name ?? 'View'} · Views · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The view could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
