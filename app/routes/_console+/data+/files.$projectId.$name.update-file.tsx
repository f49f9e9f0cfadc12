import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { deleteDictionaryFile, listDictionaryFiles } from '~/api/dictionary-files.server'
import { errorResponse, loadFromCluster } from '~/api/policies.server'
import { getProject } from '~/api/projects.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DateTime } from '~/components/layout/date-time'
import { DetailList, type DetailEntry } from '~/components/layout/detail-list'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { ClusterError } from '~/api/errors.server'
import { formatBytes } from '~/utils/format-number'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { dictionaryUrl } from './__dictionary-url'
import { FileUploadForm } from './__file-upload-form'
import { fileFormConstraint, uploadFileAction } from './__file-upload.server'
import { fileDownloadUrl, fileUrl } from './__file-url'
import { dictionariesUsing } from './__file-usage.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  docsTopic: 'file',
  breadcrumb: (loaded: { file?: { name: string } } | undefined) => ({ name: loaded?.file?.name }),
}

const DELETE_INTENT = 'delete-file'

async function loadFile(api: Awaited<ReturnType<typeof requireApi>>, projectId: string, name: string) {
  const [project, files, usedBy] = await Promise.all([
    getProject(api, projectId),
    listDictionaryFiles(api, projectId),
    dictionariesUsing(api, projectId, name),
  ])
  const file = files.find((item) => item.name === name)
  if (!file) throw new ClusterError({ status: 404, statusText: 'Not Found' })
  return { project, file, usedBy }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const { project, file, usedBy } = await loadFromCluster(() => loadFile(api, params.projectId!, params.name!))
  return {
    denied: await whyNotEach(api, { change: 'change_dictionaryfile', remove: 'delete_dictionaryfile' }, { project }),
    project: { uuid: project.uuid, name: project.name },
    file: {
      name: file.name,
      size: file.size ?? null,
      contentType: file.content_type ?? '',
      created: file.created ?? '',
      modified: file.modified ?? '',
    },
    usedBy,
    isConfirmingDelete: new URL(request.url).searchParams.get('delete') === file.name,
    constraint: fileFormConstraint(true),
  }
}

/** Replaces the file's contents (multipart), or deletes it (`intent=delete-file`, refused while a dictionary reads it). */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const projectId = params.projectId!
  const name = params.name!
  if ((request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
    const formData = await request.formData()
    if (formData.get('intent') !== DELETE_INTENT) throw data({ message: 'Unknown action' }, { status: 400 })
    const usedBy = await loadFromCluster(() => dictionariesUsing(api, projectId, name))
    if (usedBy.length) return data({ deleteError: inUseMessage(usedBy.map((item) => item.name)) }, { status: 400 })
    try {
      await deleteDictionaryFile(api, projectId, name)
    } catch (error) {
      // The cluster refuses too while a dictionary reads it (a race with the check above): say its reason.
      if (error instanceof ClusterError && error.status === 400)
        return data({ deleteError: error.message }, { status: 400 })
      if (error instanceof ClusterError) throw errorResponse(error)
      throw error
    }
    return redirectWithToast('/data/files', { title: `File ${name} deleted`, type: 'success' })
  }
  const outcome = await loadFromCluster(() => uploadFileAction(api, request, { projectId, name }))
  if (outcome.status === 'error') return data({ result: outcome.result }, { status: outcome.httpStatus ?? 400 })
  return redirectWithToast(outcome.redirectTo, { title: outcome.toast, type: 'success' })
}

function inUseMessage(names: string[]): string {
  return (
    `This file cannot be deleted: it is used ` +
    `by ${names.length === 1 ? 'dictionary' : 'dictionaries'} ${names.join(', ')}. Delete or ` +
    `change ${names.length === 1 ? 'that dictionary' : 'those dictionaries'} first.`
  )
}

export default function UpdateFileRoute() {
  const { project, file, usedBy, isConfirmingDelete, constraint, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pageUrl = fileUrl(project.uuid, file.name)
  const deleteError = actionData && 'deleteError' in actionData ? actionData.deleteError : undefined
  const entries: DetailEntry[] = [
    ['Project', project.name],
    ['Size', file.size === null ? '—' : `${formatBytes(file.size)} (${file.size.toLocaleString('en-US')} bytes)`],
    ['Type', file.contentType || '—'],
    ['Uploaded', file.created ? <DateTime value={file.created} /> : '—'],
    ['Modified', file.modified ? <DateTime value={file.modified} /> : '—'],
    [
      'Used by',
      usedBy.length ? (
        <span>
          {usedBy.map((dictionary, index) => (
            <span key={dictionary.uuid}>
              {index ? ', ' : ''}
              <ChakraLink asChild color="link">
                <Link to={dictionaryUrl(project.uuid, dictionary.uuid)}>{dictionary.name}</Link>
              </ChakraLink>
            </span>
          ))}
        </span>
      ) : (
        'No dictionary'
      ),
    ],
  ]
  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader
        eyebrow={`Project ${project.name}`}
        title={`File ${file.name}`}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <a href={fileDownloadUrl(project.uuid, file.name)} download={file.name}>
                Download
              </a>
            </Button>
            {isConfirmingDelete || usedBy.length ? null : (
              <GuardedLink
                to={`${pageUrl}?delete=${encodeURIComponent(file.name)}`}
                reason={denied.remove}
                colorPalette="red"
              >
                Delete file…
              </GuardedLink>
            )}
          </>
        }
      />
      {deleteError ? <InlineAlert title="The file was not deleted">{deleteError}</InlineAlert> : null}
      {usedBy.length ? (
        <Text fontSize="sm" color="fg.muted" data-testid="file-in-use">
          {inUseMessage(usedBy.map((item) => item.name))}
        </Text>
      ) : null}
      {isConfirmingDelete && !usedBy.length ? (
        <ConfirmPanel
          id="delete-file"
          title={`Delete file ${file.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete file"
          deniedReason={denied.remove}
        >
          The file {file.name} will be removed from project {project.name}. This cannot be undone.
        </ConfirmPanel>
      ) : null}
      <SectionCard id="file-details" title="Details">
        <DetailList entries={entries} />
      </SectionCard>
      <Stack gap="2">
        <Text fontWeight="medium">Replace the contents</Text>
        <Text fontSize="sm" color="fg.muted">
          The file keeps its name; dictionaries that read it load the new contents.
        </Text>
        <FileUploadForm
          deniedReason={denied.change}
          replace={{ projectId: project.uuid, name: file.name }}
          constraint={constraint}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          submitLabel="Replace file"
          cancelTo="/data/files"
        />
      </Stack>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded ? `File ${loaded.file.name}` : 'File'} · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({ title: 'The file could not be loaded' })
