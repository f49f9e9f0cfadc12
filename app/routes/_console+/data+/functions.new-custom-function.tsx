import { getZodConstraint } from '@conform-to/zod/v4'
import { Stack } from '~/components/ui/stack'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { FunctionEditor } from './__function-editor'
import { createFunctionAction, loadFunctionEditor } from './__function-editor.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { FunctionFormSchema } from '~/schemas/function'

export const handle: RouteHandle = { docsTopic: 'function' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, denied] = await Promise.all([
    loadFromCluster(() => loadFunctionEditor(api, new URL(request.url))),
    whyNotCreate(api, '/data/functions/new-custom-function'),
  ])
  return { ...editor, denied, constraint: getZodConstraint(FunctionFormSchema) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createFunctionAction(api, await request.formData())
}

export default function NewFunctionRoute() {
  const { projects, project, denied, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        title="New function"
        description="A custom SQL function of a project, usable in every query once saved."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create functions">
        <FunctionEditor
          projects={projects}
          constraint={constraint}
          defaultValue={{ project }}
          lastResult={actionData?.result}
          submitLabel="Create function"
          cancelTo="/data/functions"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New function · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The function could not be created' })
