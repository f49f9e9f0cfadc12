import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'
import type { TransformColumn } from './transforms.server'

/** A view as the cluster returns it (cluster-api.md 3.3): a transform's shape without its ingest parts. */
export type View = {
  uuid: string
  name: string
  description?: string | null
  table?: string
  created?: string
  modified?: string
  settings?: { is_default?: boolean; output_columns?: TransformColumn[]; [key: string]: unknown }
}

export type ViewInput = { name: string; description?: string; outputColumns: TransformColumn[] }

export { AUTO_VIEW_NAME as AUTO_VIEW } from '~/schemas/view'

const viewsPath = (api: ClusterApi, projectId: string, tableId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}/views/`

/** Returns every view of a table, sorted by name; throws ClusterError. */
export async function listViews(api: ClusterApi, projectId: string, tableId: string): Promise<View[]> {
  const views = await listAll<View>(api, viewsPath(api, projectId, tableId))
  return views.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one view; throws ClusterError (404 when there is none). */
export function getView(api: ClusterApi, projectId: string, tableId: string, viewId: string): Promise<View> {
  return api.get<View>(`${viewsPath(api, projectId, tableId)}${encodeURIComponent(viewId)}`)
}

const viewBody = (view: ViewInput) => ({
  name: view.name,
  description: view.description ?? '',
  settings: { output_columns: view.outputColumns },
})

/** Creates a view; throws ClusterError (400 with field errors, `settings.output_columns`). */
export function createView(api: ClusterApi, projectId: string, tableId: string, view: ViewInput): Promise<View> {
  return api.post<View>(viewsPath(api, projectId, tableId), viewBody(view))
}

/** Changes only the given keys of a view (PATCH merges nested settings); throws ClusterError. */
export function patchView(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  viewId: string,
  changes: Record<string, unknown>,
): Promise<View> {
  return api.patch<View>(`${viewsPath(api, projectId, tableId)}${encodeURIComponent(viewId)}`, changes)
}

/** Deletes a view (the table's data stays); throws ClusterError. */
export function deleteView(api: ClusterApi, projectId: string, tableId: string, viewId: string): Promise<void> {
  return api.del(`${viewsPath(api, projectId, tableId)}${encodeURIComponent(viewId)}`)
}
