import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'
import { cachedRead } from './read-cache.server'

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

const byName = (a: Pool, b: Pool) => a.name.localeCompare(b.name)

/** Returns every pool the user may see, sorted by name; throws ClusterError. */
export async function listPools(api: ClusterApi): Promise<readonly Pool[]> {
  // one page of up to 1,000 (every org but the largest): parsed once per content and shared,
  // frozen, with the other requests that got the same answer (decision 089: 505 pools on every
  // Scale tab); more pools are read page by page
  const first = await api.list<Pool>(POOLS_PATH, {
    page: 1,
    pageSize: POOLS_PAGE,
    params: { ordering: 'name' },
    shareParsed: true,
  })
  if (!first.next && first.results.length >= first.count) return inNameOrder(first.results)
  return inNameOrder(await listAll<Pool>(api, POOLS_PATH, { ordering: 'name' }))
}

/** The page size of the pools' one read (the local cluster's largest). */
const POOLS_PAGE = 1000

/**
 * `pools` sorted by name: as they are when the cluster answered them so (`ordering=name`, which a
 * cluster may ignore or collate otherwise), checked in one pass instead of sorted again (issue 33:
 * 500 pools on every Scale tab).
 */
export function inNameOrder(pools: readonly Pool[]): readonly Pool[] {
  // a copy is sorted: the list may be a shared answer (frozen)
  for (let i = 1; i < pools.length; i++) if (byName(pools[i - 1]!, pools[i]!) > 0) return [...pools].sort(byName)
  return pools
}

/** Whether a pool can run a batch job: an ingest pool, or the batch peer or intake head. */
export function isBatchPool(pool: Pool): boolean {
  return (
    pool.type === 'ingest' ||
    ['batch-peer', 'intake-head'].includes(String(pool.settings?.k8s_deployment?.service ?? ''))
  )
}

/** A pool as a batch job's pool field suggests it. */
export type PoolChoice = { value: string; label: string }

/** The most pools the batch job form suggests at once (issue 33: 500 pools are a search away, not a list). */
export const POOL_SUGGESTIONS = 25

const poolChoice = (pool: Pool): PoolChoice => ({
  value: pool.name,
  label: pool.settings?.k8s_deployment?.service ? `${pool.name} (${pool.settings.k8s_deployment.service})` : pool.name,
})

/**
 * The pools a batch job can run on whose name holds `q` (case-insensitive), at most `limit`, by name.
 * Without a search: one page of the cluster's pools by name (`ordering=name`), so the form costs the
 * same at 500 pools; with one (the cluster filters pools by exact name only), the whole list through
 * the session's short read cache. Throws ClusterError.
 */
export async function searchBatchPools(
  api: ClusterApi,
  q: string,
  limit = POOL_SUGGESTIONS,
): Promise<{ choices: PoolChoice[]; hasMore: boolean }> {
  const needle = q.trim().toLowerCase()
  if (!needle) {
    const answer = await api.list<Pool>(POOLS_PATH, { page: 1, pageSize: 100, params: { ordering: 'name' } })
    const sorted = [...answer.results].sort((a, b) => a.name.localeCompare(b.name))
    const fit = sorted.filter(isBatchPool)
    // a first page short of batch pools (the query pools sort first): the whole list instead
    if (fit.length > limit || answer.count <= answer.results.length)
      return { choices: fit.slice(0, limit).map(poolChoice), hasMore: fit.length > limit }
  }
  const pools = await cachedRead(api, 'pools', () => listPools(api))
  const fit = pools.filter((pool) => isBatchPool(pool) && pool.name.toLowerCase().includes(needle))
  return { choices: fit.slice(0, limit).map(poolChoice), hasMore: fit.length > limit }
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
