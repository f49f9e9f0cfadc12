import type { ClusterApi } from '~/api/client.server'
import { settle } from '~/api/policies.server'
import { getMyPermissions } from '~/api/users.server'

/** What the Security people pages offer, and the permission each needs (the cluster's names). */
export const PEOPLE_ACTIONS = {
  inviteUser: 'add_invite',
  resendInvite: 'change_invite',
  deleteInvite: 'delete_invite',
  editUser: 'change_user',
  deleteUser: 'delete_user',
  addRole: 'add_role',
  changeRole: 'change_role',
} as const
export type PeopleAction = keyof typeof PEOPLE_ACTIONS

/** Per action: null when the user may do it, else the reason shown next to the disabled control. */
export type Allowed = Record<PeopleAction, string | null>

/**
 * Reads the signed-in user's permissions once per request and says, per action, why it is not
 * offered ("Needs delete_user"). When the permissions cannot be read, everything is offered and the
 * cluster has the last word (its 403 becomes a toast or the page's message).
 */
export async function loadAllowed(api: ClusterApi): Promise<Allowed> {
  const { value: permissions } = await settle(() => getMyPermissions(api))
  const entries = Object.entries(PEOPLE_ACTIONS).map(([action, permission]) => [
    action,
    !permissions || permissions.includes(permission) ? null : `Needs ${permission}`,
  ])
  return Object.fromEntries(entries) as Allowed
}
