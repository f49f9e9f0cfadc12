import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

export type ServiceAccount = { uuid: string; name: string }
export type IssuedToken = { token: string; expiry?: string }

/** Returns every service account the user may see; throws ClusterError. */
export function listServiceAccounts(api: ClusterApi): Promise<ServiceAccount[]> {
  return listAll<ServiceAccount>(api, '/service_accounts/')
}

/** Returns one service account; throws ClusterError (404 when there is none). */
export function getServiceAccount(api: ClusterApi, accountId: string): Promise<ServiceAccount> {
  return api.get<ServiceAccount>(`/service_accounts/${encodeURIComponent(accountId)}`)
}

/** Creates a service account and returns it; throws ClusterError (400 with field errors). */
export function createServiceAccount(api: ClusterApi, name: string): Promise<ServiceAccount> {
  return api.post<ServiceAccount>('/service_accounts/', { name })
}

/** Issues a token for a service account (shown once: the cluster never returns it again); throws ClusterError. */
export function createServiceAccountToken(api: ClusterApi, accountId: string, expiry?: Date): Promise<IssuedToken> {
  return api.post<IssuedToken>(
    `/service_accounts/${encodeURIComponent(accountId)}/tokens/`,
    expiry ? { expiry: expiry.toISOString() } : {},
  )
}
