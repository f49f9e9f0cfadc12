import { registerCache } from '~/utils/caches.server'
import { oncePerRequest, type ClusterApi, type Revalidated } from './client.server'
import { listAll } from './list-all.server'
import { setGenerationSource } from './generation-kept.server'
import { cachedRead } from './read-cache.server'

/** A user as the cluster returns it (cluster-api.md, users). */
export type CurrentUser = {
  uuid: string
  email: string
  roles?: string[]
  scope?: unknown
  permissions?: unknown
  [key: string]: unknown
}

/**
 * Returns the signed-in user (GET /users/current: the user with their roles and permissions), read
 * once per console request; throws ClusterError.
 */
// The shell reads the user and their permissions on every page (the layout loader), and pages ask
// for the permissions again (whyNot): one answer serves them all, read once per console request, the
// layout's and the page's loaders together (decision 102; decision 060: a role changed through
// another replica shows on the next page). Menus only hide what the cluster refuses anyway.
export const getCurrentUser = oncePerRequest((api) => getMe(api))

export type PasswordChange = { current_password: string; new_password: string; confirm_password: string }

/** A login token as the cluster answers it (login, and the local cluster's change_password). */
export type AuthToken = { access_token: string; expires_in: number }

/**
 * Changes the signed-in user's password; throws ClusterError (400 with field errors). Answers the
 * new token the cluster gives with the change (the local cluster ends every session of the user,
 * this one's too, and answers a new one: issue 49), or null when it gives none (a real cluster).
 */
export async function changePassword(api: ClusterApi, change: PasswordChange): Promise<AuthToken | null> {
  const answer = await api.put<{ auth_token?: Partial<AuthToken> } | null>('/change_password', change)
  const token = answer?.auth_token
  return typeof token?.access_token === 'string' && Number(token.expires_in) > 0
    ? { access_token: token.access_token, expires_in: Number(token.expires_in) }
    : null
}

/** A user in the org's list (cluster-api.md 8.1); service accounts and invited users are listed too. */
export type User = {
  uuid: string
  email: string
  name?: string
  roles: string[]
  type?: 'user' | 'service_account' | string
  is_service_account?: boolean
  status?: 'active' | 'pending' | string
  created?: string
  modified?: string
}

/** Returns every user of the org (service accounts and invited users included); throws ClusterError. */
export function listUsers(api: ClusterApi): Promise<User[]> {
  return listAll<User>(api, '/users/')
}

/** Returns one user; throws ClusterError (404 when there is none). */
export function getUser(api: ClusterApi, userId: string): Promise<User> {
  return api.get<User>(`/users/${encodeURIComponent(userId)}`)
}

/** Deletes a user (the cluster refuses the signed-in user's own account); throws ClusterError. */
export async function deleteUser(api: ClusterApi, userId: string): Promise<void> {
  await api.del(`/users/${encodeURIComponent(userId)}`)
}

/** Gives a user the named roles; throws ClusterError (400 for an unknown role). */
export function addUserRoles(api: ClusterApi, userId: string, roles: string[]): Promise<User> {
  return api.post<User>(`/users/${encodeURIComponent(userId)}/add_roles/`, { roles })
}

/** Takes the named roles from a user; throws ClusterError. */
export function removeUserRoles(api: ClusterApi, userId: string, roles: string[]): Promise<User> {
  return api.post<User>(`/users/${encodeURIComponent(userId)}/remove_roles/`, { roles })
}

/**
 * The signed-in user's permissions (`GET users/current`: a flat list, scopes not said), read once per
 * request; throws ClusterError. Pages use it to show what the user may not do, and why.
 */
export const getMyPermissions = oncePerRequest(async (api) => strings((await getMe(api)).permissions))

/** The names of the signed-in user's roles (`users/current`), read once per request; throws ClusterError. */
export const getMyRoleNames = oncePerRequest(async (api) => strings((await getMe(api)).roles))

/**
 * The last `users/current` answer of each session with its ETag (decision 102): every request still
 * asks the cluster, with If-None-Match, and a 304 (nothing the answer reads changed) reuses it, so no
 * page shows it older than the request. Per session, since it is the user's own; a cluster that
 * answers no ETag has nothing kept. Bounded: the oldest out.
 */
const lastMe = new Map<string, Revalidated<CurrentUser>>()
export const MAX_KEPT_USERS = 10_000

registerCache({
  name: 'current-user-revalidated',
  file: 'app/api/users.server.ts',
  variable: 'lastMe',
  holds: "the session's last users/current answer and its ETag, reused only on the cluster's 304",
  key: 'session (org, token digest)',
  lifetime: 'until replaced by a newer answer; every use is revalidated with the cluster first',
  bound: `${MAX_KEPT_USERS} sessions, the oldest out`,
  forgottenBy: 'a newer answer, or being the oldest when full',
  writesChangeIt: false,
  size: () => lastMe.size,
})

/**
 * This request's `users/current` answer (once per console request, shared by its loaders, and read
 * again after a write in it: read-cache's per-request reads), with the configuration generation the
 * cluster named with it (decision 113).
 */
const readMe = (api: ClusterApi) =>
  cachedRead(api, 'users/current', async () => {
    const answer = await api.revalidate<CurrentUser>('/users/current', lastMe.get(api.sessionKey))
    lastMe.delete(api.sessionKey)
    if (answer.etag) {
      if (lastMe.size >= MAX_KEPT_USERS) lastMe.delete(lastMe.keys().next().value!)
      lastMe.set(api.sessionKey, answer)
    }
    return answer
  })
const getMe = oncePerRequest(async (api) => (await readMe(api)).value)
setGenerationSource(async (api) => (await readMe(api)).generation)
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : []
