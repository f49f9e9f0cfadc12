import { whyNotCreate } from '~/api/access.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { Stack } from '~/components/ui/stack'
import type { SubmissionResult } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import { PICK_TYPE_INTENT } from '~/schemas/credential-values'
import { CredentialEditor } from './__credential-editor'
import { loadCredentialEditor, saveCredentialAction } from './__credential-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, denied] = await Promise.all([
    loadFromCluster(() => loadCredentialEditor(api)),
    whyNotCreate(api, '/security/new-credential'),
  ])
  const wanted = new URL(request.url).searchParams.get('type')
  return {
    ...editor,
    denied,
    type: editor.types.some((type) => type.value === wanted) ? wanted! : '',
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  return loadFromCluster(() => saveCredentialAction(api, formData))
}

export default function NewCredentialRoute() {
  const { types, type, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        level={2}
        title="New credential"
        description={
          'Access to a cloud account, for buckets, batch jobs and auto ingest. Its secrets can be ' +
          'replaced later, never read back.'
        }
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create credentials">
        <CredentialEditor
          types={types}
          defaultValue={{ type }}
          lastResult={actionData?.result as SubmissionResult<string[]> | undefined}
          submitLabel="Create credential"
          pickTypeIntent={PICK_TYPE_INTENT}
          cancelTo="/security/credentials"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New credential · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The credential could not be created',
  back: { to: '/security/credentials', label: 'Back to the credentials' },
})
