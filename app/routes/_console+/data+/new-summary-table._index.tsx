import { getZodConstraint } from '@conform-to/zod/v4'
import { whyNotCreate } from '~/api/access.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { SummaryForm, SummaryTabs, tabWithErrors, type NewSummaryTab } from './__summary-editor'
import { createSummaryAction, loadSummaryProjects } from './__summary.server'
import { choiceValue, PICKER_LIMIT, searchTables, tableChoiceOfValue } from '~/api/table-search.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { SummaryFormSchema } from '~/schemas/summary'

export const handle: RouteHandle = { docsTopic: 'summary settings' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const field = (name: string) => url.searchParams.get(name) ?? undefined
  // The parent picker lists what `?table_q=` finds (issue 33: never every table of the org); the
  // parent chosen (`?parent=`) is found by id. "Find" sends the whole form as a GET: its fields come back.
  const q = (url.searchParams.get('table_q') ?? '').trim()
  const denied = whyNotCreate(api, '/data/new-summary-table')
  const [projects, parent, { choices, hasMore }] = await loadFromCluster(() =>
    Promise.all([
      loadSummaryProjects(api),
      tableChoiceOfValue(api, url.searchParams.get('parent'), 'raw'),
      searchTables(api, q, PICKER_LIMIT, 'raw'),
    ]),
  )
  const wantedProject = url.searchParams.get('project')
  return {
    denied: await denied,
    projects,
    search: { q, choices, hasMore, selected: parent },
    defaults: {
      parent: parent ? choiceValue(parent) : undefined,
      // The parent's project unless another is asked for.
      project: projects.some((project) => project.uuid === wantedProject) ? wantedProject! : parent?.projectId,
      name: field('name'),
      description: field('description'),
      sql: field('sql'),
      // enabled unless the Settings tab, once shown, was sent unticked
      enabled: field('enabled') === 'on' || field('settingsShown') !== 'on' ? 'on' : undefined,
      settingsShown: field('settingsShown') === 'on' ? 'on' : undefined,
    },
    tab: (field('tab') === 'settings' ? 'settings' : 'form') as NewSummaryTab,
    constraint: getZodConstraint(SummaryFormSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createSummaryAction(api, await request.formData())
}

export default function NewSummaryTableRoute() {
  const { projects, search, defaults, denied, tab: asked, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const analysisHref = `/data/new-summary-table/column-analysis${defaults.parent ? `?parent=${defaults.parent}` : ''}`
  // a refused create shows the tab with the fields it marks
  const tab = tabWithErrors(asked, actionData?.result)
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        title="New summary table"
        description="A summary table keeps the result of an aggregating SQL over its parent table as rows arrive."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create summary tables">
        <SummaryTabs
          current={tab}
          hrefs={{ form: '/data/new-summary-table', analysis: analysisHref, settings: '/data/new-summary-table' }}
          newForm="summary-form"
        />
        <SummaryForm
          key={`${tab}:${defaults.sql ?? ''}:${search.q}`}
          tab={tab}
          projects={projects}
          constraint={constraint}
          search={actionData?.picked ? { ...search, selected: actionData.picked } : search}
          defaults={defaults}
          lastResult={actionData?.result}
          analysisHref={analysisHref}
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New summary table · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The summary table could not be created',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
