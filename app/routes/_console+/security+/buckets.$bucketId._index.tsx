import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { deleteStorage, getStorage } from '~/api/storages.server'
import { listProjectsWithTables } from '~/api/tables.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DateTime } from '~/components/layout/date-time'
import { DetailList } from '~/components/layout/detail-list'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { ForceConfirmSchema } from '~/schemas/confirm'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { BucketEditor } from './__bucket-editor'
import { bucketEditValues, loadBucketEditor, saveBucketAction } from './__bucket-editor.server'
import { tablesUsingStorage, type BucketUse } from './__bucket-usage.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  breadcrumb: (loaded: { bucket?: { name: string } } | undefined) => ({
    bucketId: loaded?.bucket?.name,
  }),
}

const SAVE_INTENT = 'save-bucket'
const DELETE_INTENT = 'delete-bucket'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const [storage, editor, projects, denied] = await Promise.all([
    loadFromCluster(() => getStorage(api, params.bucketId!)),
    loadBucketEditor(api),
    // Which tables use the bucket is a panel of its own: the page stays when it cannot be read.
    settle(() => listProjectsWithTables(api)),
    whyNotEach(api, { change: 'change_hdxstorage', remove: 'delete_hdxstorage' }),
  ])
  const uses = projects.value ? tablesUsingStorage(storage, projects.value) : null
  const credential = editor.credentials.find((entry) => entry.uuid === storage.settings?.credential_id)
  return {
    bucket: {
      uuid: storage.uuid,
      name: storage.name,
      description: storage.description ?? '',
      isDefault: Boolean(storage.settings?.is_default),
      cloud: storage.settings?.cloud ?? '',
      location: `${storage.settings?.bucket_name ?? ''}${storage.settings?.bucket_path ?? ''}`,
      credential: storage.settings?.credential_id ? (credential?.name ?? storage.settings.credential_id) : '',
      created: storage.created ?? '',
      modified: storage.modified ?? '',
    },
    formValues: bucketEditValues(storage),
    ...editor,
    uses,
    usesError: projects.error,
    isConfirmingDelete: url.searchParams.get('delete') === storage.uuid,
    denied,
  }
}

/**
 * Saves the bucket (`intent=save-bucket`), or deletes it (`intent=delete-bucket`): the default bucket
 * and a bucket tables use need FORCE typed (the cluster's force_operation); others are deleted on
 * confirmation. Redirects with a toast.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === SAVE_INTENT) return saveBucketAction(api, formData, params.bucketId!)
  if (intent !== DELETE_INTENT) throw data({ message: 'Unknown action' }, { status: 400 })

  const [storage, projects] = await Promise.all([
    loadFromCluster(() => getStorage(api, params.bucketId!)),
    settle(() => listProjectsWithTables(api)),
  ])
  const uses = projects.value ? tablesUsingStorage(storage, projects.value) : []
  const needsForce = Boolean(storage.settings?.is_default) || uses.length > 0 || projects.error !== null
  if (needsForce) {
    const confirmation = parseWithZod(formData, { schema: ForceConfirmSchema })
    if (confirmation.status !== 'success') return data({ deleteResult: confirmation.reply() }, { status: 400 })
  }
  await loadFromCluster(() => deleteStorage(api, storage.uuid, { force: needsForce }))
  return redirectWithToast('/security/buckets', {
    title: `Bucket ${storage.name} deleted`,
    type: 'success',
  })
}

const useColumns: Column<BucketUse>[] = [
  {
    key: 'table',
    header: 'Table',
    isRowHeader: true,
    cell: (row) => <Link to={`/data/tables/${row.tableId}?project=${row.projectId}`}>{row.tableName}</Link>,
  },
  { key: 'project', header: 'Project', cell: (row) => row.projectName },
  {
    key: 'how',
    header: 'How',
    cell: (row) =>
      row.how === 'table default'
        ? "The table's default bucket"
        : row.how === 'mapped values'
          ? 'Some column values are mapped here'
          : 'No bucket of its own: uses the default',
  },
]

export default function BucketRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { bucket, uses } = loaded
  const needsForce = bucket.isDefault || (uses?.length ?? 0) > 0 || loaded.usesError !== null
  return (
    <Stack gap="6">
      <PageHeader
        level={2}
        eyebrow={bucket.isDefault ? 'The default bucket' : 'Bucket'}
        title={bucket.name}
        description={bucket.description || undefined}
        mb="0"
        actions={
          loaded.isConfirmingDelete ? null : (
            <GuardedLink
              to={`/security/buckets/${bucket.uuid}?delete=${bucket.uuid}`}
              reason={loaded.denied.remove}
              colorPalette="red"
            >
              Delete bucket…
            </GuardedLink>
          )
        }
      />

      {loaded.isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-bucket"
          title={`Delete bucket ${bucket.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete bucket"
          deniedReason={loaded.denied.remove}
          force={
            needsForce
              ? {
                  lastResult: actionData && 'deleteResult' in actionData ? actionData.deleteResult : undefined,
                }
              : undefined
          }
        >
          {deleteText(bucket.isDefault, uses)}
        </ConfirmPanel>
      ) : null}

      <SectionCard id="details" title="Details">
        <DetailList
          entries={[
            ['Bucket ID', <code key="id">{bucket.uuid}</code>],
            ['Location', <code key="loc">{`${bucket.cloud}://${bucket.location}`}</code>],
            ['Default bucket', bucket.isDefault ? 'Yes' : 'No'],
            ['Credential', bucket.credential || 'None'],
            ['Created', <DateTime key="c" value={bucket.created} />],
            ['Modified', <DateTime key="m" value={bucket.modified} />],
          ]}
        />
      </SectionCard>

      <SectionCard id="tables" title="Tables using this bucket">
        {uses === null ? (
          <InlineAlert title="The tables could not be read">{loaded.usesError}</InlineAlert>
        ) : (
          <DataTable
            caption={`Tables using ${bucket.name}`}
            columns={useColumns}
            rows={uses}
            rowKey={(row) => row.tableId}
            empty={<Text>No table uses this bucket.</Text>}
          />
        )}
      </SectionCard>

      <Stack gap="2" maxW="2xl">
        <PageHeader level={3} title="Edit bucket" mb="0" />
        <BucketEditor
          deniedReason={loaded.denied.change}
          credentials={loaded.credentials}
          credentialsError={loaded.credentialsError}
          constraint={loaded.constraint}
          defaultValue={loaded.formValues}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          submitLabel="Save bucket"
          submitIntent={SAVE_INTENT}
          cancelTo="/security/buckets"
        />
      </Stack>
    </Stack>
  )
}

/** What deleting loses: which tables lose their storage, and that the default goes. */
function deleteText(isDefault: boolean, uses: BucketUse[] | null): string {
  const parts: string[] = []
  if (isDefault) parts.push('This is the default bucket: new tables will have none until another is made the default.')
  if (uses === null) parts.push('The tables that use it could not be read.')
  else if (uses.length)
    parts.push(
      `${uses.length} ${uses.length === 1 ? 'table uses' : 'tables use'} it: ${uses
        .map((use) => `${use.projectName}.${use.tableName}`)
        .join(', ')}.`,
    )
  parts.push('The bucket itself and its data stay in the cloud; the cluster forgets it.')
  return parts.join(' ')
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.bucket.name ?? 'Bucket'} · Buckets · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The bucket could not be shown',
  back: { to: '/security/buckets', label: 'Back to the buckets' },
})
