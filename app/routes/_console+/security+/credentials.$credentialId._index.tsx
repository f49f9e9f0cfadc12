import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import type { SubmissionResult } from '@conform-to/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { deleteCredential, getCredential } from '~/api/credentials.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { listStorages } from '~/api/storages.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DateTime } from '~/components/layout/date-time'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { PICK_TYPE_INTENT } from '~/schemas/credential-values'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { CredentialEditor } from './__credential-editor'
import {
  credentialFormValues,
  loadCredentialEditor,
  saveCredentialAction,
  storedSecrets,
} from './__credential-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  breadcrumb: (loaded: { credential?: { name: string } } | undefined) => ({
    credentialId: loaded?.credential?.name,
  }),
}

const SAVE_INTENT = 'save-credential'
const DELETE_INTENT = 'delete-credential'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const [credential, editor, storages, denied] = await Promise.all([
    loadFromCluster(() => getCredential(api, params.credentialId!)),
    loadFromCluster(() => loadCredentialEditor(api)),
    settle(() => listStorages(api)),
    whyNotEach(api, { change: 'change_credential', remove: 'delete_credential' }),
  ])
  const type = editor.types.find((option) => option.value === credential.type)
  const values = credentialFormValues(credential, type)
  const stored = storedSecrets(credential, type)
  return {
    // Only what the page shows: the cluster's details (even masked) never reach the browser.
    credential: {
      uuid: credential.uuid,
      name: credential.name,
      description: credential.description ?? '',
      type: credential.type ?? '',
      typeLabel: type?.label ?? credential.type ?? '',
      cloud: credential.cloud ?? type?.cloud ?? '',
      created: credential.created ?? '',
      modified: credential.modified ?? '',
    },
    details: (type?.fields ?? []).map((field) => ({
      label: field.label,
      value: field.secret
        ? stored.includes(field.key)
          ? 'Stored (hidden)'
          : 'Not set'
        : values.details[field.key] || '—',
    })),
    types: editor.types,
    formValues: values,
    stored,
    buckets: storages.value
      ? storages.value
          .filter((storage) => storage.settings?.credential_id === credential.uuid)
          .map((storage) => ({ uuid: storage.uuid, name: storage.name }))
      : null,
    isConfirmingDelete: url.searchParams.get('delete') === credential.uuid,
    denied,
  }
}

/** Saves the credential (`intent=save-credential`, or redisplays for `pick-type`) or deletes it (`intent=delete-credential`). */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  const credential = await loadFromCluster(() => getCredential(api, params.credentialId!))
  if (intent === SAVE_INTENT || intent === PICK_TYPE_INTENT)
    return loadFromCluster(() => saveCredentialAction(api, formData, credential))
  if (intent !== DELETE_INTENT) throw data({ message: 'Unknown action' }, { status: 400 })
  await loadFromCluster(() => deleteCredential(api, credential.uuid))
  return redirectWithToast('/security/credentials', {
    title: `Credential ${credential.name} deleted`,
    type: 'success',
  })
}

export default function CredentialRoute() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { credential, buckets } = loaded
  return (
    <Stack gap="6">
      <PageHeader
        level={2}
        eyebrow="Credential"
        title={credential.name}
        description={credential.description || undefined}
        mb="0"
        actions={
          loaded.isConfirmingDelete ? null : (
            <GuardedLink
              to={`/security/credentials/${credential.uuid}?delete=${credential.uuid}`}
              reason={loaded.denied.remove}
              colorPalette="red"
            >
              Delete credential…
            </GuardedLink>
          )
        }
      />

      {loaded.isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-credential"
          title={`Delete credential ${credential.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete credential"
          deniedReason={loaded.denied.remove}
        >
          {buckets?.length
            ? `${buckets.length === 1 ? 'Bucket' : 'Buckets'} ${buckets.map((bucket) => bucket.name).join(', ')} ${
                buckets.length === 1 ? 'uses' : 'use'
              } it and will lose access. `
            : ''}
          Its secrets are removed from the cluster. This cannot be undone.
        </ConfirmPanel>
      ) : null}

      <SectionCard id="details" title="Details">
        <DetailList
          entries={[
            ['Credential ID', <code key="id">{credential.uuid}</code>],
            ['Type', credential.typeLabel],
            ['Cloud', credential.cloud || '—'],
            ...loaded.details.map((detail): [string, string] => [detail.label, detail.value]),
            [
              'Used by buckets',
              buckets === null ? (
                'The buckets could not be read.'
              ) : buckets.length ? (
                <span key="b">
                  {buckets.map((bucket, index) => (
                    <span key={bucket.uuid}>
                      {index ? ', ' : ''}
                      <Link to={`/security/buckets/${bucket.uuid}`}>{bucket.name}</Link>
                    </span>
                  ))}
                </span>
              ) : (
                'None'
              ),
            ],
            ['Created', <DateTime key="c" value={credential.created} />],
            ['Modified', <DateTime key="m" value={credential.modified} />],
          ]}
        />
      </SectionCard>

      <Stack gap="2" maxW="2xl">
        <PageHeader level={3} title="Edit credential" mb="0" />
        <Text fontSize="sm" color="fg.muted">
          Secrets are never shown. Type a new one to replace it, or leave it blank to keep the stored one.
        </Text>
        <CredentialEditor
          deniedReason={loaded.denied.change}
          types={loaded.types}
          defaultValue={loaded.formValues}
          stored={loaded.stored}
          fixedType={credential.type}
          lastResult={
            actionData && 'result' in actionData ? (actionData.result as SubmissionResult<string[]>) : undefined
          }
          submitLabel="Save credential"
          submitIntent={SAVE_INTENT}
          pickTypeIntent={PICK_TYPE_INTENT}
          cancelTo="/security/credentials"
        />
      </Stack>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  {
    title: `${loaded?.credential.name ?? 'Credential'} · Credentials · Cluster Console`,
  },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The credential could not be shown',
  back: { to: '/security/credentials', label: 'Back to the credentials' },
})
