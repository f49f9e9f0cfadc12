import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { roleLabel } from '~/schemas/security'
import type { RouteHandle } from '~/utils/handle'
import { RoleEditor } from './__role-editor'
import { loadRoleEditor, roleEditorAction } from './__role-editor.server'
import { describeScope } from './__scopes.server'
import { loadAllowed } from './__permissions.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  docsTopic: 'role',
  breadcrumb: (data: { role?: { name: string } | null } | undefined) => ({ roleId: data?.role?.name }),
}

/** Why a built-in role has no form (the cluster refuses to change one). */
export const BUILT_IN_NOTE = 'Built-in roles cannot be changed; create a custom role instead.'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, allowed] = await Promise.all([
    loadFromCluster(() => loadRoleEditor(api, params.roleId!)),
    loadAllowed(api),
  ])
  const reason = editor.role?.builtIn
    ? BUILT_IN_NOTE
    : allowed.changeRole
      ? `You cannot change roles: ${allowed.changeRole}.`
      : null
  return {
    ...editor,
    // a built-in role is shown, not edited: its policies as text
    reason,
    readOnly: reason
      ? editor.saved.map((policy) => ({
          scope: describeScope(editor.scopes, policy.scope_type, policy.scope_id),
          count: policy.permissions.length,
        }))
      : null,
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return loadFromCluster(async () => roleEditorAction(api, await request.formData(), params.roleId!))
}

export default function EditRoleRoute() {
  const { draft, saved, original, scopes, scopeSearch, catalogue, role, readOnly, reason } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const staging = actionData && 'draft' in actionData ? actionData : null
  const revision = actionData?.revision ?? 'loaded'
  const title = `Edit role ${roleLabel(role!.name)}`
  if (readOnly) {
    return (
      <Stack gap="4" maxW="4xl">
        <PageHeader level={2} title={title} description={reason} mb="0" />
        <SectionCard id="policies" title="Policies">
          <DetailList entries={readOnly.map((policy) => [policy.scope, `${policy.count} permissions`])} />
          <Text fontSize="sm" color="fg.muted" mt="2">
            {role!.users} {role!.users === 1 ? 'user has' : 'users have'} this role.
          </Text>
        </SectionCard>
      </Stack>
    )
  }
  return (
    <Stack gap="4" maxW="4xl">
      <PageHeader
        level={2}
        title={title}
        description={`${role!.users} ${role!.users === 1 ? 'user has' : 'users have'} this role: saved changes apply to them at once.`}
        mb="0"
      />
      <Box>
        <RoleEditor
          key={revision}
          draft={staging?.draft ?? draft}
          saved={saved}
          original={actionData && 'original' in actionData ? actionData.original : original}
          scopes={actionData && 'scopes' in actionData ? actionData.scopes : scopes}
          scopeSearch={actionData && 'scopeSearch' in actionData ? actionData.scopeSearch : scopeSearch}
          catalogue={catalogue}
          revision={revision}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          note={staging?.note}
          submitLabel="Save role"
          cancelTo="/security/roles"
        />
      </Box>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.role?.name ?? 'Role'} · Roles · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The role could not be shown',
  level: 2,
  back: { to: '/security/roles', label: 'Back to the roles' },
})
