import { Stack } from '~/components/ui/stack'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { DictionaryEditor, newDictionaryDefaults } from './__dictionary-editor'
import { createDictionaryAction, loadDictionaryChoices } from './__dictionary-editor.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { getZodConstraint } from '@conform-to/zod/v4'
import { DictionaryNewFormSchema } from '~/schemas/dictionary'

export const handle: RouteHandle = { docsTopic: 'dictionary' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [{ projects, files }, denied] = await Promise.all([
    loadFromCluster(() => loadDictionaryChoices(api)),
    whyNotCreate(api, '/data/dictionaries/new-data-dictionary'),
  ])
  const wanted = new URL(request.url).searchParams.get('project')
  return {
    denied,
    projects,
    files,
    project: projects.some((project) => project.uuid === wanted) ? wanted! : '',
    constraint: getZodConstraint(DictionaryNewFormSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createDictionaryAction(api, request)
}

export default function NewDictionaryRoute() {
  const { projects, files, project, denied, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        title="New dictionary"
        description="A dictionary loads a file of its project and answers lookups by key in every query."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create dictionaries">
        <DictionaryEditor
          constraint={constraint}
          projects={projects}
          files={files}
          defaultValue={newDictionaryDefaults(project)}
          lastResult={actionData?.result}
          submitLabel="Create dictionary"
          cancelTo="/data/dictionaries"
          canUpload
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New dictionary · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The dictionary could not be created' })
