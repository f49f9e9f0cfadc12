import { Stack } from '~/components/ui/stack'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { listProjects } from '~/api/projects.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { FileUploadForm } from './__file-upload-form'
import { fileFormConstraint, uploadFileAction } from './__file-upload.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { isConsoleProject } from '~/utils/console-store'

export const handle: RouteHandle = { docsTopic: 'file' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [listed, denied] = await Promise.all([
    loadFromCluster(() => listProjects(api)),
    whyNotCreate(api, '/data/files/new-file'),
  ])
  // not the console's own store (decision 105)
  const projects = listed
    .filter((project) => !isConsoleProject(project))
    .map((project) => ({ uuid: project.uuid, name: project.name }))
  const wanted = new URL(request.url).searchParams.get('project')
  return {
    denied,
    projects,
    project: projects.some((project) => project.uuid === wanted) ? wanted! : '',
    constraint: fileFormConstraint(),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const outcome = await loadFromCluster(() => uploadFileAction(api, request))
  if (outcome.status === 'error') return data({ result: outcome.result }, { status: outcome.httpStatus ?? 400 })
  return redirectWithToast(outcome.redirectTo, { title: outcome.toast, type: 'success' })
}

export default function NewFileRoute() {
  const { projects, project, constraint, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        title="Upload file"
        description="A file of a project that its dictionaries can load (CSV, TSV, JSON or Parquet)."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot upload files">
        <FileUploadForm
          projects={projects}
          project={project}
          constraint={constraint}
          lastResult={actionData?.result}
          submitLabel="Upload file"
          cancelTo="/data/files"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Upload file · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The file could not be uploaded' })
