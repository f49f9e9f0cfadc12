import { getCollectionProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Input } from '~/components/ui/input'
import { Button } from '~/components/ui/button'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form as RemixForm, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, replyFromCluster } from '~/api/policies.server'
import { listRoles, rolesNamed, type Role } from '~/api/roles.server'
import { listOnePage } from '~/api/list-all.server'
import type { ClusterApi } from '~/api/client.server'
import { addUserRoles, getUser, removeUserRoles } from '~/api/users.server'
import { ErrorList } from '~/components/forms/error-list'
import { FormCard } from '~/components/forms/form-card'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { parseOriginal } from '~/schemas/lossless'
import { UserRolesFormSchema } from '~/schemas/security'
import { roleLabel } from '~/schemas/security-values'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { settle } from '~/api/policies.server'
import { InlineAlert } from '~/components/layout/inline-alert'
import { SectionCard } from '~/components/layout/section-card'
import { loadAllowed } from './__permissions.server'
import { describeScope, loadScopeOptions, tableScopeIds } from './__scopes.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadUserRolesFormSchema = () => import('~/schemas/security').then((module) => module.UserRolesFormSchema)

export const handle: RouteHandle = {
  docsTopic: 'user',
  breadcrumb: (data: { user?: { email: string } } | undefined) => ({ userId: data?.user?.email }),
}

/** The most roles the form offers besides the user's own (issue 33: 200 roles are a search away, not a list). */
export const ROLE_CHOICES = 50

/**
 * The roles the form offers besides the user's: without a search, the first ROLE_CHOICES by name (one
 * page asked of the cluster); with one (`?role_q=`, on the name, its label or description: the cluster
 * filters roles by exact name only), the first that match, from the whole list. Throws ClusterError.
 */
async function offeredRoles(api: ClusterApi, q: string): Promise<{ roles: Role[]; hasMore: boolean }> {
  const needle = q.trim().toLowerCase()
  if (!needle) {
    const page = await listOnePage<Role>(api, '/roles/', {
      page: 1,
      pageSize: ROLE_CHOICES,
      ordering: 'name',
      sortKey: (role) => role.name,
    })
    return { roles: page.items, hasMore: page.total > page.items.length }
  }
  const found = (await listRoles(api)).filter((role) =>
    [role.name, roleLabel(role.name), role.description ?? ''].some((text) => text.toLowerCase().includes(needle)),
  )
  return { roles: found.slice(0, ROLE_CHOICES), hasMore: found.length > ROLE_CHOICES }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const q = new URL(request.url).searchParams.get('role_q')?.trim() ?? ''
  const [[user, offered], allowed] = await Promise.all([
    loadFromCluster(() => Promise.all([getUser(api, params.userId!), offeredRoles(api, q)])),
    loadAllowed(api),
  ])
  // the user's own roles, asked by name (their policies make the effective permissions; issue 33:
  // not every role of the org)
  const theirs = await loadFromCluster(() => rolesNamed(api, user.roles ?? []))
  // the scopes the user's roles name, tables found by id (issue 33: not every table of the org)
  const scopes = await settle(() =>
    loadScopeOptions(api, { search: false, tableIds: tableScopeIds(theirs.flatMap((role) => role.policies)) }),
  )
  // Effective permissions: the user's roles' policies, merged per scope.
  const byScope = new Map<string, Set<string>>()
  for (const role of theirs) {
    for (const policy of role.policies) {
      const scope = describeScope(scopes.value ?? [], policy.scope_type, policy.scope_id)
      const set = byScope.get(scope) ?? new Set<string>()
      for (const permission of policy.permissions) set.add(permission)
      byScope.set(scope, set)
    }
  }
  return {
    user: {
      uuid: user.uuid,
      email: user.email,
      status: user.status ?? 'active',
      kind: user.type === 'service_account' ? 'Service account' : 'User',
      roles: user.roles ?? [],
      isSelf: user.uuid === api.userId,
    },
    denied: allowed.editUser,
    constraint: getZodConstraint(UserRolesFormSchema),
    // the roles the form renders checked: Save adds and removes only what the operator changed (decision 074)
    original: JSON.stringify({ roles: user.roles ?? [] }),
    effective: [...byScope.entries()].map(([scope, set]) => ({ scope, permissions: [...set].sort() })),
    // the user's roles first (always on the form: Save removes only what is unchecked there), then the offered ones
    roles: [
      ...[...theirs].sort((a, b) => a.name.localeCompare(b.name)),
      ...offered.roles.filter((role) => !theirs.some((mine) => mine.name === role.name)),
    ].map((role) => ({
      name: role.name,
      description: role.description ?? '',
      builtIn: Boolean(role.built_in),
    })),
    roleSearch: { q, count: offered.roles.length, hasMore: offered.hasMore },
  }
}

