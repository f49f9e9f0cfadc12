import crypto from 'node:crypto'
import type { ClusterRouter, ClusterState } from '../context'
import { nowIso } from '../http'
import { defineResource, type Item, type ResourceApi } from './crud'
import { poolDefaults } from './defaults'
import { descriptionField, f, type Field } from './schema'

/**
 * Resource pools: `/config/v1/pools/` (not org-scoped). Stored and answered like a real cluster's;
 * on one machine nothing is scheduled.
 */

export const POOL_SERVICES = [
  'intake-head',
  'stream-head',
  'stream-peer',
  'kafka-peer',
  'kinesis-peer',
  'kinesis-kcl-peer',
  'akamai-siem-peer',
  'merge-peer',
  'query-peer',
  'summary-peer',
  'batch-peer',
  'alter-peer',
  'decay',
  'reaper',
] as const

const QUANTITY = /^\d+(\.\d+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$/

/** A Kubernetes quantity (number or string like "0.5", "2Gi") greater than 0. */
export const quantityField = (label: string): Field =>
  f.json({
    label,
    check: (v: unknown) => {
      if (typeof v === 'number') return v > 0 ? undefined : 'Must be greater than 0.'
      if (typeof v !== 'string' || !QUANTITY.test(v.trim())) return 'Enter a number or a quantity such as "2Gi".'
      return parseFloat(v) > 0 ? undefined : 'Must be greater than 0.'
    },
  })

/** Replicas: a count, or "min-max" with min below max. */
export const replicasField = (): Field =>
  f.json({
    label: 'Replicas',
    help: 'A count, or "min-max" for autoscaling',
    check: (v: unknown) => {
      const s = String(v).trim()
      if (typeof v === 'number' ? Number.isInteger(v) && v >= 0 : /^\d+$/.test(s)) return undefined
      const m = /^(\d+)\s*-\s*(\d+)$/.exec(s)
      if (!m || typeof v !== 'string') return 'Enter a whole number of replicas, or "min-max".'
      return Number(m[1]) < Number(m[2]) ? undefined : 'The minimum number of replicas must be below the maximum.'
    },
  })

export const k8sFields = (services: readonly string[] = POOL_SERVICES) => ({
  service: f.str({ required: true, choices: services }),
  replicas: replicasField(),
  cpu: quantityField('CPU'),
  memory: quantityField('Memory'),
  storage: quantityField('Ephemeral storage'),
})

export function registerPools(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'pool',
    resource: 'pool',
    label: 'pool',
    level: 'global',
    path: 'pools',
    description: 'Resource pools (stored; nothing is scheduled on a local cluster).',
    fields: {
      description: descriptionField(),
      type: f.str({ nullable: true, blank: true, help: 'ingest, search or core' }),
      settings: f.obj(
        {
          k8s_deployment: f.obj(k8sFields(), { required: true }),
          is_default: f.bool(),
          table: f.str({ nullable: true, blank: true }),
          transform: f.str({ nullable: true, blank: true }),
        },
        { required: true },
      ),
    },
    settingsDefaults: () => poolDefaults(),
    immutable: [
      { path: ['name'], message: 'The pool name cannot be changed.' },
      { path: ['settings', 'k8s_deployment', 'service'], message: 'The pool service cannot be changed.' },
    ],
  })
}

/** Creates the pool an ingest source runs in (a real cluster does this when a source is created). */
export function createSourcePool(cluster: ClusterState, source: Item, service: string): Item {
  let name = source.name
  for (let i = 2; cluster.store.find<Item>('pool', (p) => p.name.toLowerCase() === name.toLowerCase()); i++)
    name = `${source.name}-${i}`
  const now = nowIso()
  const k8s = (source.k8s_deployment ?? {}) as Record<string, unknown>
  const pool: Item = {
    uuid: crypto.randomUUID(),
    name,
    description: `Pool of ${source.subtype} source ${source.name}`,
    type: 'ingest',
    settings: { k8s_deployment: { ...poolDefaults().k8s_deployment, ...k8s, service } },
    created: now,
    modified: now,
    _org: source._org,
    _source: source.uuid,
  }
  cluster.store.put('pool', pool.uuid, pool)
  return pool
}
