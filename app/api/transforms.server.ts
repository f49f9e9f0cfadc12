import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

export type TransformColumn = {
  name: string
  datatype?: { type?: string; primary?: boolean; index?: boolean; format?: string; [key: string]: unknown }
}

/** A transform as the cluster returns it (cluster-api.md 3.4). */
export type Transform = {
  uuid: string
  name: string
  description?: string | null
  type?: 'csv' | 'json' | 'hdx' | string
  table?: string
  created?: string
  modified?: string
  settings?: {
    is_default?: boolean
    compression?: string
    output_columns?: TransformColumn[]
    [key: string]: unknown
  }
}

const transformsPath = (api: ClusterApi, projectId: string, tableId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}/transforms/`

/** Returns every transform of a table, sorted by name; throws ClusterError. */
export async function listTransforms(api: ClusterApi, projectId: string, tableId: string): Promise<Transform[]> {
  const transforms = await listAll<Transform>(api, transformsPath(api, projectId, tableId))
  return transforms.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one transform; throws ClusterError (404 when there is none). */
export function getTransform(api: ClusterApi, projectId: string, tableId: string, transformId: string): Promise<Transform> {
  return api.get<Transform>(`${transformsPath(api, projectId, tableId)}${encodeURIComponent(transformId)}`)
}
