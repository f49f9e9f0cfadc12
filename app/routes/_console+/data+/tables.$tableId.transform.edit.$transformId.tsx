import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { findTable } from '~/api/tables.server'
import { deleteTransform, getTransform } from '~/api/transforms.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { TransformEditor } from './__transform-editor'
import { transformConstraint, transformEditorAction, transformFormValue } from './__transform-editor.server'
import { tableUrl } from './__table-url'
import { newIngestToken } from './__ingest-once.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  docsTopic: 'transform',
  breadcrumb: (data: { table?: { name: string }; transform?: { name: string } } | undefined) => ({
    tableId: data?.table?.name,
    transformId: data?.transform?.name,
  }),
}

const DELETE_INTENT = 'delete-transform'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, url.searchParams.get('project')),
  )
  const [transform, denied] = await Promise.all([
    loadFromCluster(() => getTransform(api, project.uuid, table.uuid, params.transformId!)),
    whyNotEach(
      api,
      { change: 'change_transform', remove: 'delete_transform', ingest: 'insert_sql' },
      { project, table },
    ),
  ])
  const tableValue = `${project.uuid}/${table.uuid}`
  return {
    denied,
    table: { uuid: table.uuid, name: table.name },
    project: { uuid: project.uuid, name: project.name },
    transform: { uuid: transform.uuid, name: transform.name },
    tables: [{ value: tableValue, label: `${project.name}.${table.name}` }],
    defaultValue: transformFormValue(transform, tableValue),
    constraint: transformConstraint(),
    isConfirmingDelete: url.searchParams.get('delete') === transform.uuid,
    ingestToken: newIngestToken(),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  if (formData.get('intent') === DELETE_INTENT) {
    const { table, project } = await loadFromCluster(() =>
      findTable(api, params.tableId!, String(formData.get('project') ?? '') || null),
    )
    const transform = await loadFromCluster(() => getTransform(api, project.uuid, table.uuid, params.transformId!))
    await loadFromCluster(() => deleteTransform(api, project.uuid, table.uuid, transform.uuid))
    return redirectWithToast(tableUrl(table.uuid, project.uuid), {
      title: `Transform ${transform.name} deleted`,
      type: 'success',
    })
  }
  return transformEditorAction(api, formData, { transformId: params.transformId! })
}

export default function EditTransformRoute() {
  const { table, project, transform, tables, defaultValue, constraint, isConfirmingDelete, denied, ingestToken } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const formKey = actionData && 'formKey' in actionData ? actionData.formKey : 'edit'
  const base = `/data/tables/${table.uuid}/transform/edit/${transform.uuid}`
  return (
    <Stack gap="4" maxW="6xl">
      <PageHeader
        eyebrow={`Table ${project.name}.${table.name}`}
        title={`Transform ${transform.name}`}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <Link
                to={`/data/validate-transform?project=${project.uuid}&table=${table.uuid}&transform=${transform.uuid}`}
              >
                Validate with other data
              </Link>
            </Button>
            {isConfirmingDelete ? null : (
              <GuardedLink
                to={`${base}?project=${project.uuid}&delete=${transform.uuid}`}
                reason={denied.remove}
                colorPalette="red"
              >
                Delete transform…
              </GuardedLink>
            )}
          </>
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-transform"
          title={`Delete transform ${transform.name}?`}
          intent={DELETE_INTENT}
          hiddenFields={{ project: project.uuid }}
          confirmLabel="Delete transform"
          deniedReason={denied.remove}
        >
          Data sent with this transform will no longer be accepted. Rows already stored stay in the table.
        </ConfirmPanel>
      ) : null}
      <TransformEditor
        deniedReason={denied.change}
        key={formKey}
        tables={tables}
        isTableFixed
        defaultValue={defaultValue}
        constraint={constraint}
        lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        submitLabel="Save transform"
        cancelTo={tableUrl(table.uuid, project.uuid)}
        validation={actionData && 'validation' in actionData ? actionData.validation : null}
        notice={actionData && 'notice' in actionData ? actionData.notice : null}
        downloadHref={`${base}/download?project=${project.uuid}`}
        canIngest
        ingestDenied={denied.ingest}
        // the token a sample was ingested with stays (a repeat loads nothing); a new page gets a new one
        ingestToken={(actionData && 'ingestToken' in actionData ? actionData.ingestToken : undefined) ?? ingestToken}
        ingestNotice={actionData && 'ingestNotice' in actionData ? actionData.ingestNotice : null}
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.transform.name ?? 'Transform'} · Transforms · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The transform could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
