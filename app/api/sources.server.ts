import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'
import { cachedRead } from './read-cache.server'

import { type SourceKind, SOURCE_KINDS } from '~/schemas/source'

export { isSourceKind, SOURCE_KINDS, SOURCE_LABELS, type SourceKind } from '~/schemas/source'

/** An ingest source as the cluster returns it (cluster-api.md section 4). */
export type Source = {
  uuid: string
  name: string
  description?: string | null
  type?: string
  subtype?: SourceKind | string
  transform?: string | null
  table?: string
  pool_name?: string
  settings?: Record<string, unknown>
  k8s_deployment?: {
    replicas?: number | string
    cpu?: number | string
    memory?: number | string
    storage?: number | string
    service?: string
  }
  created?: string
  modified?: string
}

export type SourceBody = {
  name: string
  description?: string
  transform: string
  settings: Record<string, unknown>
  k8s_deployment: Record<string, unknown>
}

const sourcesPath = (api: ClusterApi, projectId: string, tableId: string, kind: SourceKind) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}/sources/${kind}/`

/** Returns a table's sources of every kind, sorted by name; throws ClusterError. */
export async function listSources(
  api: ClusterApi,
  projectId: string,
  tableId: string,
): Promise<(Source & { subtype: SourceKind })[]> {
  // read once per console request: a table's page lists them in its sources panel and its arrival part
  return cachedRead(api, `sources:${projectId}:${tableId}`, async () => {
    const lists = await Promise.all(
      SOURCE_KINDS.map(async (kind) =>
        (await listAll<Source>(api, sourcesPath(api, projectId, tableId, kind))).map((source) => ({
          ...source,
          subtype: kind,
        })),
      ),
    )
    return lists.flat().sort((a, b) => a.name.localeCompare(b.name))
  })
}

/** Returns one source; throws ClusterError (404 when there is none). */
export function getSource(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  kind: SourceKind,
  sourceId: string,
): Promise<Source> {
  return api.get<Source>(`${sourcesPath(api, projectId, tableId, kind)}${encodeURIComponent(sourceId)}`)
}

/** Creates a source (the cluster creates its pool); throws ClusterError (400 with field errors). */
export function createSource(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  kind: SourceKind,
  body: SourceBody,
): Promise<Source> {
  return api.post<Source>(sourcesPath(api, projectId, tableId, kind), { ...body, type: 'pull', subtype: kind })
}

/** Replaces a source; throws ClusterError. */
export function updateSource(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  kind: SourceKind,
  sourceId: string,
  body: SourceBody,
): Promise<Source> {
  return api.put<Source>(`${sourcesPath(api, projectId, tableId, kind)}${encodeURIComponent(sourceId)}`, {
    ...body,
    type: 'pull',
    subtype: kind,
  })
}

/** Deletes a source (and its pool); throws ClusterError. */
export function deleteSource(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  kind: SourceKind,
  sourceId: string,
): Promise<void> {
  return api.del(`${sourcesPath(api, projectId, tableId, kind)}${encodeURIComponent(sourceId)}`)
}

/** The pool a source runs in, as the source page shows it. */
export type SourcePool = {
  uuid: string
  name: string
  settings?: { k8s_deployment?: Record<string, unknown> }
}

/**
 * Returns the pool the cluster created for a source (found by its `pool_name`), or null when there
 * is none. The pools resource belongs to Scale; a source only reads its own pool. Throws ClusterError.
 */
export async function findSourcePool(api: ClusterApi, poolName: string | undefined): Promise<SourcePool | null> {
  if (!poolName) return null
  const pools = await listAll<SourcePool>(api, '/pools/')
  return pools.find((pool) => pool.name === poolName) ?? null
}

/** Sets a source pool's scale (the cluster scales a source through its pool). Throws ClusterError. */
export function updateSourcePoolScale(
  api: ClusterApi,
  poolId: string,
  k8s: Record<string, unknown>,
): Promise<SourcePool> {
  return api.patch<SourcePool>(`/pools/${encodeURIComponent(poolId)}`, { settings: { k8s_deployment: k8s } })
}

/** An auto batch entry: the table's `settings.autoingest[i]` (cluster-api.md section 4). */
export type AutoBatch = {
  enabled?: boolean
  source?: string
  source_region?: string
  pattern?: string
  dry_run?: boolean
  max_minutes_per_partition?: number
  max_rows_per_partition?: number
  max_active_partitions?: number
  source_credential_id?: string | null
  bucket_credential_id?: string | null
  [key: string]: unknown
}

const tablePath = (api: ClusterApi, projectId: string, tableId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}`

/** Returns the table's auto batch entries (its `settings.autoingest`); throws ClusterError. */
export async function listAutoBatches(api: ClusterApi, projectId: string, tableId: string): Promise<AutoBatch[]> {
  return autoBatchesOf(await api.get<{ settings?: Record<string, unknown> }>(tablePath(api, projectId, tableId)))
}

/** The auto batch entries a table read from the cluster holds (`settings.autoingest`). */
export function autoBatchesOf(table: { settings?: Record<string, unknown> }): AutoBatch[] {
  const entries = table.settings?.autoingest
  return Array.isArray(entries) ? (entries as AutoBatch[]) : []
}

/**
 * Replaces the table's auto batch entries (a PATCH of `settings.autoingest`); throws ClusterError (400 with
 * `settings.autoingest[i].*`).
 */
export async function setAutoBatches(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  entries: AutoBatch[],
): Promise<void> {
  await api.patch(tablePath(api, projectId, tableId), { settings: { autoingest: entries } })
}
