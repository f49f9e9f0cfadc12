import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** A custom SQL function as the cluster returns it (cluster-api.md, functions). */
export type SqlFunction = { uuid?: string; name: string; sql?: string; description?: string | null }

/** Returns every function of a project, sorted by name; throws ClusterError. */
export async function listFunctions(api: ClusterApi, projectId: string): Promise<SqlFunction[]> {
  const functions = await listAll<SqlFunction>(api, `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/functions/`)
  return functions.sort((a, b) => a.name.localeCompare(b.name))
}
