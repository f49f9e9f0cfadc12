import { getZodConstraint } from '@conform-to/zod/v4'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { findTable } from '~/api/tables.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { ColumnAnalysisForm, SummaryTabs } from './__summary-editor'
import { columnAnalysisAction, loadParentColumns, loadSummaryTable } from './__summary.server'
import { tableUrl } from './__table-url'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { ColumnAnalysisSchema } from '~/schemas/summary'

export const handle: RouteHandle = {
  docsTopic: 'summary settings',
  breadcrumb: (data: { table?: { name: string } } | undefined) => ({ tableId: data?.table?.name }),
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const { table, project } = await loadFromCluster(() =>
    findTable(api, params.tableId!, new URL(request.url).searchParams.get('project')),
  )
  const summary = await loadSummaryTable(api, table, project)
  const columns = summary.parent ? await loadFromCluster(() => loadParentColumns(api, summary.parent!.value)) : []
  return {
    table: summary.table,
    project: summary.project,
    parent: summary.parent,
    columns,
    constraint: getZodConstraint(ColumnAnalysisSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return columnAnalysisAction(api, await request.formData())
}

export default function EditSummaryColumnAnalysisRoute() {
  const { table, project, parent, columns, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const settingsHref = `/data/tables/${table.uuid}/edit-summary-settings?project=${project.uuid}`
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        eyebrow={`Project ${project.name}`}
        title={`Column analysis of ${table.name}`}
        description={parent ? `Parent table ${parent.label}` : 'The parent table was not found.'}
        mb="0"
      />
      <SummaryTabs
        current="analysis"
        hrefs={{
          form: `${tableUrl(table.uuid, project.uuid)}&edit=rename`,
          analysis: `/data/tables/${table.uuid}/edit-summary-settings/column-analysis?project=${project.uuid}`,
          settings: settingsHref,
        }}
      />
      {parent ? (
        <ColumnAnalysisForm
          constraint={constraint}
          parent={parent.value}
          columns={columns}
          lastResult={actionData?.result}
          sql={actionData?.sql ?? null}
          useHref={settingsHref}
        />
      ) : null}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Column analysis · ${data?.table.name ?? 'Table'} · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The column analysis could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