/**
 * Gives the user the checked roles: the ones the operator checked are added, the ones unchecked
 * removed (two calls at most), compared with the roles the form was rendered with (its `original`)
 * so a role given or taken meanwhile by someone else stays as it is now (decision 074); back to
 * the users list with a toast. A cluster 400 comes back on the form.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: UserRolesFormSchema })
  const rendered = parseOriginal(formData.get('original'))?.roles
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const wanted = submission.value.roles
  try {
    const user = await getUser(api, params.userId!)
    const current = user.roles ?? []
    // without an original (a form from before decision 074) the checked roles are the whole list
    const shown = Array.isArray(rendered) ? rendered.map(String) : current
    const added = wanted.filter((role) => !shown.includes(role) && !current.includes(role))
    const removed = shown.filter((role) => !wanted.includes(role) && current.includes(role))
    if (added.length) await addUserRoles(api, user.uuid, added)
    if (removed.length) await removeUserRoles(api, user.uuid, removed)
    const changes = [
      added.length ? `added ${added.map(roleLabel).join(', ')}` : '',
      removed.length ? `removed ${removed.map(roleLabel).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ')
    return redirectWithToast('/security/users', {
      title: changes ? `${user.email}: ${changes}` : `${user.email}: no changes`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: { roles: 'roles' } })
  }
}

export default function EditUserRoute() {
  const { user, roles, roleSearch, denied, effective, original, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader
        level={2}
        title={`Edit ${user.email}`}
        description={`${user.kind} · ${user.status === 'pending' ? 'Invited, not signed in yet' : 'Active'}`}
        mb="0"
      />
      {denied ? (
        <InlineAlert title="You cannot change roles">{denied}: ask an org admin.</InlineAlert>
      ) : (
        <>
          <RoleSearchForm {...roleSearch} />
          <RolesForm
            roles={roles}
            current={user.roles}
            original={original}
            isSelf={user.isSelf}
            constraint={constraint}
            lastResult={actionData?.result}
          />
        </>
      )}
      <SectionCard id="effective" title="Effective permissions">
        <DetailList
          label="Roles"
          entries={[['Roles', user.roles.length ? user.roles.map(roleLabel).join(', ') : 'No roles']]}
        />
        {effective.length ? (
          <Stack gap="2" mt="3">
            {effective.map((entry) => (
              <details key={entry.scope}>
                <summary>
                  {entry.scope}: {entry.permissions.length}{' '}
                  {entry.permissions.length === 1 ? 'permission' : 'permissions'}
                </summary>
                <Text fontSize="xs" color="fg.muted" mt="1">
                  {entry.permissions.join(', ')}
                </Text>
              </details>
            ))}
          </Stack>
        ) : (
          <Text fontSize="sm" color="fg.muted" mt="2">
            No permissions: this user can sign in but sees nothing until given a role.
          </Text>
        )}
      </SectionCard>
    </Stack>
  )
}

/**
 * Finds a role to give (a GET form: works without scripts; the role chosen is then checked and
 * saved). The form offers the user's roles and the first roles by name or the ones found.
 */
function RoleSearchForm({ q, count, hasMore }: { q: string; count: number; hasMore: boolean }) {
  const status = count
    ? hasMore
      ? `Offers the first ${count} other roles${q ? ` matching “${q}”` : ' by name'}: search to find another.`
      : `Offers ${count} ${count === 1 ? 'role' : 'roles'}${q ? ` matching “${q}”` : ''}.`
    : q
      ? `No role matches “${q}”.`
      : 'No roles yet.'
  return (
    <RemixForm method="get" role="search" aria-label="Find a role">
      <HStack gap="2" align="end" wrap="wrap">
        <Box minW="16rem">
          <label htmlFor="role-search-q">Find a role</label>
          <Input
            id="role-search-q"
            type="search"
            name="role_q"
            defaultValue={q}
            placeholder="Part of a role's name or description"
            aria-describedby="role-search-status"
          />
        </Box>
        <Button type="submit" variant="outline" size="sm" h="10">
          Find
        </Button>
        <Box id="role-search-status" role="status" fontSize="xs" color="fg.muted" flexBasis="100%">
          {status}
        </Box>
      </HStack>
    </RemixForm>
  )
}

function RolesForm({
  roles,
  current,
  original,
  isSelf,
  constraint,
  lastResult,
}: {
  roles: { name: string; description: string; builtIn: boolean }[]
  current: string[]
  original: string
  isSelf: boolean
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
}) {
  const [form, fields] = useLazySchemaForm(loadUserRolesFormSchema, {
    id: 'user-roles',
    constraint,
    lastResult,
    defaultValue: { roles: current },
  })
  const boxes = getCollectionProps(fields.roles, { type: 'checkbox', options: roles.map((role) => role.name) })
  return (
    <FormCard form={form} submit={{ label: 'Save roles' }} cancelTo="/security/users">
      <input type="hidden" name="original" value={original} />
      <chakra.fieldset mb="4" aria-describedby={fields.roles.errorId}>
        <chakra.legend fontWeight="medium" fontSize="sm" mb="2">
          Roles
        </chakra.legend>
        {isSelf ? (
          <Text fontSize="sm" color="fg.muted" mb="2">
            These are your own roles: removing Org admin takes Security away from you.
          </Text>
        ) : null}
        <Stack gap="2">
          {boxes.map((props, index) => {
            const role = roles[index]!
            return (
              <Box key={props.key}>
                <chakra.label display="inline-flex" alignItems="center" gap="2" fontSize="sm" cursor="pointer">
                  <input {...props} key={props.key} />
                  {roleLabel(role.name)}
                  {role.builtIn ? (
                    <Text as="span" color="fg.muted">
                      (built-in)
                    </Text>
                  ) : null}
                </chakra.label>
                {role.description ? (
                  <Text fontSize="xs" color="fg.muted" ms="6">
                    {role.description}
                  </Text>
                ) : null}
              </Box>
            )
          })}
        </Stack>
        <ErrorList id={fields.roles.errorId} errors={fields.roles.errors} />
      </chakra.fieldset>
    </FormCard>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.email ?? 'User'} · Users · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The user could not be shown',
  level: 2,
  back: { to: '/security/users', label: 'Back to the users' },
})
