import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { PageHeader } from '~/components/layout/page-header'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { TableEditor } from './__table-editor'
import { createTableAction, loadTableEditor } from './__table-editor.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'table' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, denied] = await Promise.all([
    loadFromCluster(() => loadTableEditor(api, new URL(request.url))),
    whyNotCreate(api, '/data/new-table'),
  ])
  return { ...editor, denied }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createTableAction(api, await request.formData())
}

export default function NewTableRoute() {
  const { projects, project, constraint, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        title="New table"
        description="A table lives in a project. Settings you leave empty take the cluster's defaults."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create tables">
        <TableEditor
          projects={projects}
          project={project}
          constraint={constraint}
          lastResult={actionData?.result}
          checkTo={actionData && 'checkTo' in actionData ? actionData.checkTo : null}
          submitLabel="Create table"
          cancelTo="/data/tables"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New table · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The table could not be created' })
