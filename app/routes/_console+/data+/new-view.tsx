import { getZodConstraint } from '@conform-to/zod/v4'
import { whyNotCreate } from '~/api/access.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { VIEW_MESSAGES } from '~/schemas/view-values'
import type { RouteHandle } from '~/utils/handle'
import { ViewEditor, ViewTablePicker } from './__view-editor'
import { loadNewView, saveViewAction } from './__view-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { ViewFormSchema } from '~/schemas/view'

export const handle: RouteHandle = { docsTopic: 'table' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [page, denied] = await Promise.all([
    loadFromCluster(() => loadNewView(api, new URL(request.url))),
    whyNotCreate(api, '/data/new-view'),
  ])
  return { ...page, denied, constraint: getZodConstraint(ViewFormSchema) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return saveViewAction(api, await request.formData())
}

export default function NewViewRoute() {
  const { search, table, label, views, hasAutoView, denied, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [projectId, tableId] = table.split('/')
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        title="New view"
        description="A view selects columns of a table; query it as project.`table#view`."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create views">
        {table ? (
          <ViewEditor
            key={table}
            table={table}
            tableLabel={label}
            views={views}
            hasAutoView={hasAutoView}
            constraint={constraint}
            defaults={{}}
            lastResult={actionData?.result}
            submitLabel="Create view"
            cancelTo={`/data/tables/${tableId}?project=${projectId}`}
            changeTableTo="/data/new-view"
          />
        ) : (
          <>
            {/* a submission that names no table (a stale page, a hand-made request) says what is missing */}
            {actionData ? <InlineAlert>{VIEW_MESSAGES.tableRequired}</InlineAlert> : null}
            {search ? <ViewTablePicker search={search} /> : null}
          </>
        )}
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New view · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The view could not be created',
  back: { to: '/data/tables', label: 'Back to the tables' },
})
