import { getZodConstraint } from '@conform-to/zod/v4'
import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { findTable } from '~/api/tables.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { SummarySettingsForm, SummaryTabs } from './__summary-editor'
import { loadSummaryTable, updateSummarySettingsAction } from './__summary.server'
import { tableUrl } from './__table-url'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { SummarySettingsSchema } from '~/schemas/summary'

export const handle: RouteHandle = {
  docsTopic: 'summary settings',
  breadcrumb: (data: { table?: { name: string } } | undefined) => ({ tableId: data?.table?.name }),
}

async function find(request: Request, tableId: string) {
  const api = await requireApi(request)
  const found = await loadFromCluster(() => findTable(api, tableId, new URL(request.url).searchParams.get('project')))
  return { api, ...found }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, table, project } = await find(request, params.tableId!)
  const summary = await loadSummaryTable(api, table, project)
  return {
    ...summary,
    sql: new URL(request.url).searchParams.get('sql') ?? summary.sql,
    constraint: getZodConstraint(SummarySettingsSchema),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, table, project } = await find(request, params.tableId!)
  await loadSummaryTable(api, table, project)
  return updateSummarySettingsAction(api, await request.formData(), table, project)
}

export default function EditSummarySettingsRoute() {
  const { table, project, sql, enabled, parent, original, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const page = tableUrl(table.uuid, project.uuid)
  const settingsHref = `/data/tables/${table.uuid}/edit-summary-settings?project=${project.uuid}`
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader eyebrow={`Project ${project.name}`} title={`Summary settings of ${table.name}`} mb="0" />
      <SummaryTabs
        current="settings"
        hrefs={{
          form: `${page}&edit=rename`,
          analysis: `/data/tables/${table.uuid}/edit-summary-settings/column-analysis?project=${project.uuid}`,
          settings: settingsHref,
        }}
      />
      <Text>
        Parent table:{' '}
        {parent ? (
          <Link to={`/data/tables/${parent.value.split('/')[1]}?project=${parent.value.split('/')[0]}`}>
            {parent.label}
          </Link>
        ) : (
          'not found'
        )}
      </Text>
      <SummarySettingsForm
        key={sql}
        defaults={{ enabled, sql, original }}
        constraint={constraint}
        lastResult={actionData?.result}
        cancelTo={page}
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Summary settings · ${data?.table.name ?? 'Table'} · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The summary settings could not be shown',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
