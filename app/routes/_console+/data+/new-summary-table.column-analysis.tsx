import { getZodConstraint } from '@conform-to/zod/v4'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { SUMMARY_MESSAGES } from '~/schemas/summary-values'
import type { RouteHandle } from '~/utils/handle'
import { ColumnAnalysisForm, ParentPicker, SummaryTabs } from './__summary-editor'
import { columnAnalysisAction, loadParentColumns } from './__summary.server'
import { choiceValue, loadTableSearch } from '~/api/table-search.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { ColumnAnalysisSchema } from '~/schemas/summary'

export const handle: RouteHandle = { docsTopic: 'summary settings' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  // the tables `?table_q=` finds and the parent chosen, by id (issue 33: never every table of the org)
  const search = await loadFromCluster(() => loadTableSearch(api, url, { idParam: 'parent', kind: 'raw' }))
  const parent = search.selected ? choiceValue(search.selected) : ''
  const columns = parent ? await loadFromCluster(() => loadParentColumns(api, parent)) : []
  return { search, parent, columns, constraint: getZodConstraint(ColumnAnalysisSchema) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return columnAnalysisAction(api, await request.formData())
}

export default function NewSummaryColumnAnalysisRoute() {
  const { search, parent, columns, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const formHref = `/data/new-summary-table${parent ? `?parent=${parent}` : ''}`
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        title="New summary table"
        description="Pick what each column of the parent becomes; the SQL is built for you."
        mb="0"
      />
      <SummaryTabs
        current="analysis"
        hrefs={{
          form: formHref,
          analysis: '/data/new-summary-table/column-analysis',
          settings: `/data/new-summary-table?tab=settings${parent ? `&parent=${parent}` : ''}`,
        }}
      />
      <ParentPicker search={search} />
      {/* a submission that names no parent (a stale page, a hand-made request) says what is missing */}
      {!parent && actionData ? <InlineAlert>{SUMMARY_MESSAGES.parentRequired}</InlineAlert> : null}
      {parent ? (
        <ColumnAnalysisForm
          key={parent}
          parent={parent}
          columns={columns}
          constraint={constraint}
          lastResult={actionData?.result}
          sql={actionData?.sql ?? null}
          useHref={formHref}
        />
      ) : null}
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Column analysis · New summary table · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The column analysis could not be shown',
  back: { to: '/data/new-summary-table', label: 'Back to the summary form' },
})
