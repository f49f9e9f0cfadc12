import type { ClusterApi } from '~/api/client.server'
import { whyNotEach } from '~/api/access.server'

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
 * Per action, why it is not offered ("Needs delete_user"); the people actions are org-wide, so a
 * grant anywhere counts. When the permissions cannot be read, everything is offered and the cluster
 * has the last word (its 403 becomes a toast or the page's message).
 */
export function loadAllowed(api: ClusterApi): Promise<Allowed> {
  return whyNotEach(api, PEOPLE_ACTIONS, 'anywhere')
}
