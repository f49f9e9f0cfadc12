/**
 * Read-only lookups of the config objects the data plane needs (projects, tables, transforms),
 * from the store the config API writes. The kinds and shapes are the config side's.
 */
import type { ClusterState } from '../context'
import type { Resource } from '../hooks'

export const KINDS = {
  project: 'project',
  table: 'table',
  transform: 'transform',
  dictionary: 'dictionary',
  fn: 'function',
  org: 'org',
}

/** The parent id of a stored object (the config store keeps `_org`, `_project`, `_table`). */
export function parentOf(item: Resource, key: 'org' | 'project' | 'table'): string {
  return item[`_${key}`] ?? item[key]
}

export function projectByName(cluster: ClusterState, name: string): Resource | undefined {
  return cluster.store.find<Resource>(KINDS.project, (p) => p.name === name)
}

export function tableByName(cluster: ClusterState, projectId: string, name: string): Resource | undefined {
  // the store's parent index: a project's tables, not every table of the org
  for (const t of cluster.store.children<Resource>(KINDS.table, '_project', projectId))
    if (t.name === name) return cluster.store.copy<Resource>(t)
  return undefined
}

export function transformsOf(cluster: ClusterState, tableId: string): Resource[] {
  return [...cluster.store.children<Resource>(KINDS.transform, '_table', tableId)].map((t) =>
    cluster.store.copy<Resource>(t),
  )
}

/** The named transform, else the default one (settings.is_default), else the only/first one. */
export function pickTransform(cluster: ClusterState, tableId: string, name?: string | null): Resource | undefined {
  const all = transformsOf(cluster, tableId)
  if (name) return all.find((t) => t.name === name || t.uuid === name)
  return all.find((t) => t.settings?.is_default) ?? all[0]
}

/** Resolves `project.table` (backticks and quotes allowed) to its objects. */
export function resolveTable(
  cluster: ClusterState,
  ref: string,
): { project: Resource; table: Resource } | { error: string } {
  const cleaned = ref.trim()
  const m = /^[`"]?([^`".]+)[`"]?\.[`"]?([^`"]+)[`"]?$/.exec(cleaned)
  if (!m) return { error: `Table "${ref}" must be given as project.table` }
  const project = projectByName(cluster, m[1])
  if (!project) return { error: `Project "${m[1]}" does not exist` }
  const table = tableByName(cluster, project.uuid, m[2])
  if (!table) return { error: `Table "${m[1]}.${m[2]}" does not exist` }
  return { project, table }
}

export function projectOf(cluster: ClusterState, table: Resource): Resource | undefined {
  return cluster.store.get<Resource>(KINDS.project, parentOf(table, 'project'))
}

/** Every project.table pair, for finding which tables a SQL statement mentions. */
export function allTables(cluster: ClusterState): { project: Readonly<Resource>; table: Readonly<Resource> }[] {
  // the stored values themselves, not copies (issue 33: 10,000 tables copied on every org summary)
  const projects = new Map<string, Readonly<Resource>>()
  for (const p of cluster.store.values<Resource>(KINDS.project)) projects.set(p.uuid, p)
  const out: { project: Readonly<Resource>; table: Readonly<Resource> }[] = []
  for (const table of cluster.store.values<Resource>(KINDS.table)) {
    const project = projects.get(parentOf(table as Resource, 'project'))
    if (project) out.push({ project, table })
  }
  return out
}
