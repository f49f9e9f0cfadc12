import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** A pool's deployment as the cluster keeps it (cluster-api.md 7): quantities are strings or numbers. */
export type PoolDeployment = {
  service?: string
  replicas?: string | number
  cpu?: string | number
  memory?: string | number
  storage?: string | number
  shards?: number
  [key: string]: unknown
}

/** A resource pool as the cluster returns it (`/config/v1/pools/`, not org-scoped). */
export type Pool = {
  uuid: string
  name: string
  description?: string | null
  type?: string | null
  created?: string
  modified?: string
  settings?: {
    k8s_deployment?: PoolDeployment
    is_default?: boolean
    table?: string | null
    transform?: string | null
    [key: string]: unknown
  }
}

/** What the console sends for a new pool; sizes left out take the cluster's defaults. */
export type NewPool = {
  name: string
  description?: string
  type: string
  service: string
  table?: string
  transform?: string
  replicas?: string
  cpu?: string
  memory?: string
  storage?: string
  shards?: number
  isDefault?: boolean
}

/** What an edit changes: everything but the name, type, service, table and transform. */
export type PoolChanges = Omit<NewPool, 'name' | 'type' | 'service' | 'table' | 'transform'>

const POOLS_PATH = '/pools/'
const poolPath = (poolId: string) => `${POOLS_PATH}${encodeURIComponent(poolId)}`

/** Returns every pool the user may see, sorted by name; throws ClusterError. */
export async function listPools(api: ClusterApi): Promise<Pool[]> {
  const pools = await listAll<Pool>(api, POOLS_PATH)
  return pools.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one pool; throws ClusterError (404 when there is none). */
export function getPool(api: ClusterApi, poolId: string): Promise<Pool> {
  return api.get<Pool>(poolPath(poolId))
}

function deployment(pool: PoolChanges): PoolDeployment {
  const out: PoolDeployment = {}
  if (pool.replicas !== undefined) out.replicas = pool.replicas
  if (pool.cpu !== undefined) out.cpu = pool.cpu
  if (pool.memory !== undefined) out.memory = pool.memory
  if (pool.storage !== undefined) out.storage = pool.storage
  if (pool.shards !== undefined) out.shards = pool.shards
  return out
}

/** The create body: quantities as strings, as the cluster's own clients send them. */
export function poolBody(pool: NewPool): Record<string, unknown> {
  return {
    name: pool.name,
    description: pool.description ?? '',
    type: pool.type,
    settings: {
      k8s_deployment: { service: pool.service, ...deployment(pool) },
      is_default: Boolean(pool.isDefault),
      ...(pool.table ? { table: pool.table } : {}),
      ...(pool.transform ? { transform: pool.transform } : {}),
    },
  }
}

/** Creates a pool and returns it; throws ClusterError (400 with field errors). */
export function createPool(api: ClusterApi, pool: NewPool): Promise<Pool> {
  return api.post<Pool>(POOLS_PATH, poolBody(pool))
}

/**
 * The update body for `current`: its whole settings with the form's sizes (a PUT, so a size left
 * empty goes back to the cluster's default and cleared shards are gone), its service, table and
 * transform unchanged, and any settings the console does not edit kept as they were.
 */
export function poolUpdateBody(current: Pool, changes: PoolChanges): Record<string, unknown> {
  const {
    replicas: _r,
    cpu: _c,
    memory: _m,
    storage: _s,
    shards: _sh,
    ...kept
  } = current.settings?.k8s_deployment ?? {}
  return {
    name: current.name,
    description: changes.description ?? '',
    ...(current.type ? { type: current.type } : {}),
    settings: {
      ...current.settings,
      k8s_deployment: { ...kept, ...deployment(changes) },
      is_default: Boolean(changes.isDefault),
    },
  }
}

/** Replaces a pool with `body` (name, description, type, settings as they are to be stored); throws ClusterError. */
export function replacePool(api: ClusterApi, poolId: string, body: Record<string, unknown>): Promise<Pool> {
  return api.put<Pool>(poolPath(poolId), body)
}

/** Deletes a pool; throws ClusterError. */
export function deletePool(api: ClusterApi, poolId: string): Promise<void> {
  return api.del(poolPath(poolId))
}
