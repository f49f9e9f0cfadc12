import type { ClusterRouter, ClusterState } from '../context'
import { registerAccountRoutes } from './accounts'
import { bootstrap as bootstrapCluster, type BootstrapResult } from './bootstrap'

export type { User } from './access'
export { authorize, requireUser } from './access'
export { audit } from './audit'

/** Registers every `/config/v1` route (and `/version`). Owned by the config API work. */
export function registerConfigRoutes(router: ClusterRouter, cluster: ClusterState): void {
  void cluster
  registerAccountRoutes(router)
}

/**
 * First start: creates the org, the built-in roles and the admin (email/password from options,
 * otherwise generated and kept in `${dataDir}/admin.json`). Later starts: reads them back.
 */
export async function bootstrap(cluster: ClusterState): Promise<BootstrapResult> {
  return bootstrapCluster(cluster)
}
