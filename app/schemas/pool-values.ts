// The pool kinds, their labels, paths and services, without zod: the Scale lists and a pool's page
// import these through pool.ts, and the schemas below them stay out of those pages' first load
// (decision 075: pool.ts re-exports this module, and its own schemas are pure in the browser build).

/** The three kinds of pool, one Scale tab each. The cluster keeps it in the pool's `type`. */
export const POOL_KINDS = ['ingest', 'search', 'core'] as const
export type PoolKind = (typeof POOL_KINDS)[number]

export const KIND_LABELS: Record<PoolKind, string> = { ingest: 'Ingest', search: 'Search', core: 'Core' }

/** Where each kind's list lives. */
export const KIND_PATHS: Record<PoolKind, string> = { ingest: '/scale', search: '/scale/search', core: '/scale/core' }

/**
 * The services a pool can be made for, by kind, with what each does. Deprecated services
 * (stream-head, stream-peer) are still recognised in lists but not offered.
 */
export const SERVICES: Record<PoolKind, { value: string; label: string }[]> = {
  ingest: [
    { value: 'intake-head', label: 'intake-head: HTTP stream ingest' },
    { value: 'kafka-peer', label: 'kafka-peer: Kafka' },
    { value: 'kinesis-peer', label: 'kinesis-peer: Kinesis' },
    { value: 'kinesis-kcl-peer', label: 'kinesis-kcl-peer: Kinesis (KCL)' },
    { value: 'akamai-siem-peer', label: 'akamai-siem-peer: security-event feed' },
    { value: 'summary-peer', label: 'summary-peer: summary tables' },
    { value: 'batch-peer', label: 'batch-peer: batch jobs and auto batch' },
  ],
  search: [{ value: 'query-peer', label: 'query-peer: query workers' }],
  core: [
    { value: 'merge-peer', label: 'merge-peer: merges small partitions' },
    { value: 'alter-peer', label: 'alter-peer: alter jobs' },
    { value: 'decay', label: 'decay: ages data out' },
    { value: 'reaper', label: 'reaper: deletes expired partitions' },
  ],
}

const LEGACY_SERVICES: Record<string, PoolKind> = { 'stream-head': 'ingest', 'stream-peer': 'ingest' }

/** Returns the kind a service belongs to, or null for a service the console does not know. */
export function kindOfService(service: string | undefined | null): PoolKind | null {
  if (!service) return null
  for (const kind of POOL_KINDS) if (SERVICES[kind].some((entry) => entry.value === service)) return kind
  return LEGACY_SERVICES[service] ?? null
}

/** Returns the pool's kind: its `type` when it is one of the three, else its service's kind, else core. */
export function kindOfPool(type: string | null | undefined, service: string | null | undefined): PoolKind {
  if (type && (POOL_KINDS as readonly string[]).includes(type)) return type as PoolKind
  return kindOfService(service) ?? 'core'
}

/** Ingest pools write into one table through one of its transforms; search and core pools serve every table. */
export function kindNeedsTable(kind: string | undefined): boolean {
  return kind === 'ingest'
}
