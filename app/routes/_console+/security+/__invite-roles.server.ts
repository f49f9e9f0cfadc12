import type { ClusterApi } from '~/api/client.server'
import { noneWhenDenied } from '~/api/policies.server'
import { listRoles } from '~/api/roles.server'
import { INVITE_ROLES, roleLabel } from '~/schemas/security-values'

/** A role the invite form offers: the name the cluster takes, and how people read it. */
export type InviteRoleOption = { value: string; label: string }

/** Roles never offered: `super_admin` is every permission on every org, not a role of this one. */
const NOT_OFFERED = new Set(['super_admin'])

/**
 * The roles an invite can carry (issue 54, point 5; decision 098): the spec's four invitable roles
 * first, in its order, then the org's other roles, built-in and custom, by name. A user who may not
 * list roles (403) is offered the four. Throws ClusterError otherwise.
 */
export async function loadInviteRoles(api: ClusterApi): Promise<InviteRoleOption[]> {
  const roles = await noneWhenDenied(() => listRoles(api), [])
  const invitable = INVITE_ROLES.map((role) => ({ value: role.value, label: role.label }))
  const first = new Set<string>(invitable.map((role) => role.value))
  const others = roles
    .filter((role) => !first.has(role.name) && !NOT_OFFERED.has(role.name))
    .map((role) => ({ value: role.name, label: roleLabel(role.name) }))
  return [...invitable, ...others]
}
