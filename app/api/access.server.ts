import { ADD_NEW_ENTRIES } from '~/components/layout/nav-config'
import { oncePerRequest, type ClusterApi } from './client.server'
import { settle } from './policies.server'
import { cachedRead } from './read-cache.server'
import { rolesNamed, type Policy } from './roles.server'
import { getMyPermissions, getMyRoleNames } from './users.server'

/** Where an action applies, as the page knows it: names for the reason, ids for the policies. */
export type AccessScope = {
  project?: { uuid: string; name: string } | null
  table?: { uuid: string; name: string } | null
}

/**
 * The policies of the signed-in user's roles, read once per request and only when a scope is to be
 * checked (the caller knows the user holds `view_role`; without it `roles/` answers 403). The roles
 * are read once per request, as the user's permissions are (decisions 035, 060).
 */
const getMyPolicies = oncePerRequest(async (api) => {
  const roleNames = await getMyRoleNames(api)
  // super_admin is the cluster's built-in role (a role's name is unique, so no custom role has it):
  // it holds every permission everywhere, and its holder's pages need no read of roles to know it
  if (roleNames.includes('super_admin')) return { superAdmin: true, policies: [] }
  const mine = await cachedRead(api, `my-roles:${roleNames.join(',')}`, () => rolesNamed(api, roleNames))
  return {
    superAdmin: mine.some((role) => role.name === 'super_admin' && role.built_in),
    policies: mine.flatMap((role) => role.policies),
  }
})

function covers(policy: Policy, scope: AccessScope): boolean {
  if (!policy.scope_type || policy.scope_type === 'org') return true
  if (policy.scope_type === 'project') return !!scope.project && scope.project.uuid === policy.scope_id
  if (policy.scope_type === 'table') return !!scope.table && scope.table.uuid === policy.scope_id
  return false
}

function scopeText(scope: AccessScope): string {
  if (scope.table) return ` on table ${scope.project ? `${scope.project.name}.` : ''}${scope.table.name}`
  if (scope.project) return ` on project ${scope.project.name}`
  return ''
}

/**
 * Why the signed-in user may not do what needs `permission` (any one of a list) in `scope`: null
 * when they may (or when their permissions cannot be read: the cluster then has the last word), else
 * the reason shown beside the disabled control: "Needs delete_table on table sample.logs". The
 * scope is checked against the user's policies when they may read roles (a grant on another project
 * does not count); otherwise against the flat list of `users/current`, which does not say scopes.
 * `'anywhere'` (a list of items in many scopes, or an org-wide action): null when the user holds it
 * in some scope; the policies are not read.
 */
export async function whyNot(
  api: ClusterApi,
  permission: string | readonly string[],
  scope: AccessScope | 'anywhere' = {},
): Promise<string | null> {
  const wanted = typeof permission === 'string' ? [permission] : permission
  const { value: held } = await settle(() => getMyPermissions(api))
  if (!held) return null
  const reason = `Needs ${wanted.join(' or ')}${scope === 'anywhere' ? '' : scopeText(scope)}`
  if (!wanted.some((p) => held.includes(p))) return reason
  if (scope === 'anywhere' || !held.includes('view_role')) return null
  const { value: mine } = await settle(() => getMyPolicies(api))
  if (!mine || mine.superAdmin) return null
  return mine.policies.some((policy) => covers(policy, scope) && wanted.some((p) => policy.permissions.includes(p)))
    ? null
    : reason
}

/** `whyNot` for several controls of one page at once: `{ deleteTable: null, truncate: 'Needs …' }`. */
export async function whyNotEach<K extends string>(
  api: ClusterApi,
  checks: Record<K, string | readonly string[]>,
  scope: AccessScope | 'anywhere' = {},
): Promise<Record<K, string | null>> {
  const keys = Object.keys(checks) as K[]
  const reasons = await Promise.all(keys.map((key) => whyNot(api, checks[key], scope)))
  return Object.fromEntries(keys.map((key, i) => [key, reasons[i]])) as Record<K, string | null>
}

/** A creation page's path, as the creation menu lists it (nav-config `ADD_NEW_ENTRIES`). */
export type CreationPath = (typeof ADD_NEW_ENTRIES)[number]['to']

/**
 * Why the signed-in user may not use the creation page at `path` (opened by its URL, the menu hides
 * it): null when they may, else "Needs add_table". The permissions are the menu's own (`needs`), held
 * anywhere; the page shows `CreationGate` with the reason instead of a form the cluster would refuse.
 */
export function whyNotCreate(api: ClusterApi, path: CreationPath): Promise<string | null> {
  const entry = ADD_NEW_ENTRIES.find((candidate) => candidate.to === path)!
  return whyNot(api, entry.needs, 'anywhere')
}
