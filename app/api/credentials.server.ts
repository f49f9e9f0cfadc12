import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** A credential as the cluster lists it (its secrets are never read back). */
export type Credential = { uuid: string; name: string; type?: string; description?: string | null }

/** Returns every credential of the active org, sorted by name; throws ClusterError (403 for a user who may not see them). */
export async function listCredentials(api: ClusterApi): Promise<Credential[]> {
  const credentials = await listAll<Credential>(api, `/orgs/${api.orgId}/credentials/`)
  return credentials.sort((a, b) => a.name.localeCompare(b.name))
}
