import { oncePerRequest, type ClusterApi } from './client.server'

/** A user as the cluster returns it (cluster-api.md, users). */
export type CurrentUser = {
  uuid: string
  email: string
  roles?: string[]
  scope?: unknown
  permissions?: unknown
  [key: string]: unknown
}

/** Returns the signed-in user (GET /users/{userId}), read once per request; throws ClusterError. */
export const getCurrentUser = oncePerRequest((api) => api.get<CurrentUser>(`/users/${api.userId}`))

export type PasswordChange = { current_password: string; new_password: string; confirm_password: string }

/** Changes the signed-in user's password; throws ClusterError (400 with field errors). */
export async function changePassword(api: ClusterApi, change: PasswordChange): Promise<void> {
  await api.put('/change_password', change)
}
