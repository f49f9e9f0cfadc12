import type { ClusterRouter, ClusterState } from '../context'
import { registerAccountRoutes } from './accounts'
import { bootstrap as bootstrapCluster, type BootstrapResult } from './bootstrap'
import { registerOrgRoutes } from './orgs'
import { registerProjects } from './projects'
import { registerTables } from './tables'
import { registerColumns, registerRowPolicies, registerTransforms, registerViews } from './transforms'
import { registerSources } from './sources'
import { registerDictionaries, registerFunctions } from './dictionaries'
import { registerPools } from './pools'
import { registerCredentials, registerStorages } from './storages'
import { registerPeople } from './people'

export type { User } from './access'
export { authorize, can, canSomewhere, requireUser } from './access'
export { audit } from './audit'

/**
 * Registers every `/config/v1` route (and `/version`). Order matters where a fixed segment and an
 * `:id` share a place (`users/current` before `users/:id`): each module registers its fixed paths first.
 */
export function registerConfigRoutes(router: ClusterRouter, cluster: ClusterState): void {
  void cluster
  registerAccountRoutes(router)
  registerOrgRoutes(router)
  registerProjects(router)
  registerTables(router)
  registerTransforms(router)
  registerViews(router)
  registerColumns(router)
  registerRowPolicies(router)
  registerSources(router)
  registerDictionaries(router)
  registerFunctions(router)
  registerPools(router)
  registerStorages(router)
  registerCredentials(router)
  registerPeople(router)
}

/**
 * First start: creates the org, the built-in roles and the admin (email/password from options,
 * otherwise generated and kept in `${dataDir}/admin.json`). Later starts: reads them back.
 */
export async function bootstrap(cluster: ClusterState): Promise<BootstrapResult> {
  return bootstrapCluster(cluster)
}
