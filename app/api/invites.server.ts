import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** An invite as the cluster returns it (cluster-api.md 8.2). */
export type Invite = {
  id: number
  email: string
  roles: string[]
  status?: 'pending' | 'accepted' | string
  scope_type?: string | null
  scope_id?: string | null
  invited_by?: string
  sent?: string
  sent_count?: number
  created?: string
}

export type NewInvite = { email: string; roles: string[]; scopeType: string; scopeId: string }

/** Returns the invites not yet accepted, oldest first; throws ClusterError. */
export function listPendingInvites(api: ClusterApi): Promise<Invite[]> {
  return listAll<Invite>(api, '/invites/?pending_only=true')
}

/** Invites a user to the org with the given roles, scope and resource; throws ClusterError (400 with field errors). */
export function createInvite(api: ClusterApi, invite: NewInvite): Promise<Invite> {
  return api.post<Invite>('/invites/', {
    email: invite.email,
    org: api.orgId,
    roles: invite.roles,
    scope_type: invite.scopeType,
    scope_id: invite.scopeId,
  })
}

/** Sends the invite's link again; throws ClusterError (400 when it was already accepted). */
export async function resendInvite(api: ClusterApi, inviteId: number | string): Promise<void> {
  await api.post(`/invites/${encodeURIComponent(String(inviteId))}/resend_invite/`)
}

/** Deletes an invite (and the pending user it made); throws ClusterError. */
export async function deleteInvite(api: ClusterApi, inviteId: number | string): Promise<void> {
  await api.del(`/invites/${encodeURIComponent(String(inviteId))}`)
}
