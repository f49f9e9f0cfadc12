import type { ClusterRouter, ClusterState } from '../context'

/** Registers every `/config/v1` route (and `/version`). Owned by the config API work. */
export function registerConfigRoutes(router: ClusterRouter, cluster: ClusterState): void {
  void router
  void cluster
}

/**
 * First start: creates the org, the built-in roles and the admin (email/password from options,
 * otherwise generated and kept in `${dataDir}/admin.json`). Later starts: reads them back.
 */
export async function bootstrap(cluster: ClusterState): Promise<{ orgId: string; admin: { email: string; password: string }; adminId: string; isFirstStart: boolean }> {
  void cluster
  return { orgId: '', admin: { email: '', password: '' }, adminId: '', isFirstStart: false }
}
