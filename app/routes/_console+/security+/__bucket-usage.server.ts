import type { Storage } from '~/api/storages.server'
import type { Project } from '~/api/projects.server'
import type { Table } from '~/api/tables.server'

/** A table that stores data in a bucket, and how: its own default, a column's value mapped there, or the org's default. */
export type BucketUse = {
  tableId: string
  tableName: string
  projectId: string
  projectName: string
  how: 'table default' | 'mapped values' | 'org default'
}

type StorageMap = { default_storage_id?: string | null; column_value_mapping?: unknown } | null | undefined

/** The storage ids a table's value mapping sends data to (`{value: storageId}` or `{storageId: [values]}`). */
function mappedStorageIds(mapping: unknown): string[] {
  if (!mapping || typeof mapping !== 'object') return []
  return Object.entries(mapping as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [key, value] : [key],
  )
}

/**
 * The tables that use `storage`: those whose storage map names it (as their default or for mapped
 * values) and, when it is the org's default bucket, those with no storage map of their own.
 */
export function tablesUsingStorage(
  storage: Pick<Storage, 'uuid' | 'settings'>,
  projects: { project: Project; tables: Table[] }[],
): BucketUse[] {
  const uses: BucketUse[] = []
  for (const { project, tables } of projects) {
    for (const table of tables) {
      const map = table.settings?.storage_map as StorageMap
      const how: BucketUse['how'] | null =
        map?.default_storage_id === storage.uuid
          ? 'table default'
          : mappedStorageIds(map?.column_value_mapping).includes(storage.uuid)
            ? 'mapped values'
            : !map?.default_storage_id && storage.settings?.is_default
              ? 'org default'
              : null
      if (how)
        uses.push({
          tableId: table.uuid,
          tableName: table.name,
          projectId: project.uuid,
          projectName: project.name,
          how,
        })
    }
  }
  return uses
}
