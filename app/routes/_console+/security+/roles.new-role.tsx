import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import { RoleEditor } from './__role-editor'
import { loadRoleEditor, roleEditorAction } from './__role-editor.server'
import { loadAllowed } from './__permissions.server'
import { CreationGate } from '~/components/layout/creation-gate'
import type { RouteHandle } from '~/utils/handle'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'role' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, allowed] = await Promise.all([loadFromCluster(() => loadRoleEditor(api)), loadAllowed(api)])
  return { ...editor, denied: allowed.addRole }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return loadFromCluster(async () => roleEditorAction(api, await request.formData()))
}

export default function NewRoleRoute() {
  const { draft, saved, scopes, scopeSearch, catalogue, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const staging = actionData && 'draft' in actionData ? actionData : null
  const revision = actionData?.revision ?? 'new'
  return (
    <Stack gap="4" maxW="4xl">
      <PageHeader
        level={2}
        title="New role"
        description="A role is a set of policies: permissions in a scope. Give it to users on their Edit page."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create roles">
        <RoleEditor
          key={revision}
          draft={staging?.draft ?? draft}
          saved={saved}
          scopes={actionData && 'scopes' in actionData ? actionData.scopes : scopes}
          scopeSearch={actionData && 'scopeSearch' in actionData ? actionData.scopeSearch : scopeSearch}
          catalogue={catalogue}
          revision={revision}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          note={staging?.note}
          submitLabel="Create role"
          cancelTo="/security/roles"
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New role · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The role could not be created',
  level: 2,
  back: { to: '/security/roles', label: 'Back to the roles' },
})
