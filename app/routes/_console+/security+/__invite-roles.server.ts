import type { ClusterApi } from '~/api/client.server'
import { listOnePage } from '~/api/list-all.server'
import { noneWhenDenied } from '~/api/policies.server'
import { rolesNamed, type Role } from '~/api/roles.server'
import { INVITE_ROLES, roleLabel } from '~/schemas/security-values'

/** A role the invite form offers: the name the cluster takes, and how people read it. */
export type InviteRoleOption = { value: string; label: string }

/** Roles never offered: `super_admin` is every permission on every org, not a role of this one. */
const NOT_OFFERED = new Set(['super_admin'])

/**
 * The org's roles the form lists after the four: one page, by name. Roles carry their policies, so
 * every role of an org of 200 took the invite page from 36 to 77 KB and 1.6 times the time
 * (`npm run bench scale`, issue 33's goal is 1.5): one page of 50 keeps it near the seeded org's.
 */
export const ROLES_LISTED = 50

/**
 * The roles an invite can carry (issue 54, point 5; decision 098): the spec's four invitable roles
 * first, in its order, then the org's other roles, built-in and custom, by name (the first
 * ROLES_LISTED; `more` says how many are not listed). A user who may not list roles (403) is offered
 * the four. Throws ClusterError otherwise.
 */
export async function loadInviteRoles(api: ClusterApi): Promise<{ options: InviteRoleOption[]; more: number }> {
  const page = await noneWhenDenied(
    () =>
      listOnePage<Role>(api, '/roles/', {
        page: 1,
        pageSize: ROLES_LISTED,
        ordering: 'name',
        sortKey: (role) => role.name,
      }),
    { items: [], page: 1, pageCount: 1, total: 0 },
  )
  const invitable = INVITE_ROLES.map((role) => ({ value: role.value, label: role.label }))
  const first = new Set<string>(invitable.map((role) => role.value))
  const others = page.items
    .filter((role) => !first.has(role.name) && !NOT_OFFERED.has(role.name))
    .map((role) => ({ value: role.name, label: roleLabel(role.name) }))
  return { options: [...invitable, ...others], more: Math.max(0, page.total - page.items.length) }
}

/** Whether an invite may carry the role `name`: one of the four, or a role of the org's (asked by name). */
export async function isInvitableRole(api: ClusterApi, name: string): Promise<boolean> {
  if (!name || NOT_OFFERED.has(name)) return false
  if (INVITE_ROLES.some((role) => role.value === name)) return true
  const found = await noneWhenDenied(() => rolesNamed(api, [name]), [])
  return found.some((role) => role.name === name)
}
