import crypto from 'node:crypto'
import type { ClusterState } from '../context'
import { nowIso } from '../http'
import type { Item } from './crud'

/**
 * What a real install creates before anyone signs in, created here once, on a data directory's first
 * start: the default intake pool, the query pool, the three merge pools (small, medium, large) and the
 * default storage (the bucket the install was given). See cluster/README.md, "What a fresh cluster has".
 * Written straight to the store (no HTTP, no audit entries), so it costs a handful of writes.
 */

export interface InstallPool {
  name: string
  type: 'ingest' | 'search' | 'core'
  description: string
  service: string
  replicas: string
  cpu: string
  memory: string
  storage: string
  isDefault: boolean
}

/** The pools a real install runs, named as a real install names them. */
export const INSTALL_POOLS: readonly InstallPool[] = [
  {
    name: 'intake-head',
    type: 'ingest',
    description: 'Default stream ingest pool (/ingest/event)',
    service: 'intake-head',
    replicas: '1',
    cpu: '1',
    memory: '2Gi',
    storage: '2Gi',
    isDefault: true,
  },
  {
    name: 'query-peer',
    type: 'search',
    description: 'Default query pool',
    service: 'query-peer',
    replicas: '1',
    cpu: '2',
    memory: '8Gi',
    storage: '10Gi',
    isDefault: true,
  },
  {
    name: 'merge-peer',
    type: 'core',
    description: 'Merge pool, small (I): partitions under 1 hour old, up to 1 GB',
    service: 'merge-peer',
    replicas: '1',
    cpu: '1',
    memory: '3Gi',
    storage: '5Gi',
    isDefault: true,
  },
  {
    name: 'merge-peer-ii',
    type: 'core',
    description: 'Merge pool, medium (II): partitions 1 to 24 hours old, up to 2 GB',
    service: 'merge-peer',
    replicas: '1',
    cpu: '1',
    memory: '6Gi',
    storage: '5Gi',
    isDefault: false,
  },
  {
    name: 'merge-peer-iii',
    type: 'core',
    description: 'Merge pool, large (III): partitions over 1 day old, up to 4 GB',
    service: 'merge-peer',
    replicas: '1',
    cpu: '2',
    memory: '12Gi',
    storage: '5Gi',
    isDefault: false,
  },
]

/** The default storage's name and description, as a real install's initial bucket has them. */
export const INSTALL_STORAGE = {
  name: 'hdx_primary',
  description: 'The initial bucket that comes up with the cluster',
} as const

/** The default bucket's name: `hdxcli-` and the first eight characters of the org id, as a real install names its bucket. */
export const installBucketName = (orgId: string) => `hdxcli-${orgId.replace(/-/g, '').slice(0, 8)}`

/**
 * Creates whatever of the install's pools and default storage is missing (by name), so a first start
 * interrupted half-way and started again does not make a second of any.
 */
export function seedInstall(cluster: ClusterState, orgId: string): void {
  const { store } = cluster
  const now = nowIso()
  for (const pool of INSTALL_POOLS) {
    if (store.find<Item>('pool', (p) => p.name === pool.name)) continue
    const uuid = crypto.randomUUID()
    store.put<Item>('pool', uuid, {
      uuid,
      name: pool.name,
      description: pool.description,
      type: pool.type,
      settings: {
        k8s_deployment: {
          service: pool.service,
          replicas: pool.replicas,
          cpu: pool.cpu,
          memory: pool.memory,
          storage: pool.storage,
        },
        is_default: pool.isDefault,
      },
      created: now,
      modified: now,
      _org: orgId,
    })
  }
  if (!store.find<Item>('storage', (s) => s._org === orgId && s.name === INSTALL_STORAGE.name)) {
    const uuid = crypto.randomUUID()
    const hasDefault = Boolean(store.find<Item>('storage', (s) => s._org === orgId && s.settings?.is_default))
    store.put<Item>('storage', uuid, {
      uuid,
      name: INSTALL_STORAGE.name,
      description: INSTALL_STORAGE.description,
      settings: {
        bucket_name: installBucketName(orgId),
        bucket_path: '/',
        region: '',
        cloud: 'local',
        endpoint: null,
        credential_id: null,
        account_name: null,
        is_default: !hasDefault,
        io_perf_mode: 'aggressive',
      },
      org: orgId,
      created: now,
      modified: now,
      _org: orgId,
    })
  }
}
