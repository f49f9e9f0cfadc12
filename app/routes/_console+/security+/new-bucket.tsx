import { whyNotCreate } from '~/api/access.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { Stack } from '~/components/ui/stack'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { PageHeader } from '~/components/layout/page-header'
import { BucketEditor } from './__bucket-editor'
import { loadBucketEditor, saveBucketAction } from './__bucket-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, denied] = await Promise.all([loadBucketEditor(api), whyNotCreate(api, '/security/new-bucket')])
  return { ...editor, denied }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return saveBucketAction(api, await request.formData())
}

export default function NewBucketRoute() {
  const { credentials, credentialsError, constraint, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        level={2}
        title="New bucket"
        description="A bucket in a cloud's object store where tables keep their data."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create buckets">
        <BucketEditor
          credentials={credentials}
          credentialsError={credentialsError}
          constraint={constraint}
          lastResult={actionData?.result}
          submitLabel="Create bucket"
          cancelTo="/security/buckets"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New bucket · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The bucket could not be created',
  back: { to: '/security/buckets', label: 'Back to the buckets' },
})
