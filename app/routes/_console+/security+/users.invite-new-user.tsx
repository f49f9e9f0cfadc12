import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Stack } from '~/components/ui/stack'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { createInvite } from '~/api/invites.server'
import { loadFromCluster, replyFromCluster } from '~/api/policies.server'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { PageHeader } from '~/components/layout/page-header'
import { InviteFormSchema } from '~/schemas/security'
import { SCOPE_LEVELS } from '~/schemas/security-values'
import { isInvitableRole, loadInviteRoles, ROLES_LISTED } from './__invite-roles.server'
import { redirectWithToast } from '~/utils/toast.server'
import { ScopeFields } from './__scope-fields'
import { isScope, loadScopes } from './__scopes.server'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { loadAllowed } from './__permissions.server'
import { CreationGate } from '~/components/layout/creation-gate'
import type { RouteHandle } from '~/utils/handle'
import { routeErrorBoundary } from '~/components/layout/route-error'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadInviteFormSchema = () => import('~/schemas/security').then((module) => module.InviteFormSchema)

export const handle: RouteHandle = { docsTopic: 'user' }

/** Where the cluster's invite fields show on the form. */
const INVITE_FIELDS: Record<string, string> = {
  email: 'email',
  roles: 'role',
  scope_type: 'scopeLevel',
  scope_id: 'resource',
  org: 'resource',
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  // the org, its projects and the tables `?scope_q=` finds (issue 33: never every table of the org)
  const q = new URL(request.url).searchParams.get('scope_q') ?? ''
  const [{ options: scopes, search }, allowed, { options: roles, more: moreRoles }] = await Promise.all([
    loadFromCluster(() => loadScopes(api, { q })),
    loadAllowed(api),
    loadFromCluster(() => loadInviteRoles(api)),
  ])
  return {
    scopes,
    search,
    roles,
    // the roles not listed (an org of more than ROLES_LISTED): said under the select
    rolesNote:
      moreRoles > 0 ? `The org's first ${ROLES_LISTED} roles by name are listed (${moreRoles} more are not).` : null,
    denied: allowed.inviteUser,
    constraint: getZodConstraint(InviteFormSchema),
  }
}

/** Sends the invite (the cluster mails the link) and goes to Pending Invites with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  // the resource is asked of the cluster by id (a table through its project), not looked for among every table
  const levelAsked = formData.get('scopeLevel')
  const scopeId = formData.get('resource')
  const roleAsked = formData.get('role')
  const [known, roleIsKnown] = await Promise.all([
    loadFromCluster(() =>
      isScope(api, typeof levelAsked === 'string' ? levelAsked : '', typeof scopeId === 'string' ? scopeId : null),
    ),
    loadFromCluster(() => isInvitableRole(api, typeof roleAsked === 'string' ? roleAsked : '')),
  ])
  const submission = parseWithZod(formData, {
    schema: InviteFormSchema.superRefine((value, ctx) => {
      if (!roleIsKnown)
        ctx.addIssue({ code: 'custom', path: ['role'], message: 'Role must be one of the roles offered' })
      if (!known) {
        const level = SCOPE_LEVELS.find((l) => l.value === value.scopeLevel)?.label.toLowerCase()
        ctx.addIssue({
          code: 'custom',
          path: ['resource'],
          message: `Resource must be ${level === 'organization' ? 'the organization' : `a ${level}`} (the scope chosen)`,
        })
      }
    }),
  })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { email, role, scopeLevel, resource } = submission.value
  try {
    await createInvite(api, {
      email,
      roles: [role],
      scopeType: scopeLevel,
      scopeId: resource,
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: INVITE_FIELDS })
  }
  return redirectWithToast('/security/pending-invites', {
    title: `Invite sent to ${email}`,
    type: 'success',
  })
}

export default function InviteUserRoute() {
  const { scopes, search, roles, rolesNote, denied, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadInviteFormSchema, {
    constraint,
    id: 'invite-user',
    lastResult: actionData?.result,
    defaultValue: {
      scopeLevel: 'org',
      resource: scopes.find((scope) => scope.level === 'org')?.value,
    },
  })
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        level={2}
        title="Invite user"
        description="They get an email with a link to set their password; until then the invite is pending."
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot invite users">
        {/* a table scope is found first (a GET search before the form): the form offers what it finds */}
        <TableSearchForm search={search} qName="scope_q" idPrefix="scope-search" />
        <FormCard form={form} submit={{ label: 'Send invite' }} cancelTo="/security/users">
          <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'off' }} />
          <SelectField
            meta={fields.role}
            label="Role"
            options={roles}
            placeholder="Select a role"
            help={rolesNote ?? undefined}
          />
          <ScopeFields level={fields.scopeLevel} resource={fields.resource} options={scopes} />
        </FormCard>
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Invite user · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The invite could not be sent',
  level: 2,
  back: { to: '/security/users', label: 'Back to the users' },
})
