import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** The clouds a bucket can live in (the cluster's own list; it refuses any other). */
export const CLOUDS = ['aws', 'gcp', 'azure', 'linode', 'akamai', 'oci', 'minio', 'local'] as const

/** How hard the cluster reads and writes the bucket. */
export const IO_PERF_MODES = ['aggressive', 'moderate', 'relaxed'] as const

/** A storage (a bucket) as the cluster returns it (cluster-api.md 8.4). */
export type Storage = {
  uuid: string
  name: string
  description?: string | null
  created?: string
  modified?: string
  settings: {
    bucket_name: string
    bucket_path?: string
    region?: string | null
    cloud: string
    endpoint?: string | null
    credential_id?: string | null
    account_name?: string | null
    is_default?: boolean
    io_perf_mode?: string
  }
}

/** What the bucket form sends: every settings field the console edits. */
export type StorageInput = {
  name: string
  description?: string
  settings: {
    bucket_name: string
    bucket_path: string
    region: string
    cloud: string
    endpoint: string | null
    credential_id: string | null
    is_default: boolean
    io_perf_mode?: string
  }
}

const storagesPath = (api: ClusterApi) => `/orgs/${api.orgId}/storages/`
const storagePath = (api: ClusterApi, storageId: string) => `${storagesPath(api)}${encodeURIComponent(storageId)}`

/** Returns every storage of the org, the default first, then by name; throws ClusterError. */
export async function listStorages(api: ClusterApi): Promise<Storage[]> {
  const storages = await listAll<Storage>(api, storagesPath(api))
  return storages.sort(
    (a, b) =>
      Number(Boolean(b.settings?.is_default)) - Number(Boolean(a.settings?.is_default)) || a.name.localeCompare(b.name),
  )
}

/** Returns one storage; throws ClusterError (404 when there is none with this id). */
export function getStorage(api: ClusterApi, storageId: string): Promise<Storage> {
  return api.get<Storage>(storagePath(api, storageId))
}

/** Creates a storage and returns it; throws ClusterError (400 with field errors). */
export function createStorage(api: ClusterApi, storage: StorageInput): Promise<Storage> {
  return api.post<Storage>(storagesPath(api), storage)
}

/**
 * Changes a storage (PATCH: only the keys given, settings among them, are written; the rest, e.g.
 * account_name, stay); throws ClusterError.
 */
export function updateStorage(
  api: ClusterApi,
  storageId: string,
  storage: StorageInput | Record<string, unknown>,
): Promise<Storage> {
  return api.patch<Storage>(storagePath(api, storageId), storage)
}

/**
 * Deletes a storage; `force` sends `?force_operation=true`, which the cluster needs for the default
 * storage and for one that tables use. Throws ClusterError (400 saying why without force).
 */
export function deleteStorage(api: ClusterApi, storageId: string, options: { force?: boolean } = {}): Promise<void> {
  return api.del(`${storagePath(api, storageId)}${options.force ? '?force_operation=true' : ''}`)
}
