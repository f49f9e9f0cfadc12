import { ClusterError } from './errors.server'
import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'
import { nullOnMissing, nullWhenGone } from './policies.server'
import { cachedRead } from './read-cache.server'
import { getProject, listProjects, type Project } from './projects.server'
import { registerCache } from '~/utils/caches.server'

/** A table as the cluster returns it (cluster-api.md 3.2). */
export type Table = {
  uuid: string
  name: string
  description?: string | null
  project: string
  type?: 'turbine' | 'summary' | string
  primary_key?: string
  url?: string
  created?: string
  modified?: string
  settings?: TableSettings
}

export type TableSettings = {
  age?: { max_age_days?: number }
  reaper?: { max_age_days?: number }
  sort_keys?: string[]
  shard_key?: string | null
  max_future_days?: number
  stream?: Record<string, unknown>
  merge?: Record<string, unknown>
  [key: string]: unknown
}

export type NewTable = {
  name: string
  description?: string
  maxAgeDays?: number
  sortKeys?: string[]
}

/** A table with the project it lives in; the cluster nests tables under projects. */
export type TableWithProject = { table: Table; project: Project }

const tablesPath = (api: ClusterApi, projectId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/`
const tablePath = (api: ClusterApi, projectId: string, tableId: string) =>
  `${tablesPath(api, projectId)}${encodeURIComponent(tableId)}`

/** Returns every table of a project, sorted by name; throws ClusterError. */
export async function listTables(api: ClusterApi, projectId: string): Promise<Table[]> {
  const tables = await listAll<Table>(api, tablesPath(api, projectId))
  for (const table of tables) learnTableProject(table.uuid, projectId)
  return tables.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Which project holds a table, by table id, as the console's reads have seen it (decision 062): the
 * cluster answers a table only under its project, and a bare `/data/tables/{uuid}` would otherwise
 * ask every project. Ids only (no names, nothing a user could not read): the table itself is still
 * read with the user's token, and a stale entry (a table deleted, an id reused) only costs the walk
 * it saves. Shared by every session; bounded, the oldest forgotten first.
 */
const tableProjects = new Map<string, string>()
const TABLE_PROJECTS_MAX = 100_000

registerCache({
  name: 'table-projects',
  file: 'app/api/tables.server.ts',
  variable: 'tableProjects',
  holds: 'which project holds a table (ids only; decision 062)',
  key: 'table id',
  lifetime: 'the process (a stale entry only costs the walk it saves)',
  bound: `${TABLE_PROJECTS_MAX} tables, the oldest out`,
  forgottenBy: 'room for newer ones',
  writesChangeIt: false,
  size: () => tableProjects.size,
})

/** Notes that `projectId` holds `tableId` (every table list and lookup does). */
export function learnTableProject(tableId: string, projectId: string) {
  if (tableProjects.get(tableId) === projectId) return
  tableProjects.delete(tableId)
  tableProjects.set(tableId, projectId)
  if (tableProjects.size > TABLE_PROJECTS_MAX) {
    for (const oldest of tableProjects.keys()) {
      tableProjects.delete(oldest)
      if (tableProjects.size <= TABLE_PROJECTS_MAX * 0.9) break
    }
  }
}

/** Forgets what learnTableProject noted (tests). */
export function forgetTableProjects() {
  tableProjects.clear()
}

/** Returns each project of the org with its tables (projects and tables sorted by name). */
export async function listProjectsWithTables(api: ClusterApi): Promise<{ project: Project; tables: Table[] }[]> {
  const projects = await listProjects(api)
  return present(
    await Promise.all(projects.map(async (project) => ({ project, tables: await tablesOrGone(api, project.uuid) }))),
  )
}

/**
 * A listed project's tables, or null when its tables answer 404: the project was deleted (by another
 * user, replica or tool) after the org's project list was read, and a list leaves it out rather than
 * failing the page.
 */
function tablesOrGone(api: ClusterApi, projectId: string): Promise<Table[] | null> {
  return nullWhenGone(() => listTables(api, projectId))
}

/** The projects still there (tablesOrGone), with their tables. */
function present(entries: { project: Project; tables: Table[] | null }[]): { project: Project; tables: Table[] }[] {
  return entries.flatMap(({ project, tables }) => (tables ? [{ project, tables }] : []))
}

/**
 * A listed project's tables (sorted by name), read once per console request; null when the project
 * was deleted since the project list was read (tablesOrGone). Shared: never change it.
 */
export function tablesOfListedProject(api: ClusterApi, projectId: string): Promise<Table[] | null> {
  return cachedRead(api, `tables:${projectId}`, () => tablesOrGone(api, projectId))
}

/** The org's projects, read once per console request (read-cache.server; decision 060). Shared: never change it. */
function listProjectsBriefly(api: ClusterApi): Promise<Project[]> {
  return cachedRead(api, 'projects', () => listProjects(api))
}

/**
 * listProjectsWithTables for a page whose loaders ask for it more than once (the tables list, the
 * query picker, the schema tree): read once per console request, never kept past it, so a change
 * made through any replica shows on the next view (read-cache.server; decision 060).
 * The arrays returned are shared: read them, never change them.
 */
export async function listProjectsWithTablesBriefly(api: ClusterApi): Promise<{ project: Project; tables: Table[] }[]> {
  const projects = await listProjectsBriefly(api)
  return present(
    await Promise.all(
      projects.map(async (project) => ({ project, tables: await tablesOfListedProject(api, project.uuid) })),
    ),
  )
}

/**
 * A project by id from the session's short read cache of the project list (the one the tables list
 * and the query picker read), else from the cluster: null when it has none. Every table page names
 * its project, so a page view costs no call of its own for it.
 */
async function projectBriefly(api: ClusterApi, projectId: string): Promise<Project | null> {
  const cached = await listProjectsBriefly(api).catch(() => [] as Project[])
  return cached.find((project) => project.uuid === projectId) ?? nullOnMissing(() => getProject(api, projectId))
}

/** Returns one table; throws ClusterError (404 when the project has no such table). */
export function getTable(api: ClusterApi, projectId: string, tableId: string): Promise<Table> {
  return api.get<Table>(tablePath(api, projectId, tableId))
}

/** A table's storage figures as the cluster reports them (`tables/{t}/stats`). */
export type TableStats = {
  total_rows?: number
  total_partitions?: number
  raw_data_size?: number
  compressed_data_size?: number
  compression_ratio?: number
  oldest_timestamp?: string | null
  latest_timestamp?: string | null
}

/** Returns the table's storage figures; throws ClusterError. */
export function getTableStats(api: ClusterApi, projectId: string, tableId: string): Promise<TableStats> {
  return api.get<TableStats>(`${tablePath(api, projectId, tableId)}/stats`)
}

/**
 * Returns the table and its project: the `projectHint` (links carry `?project=`) is tried first,
 * then the project the console last saw it in (learnTableProject), then every project of the org,
 * so a bare `/data/tables/{uuid}` still resolves. Throws a 404 ClusterError when no project holds the table.
 */
export async function findTable(
  api: ClusterApi,
  tableId: string,
  projectHint?: string | null,
): Promise<TableWithProject> {
  const tried = new Set<string>()
  for (const hint of [projectHint, tableProjects.get(tableId)]) {
    if (!hint || tried.has(hint)) continue
    tried.add(hint)
    const [project, table] = await Promise.all([
      projectBriefly(api, hint),
      nullOnMissing(() => getTable(api, hint, tableId)),
    ])
    if (project && table) {
      learnTableProject(tableId, project.uuid)
      return { table, project }
    }
  }
  const projects = (await listProjectsBriefly(api)).filter((project) => !tried.has(project.uuid))
  const found = await Promise.all(
    // A miss (or an id that is not a uuid) in one project is not a failure of the search.
    projects.map(async (project) => ({
      project,
      table: await nullOnMissing(() => getTable(api, project.uuid, tableId)),
    })),
  )
  const match = found.find((entry) => entry.table !== null)
  if (match?.table) {
    learnTableProject(tableId, match.project.uuid)
    return { table: match.table, project: match.project }
  }
  throw new ClusterError({ status: 404, statusText: 'Not Found' })
}

/** The create body: only what the form set; the cluster fills every other setting with its defaults. */
export function tableBody(table: NewTable): Record<string, unknown> {
  const settings: TableSettings = {}
  if (table.maxAgeDays !== undefined) settings.age = { max_age_days: table.maxAgeDays }
  if (table.sortKeys !== undefined) settings.sort_keys = table.sortKeys
  return {
    name: table.name,
    ...(table.description ? { description: table.description } : {}),
    ...(Object.keys(settings).length ? { settings } : {}),
  }
}

/** Creates a table in a project and returns it; throws ClusterError (400 with field errors). */
export function createTable(api: ClusterApi, projectId: string, table: NewTable): Promise<Table> {
  return api.post<Table>(tablesPath(api, projectId), tableBody(table))
}

/** Deletes a table; throws ClusterError. */
export function deleteTable(api: ClusterApi, projectId: string, tableId: string): Promise<void> {
  return api.del(tablePath(api, projectId, tableId))
}

/**
 * Replaces a table's name, description and settings (PUT of the whole object, so a setting left out
 * is unset, e.g. a query option); returns the saved table; throws ClusterError (400 with field errors,
 * `settings.<group>.<key>` flattened).
 */
export function replaceTable(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  table: Pick<Table, 'name' | 'description' | 'type' | 'settings'>,
): Promise<Table> {
  return api.put<Table>(tablePath(api, projectId, tableId), {
    name: table.name,
    // as stored (null stays null; absent is left alone)
    ...(table.description !== undefined ? { description: table.description } : {}),
    ...(table.type ? { type: table.type } : {}),
    settings: table.settings ?? {},
  })
}

/** Changes only the given fields of a table (PATCH merges nested settings); throws ClusterError. */
export function patchTable(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  changes: Record<string, unknown>,
): Promise<Table> {
  return api.patch<Table>(tablePath(api, projectId, tableId), changes)
}

/** Removes every row of a table (its settings, transforms and views stay); throws ClusterError. */
export async function truncateTable(api: ClusterApi, projectId: string, tableId: string): Promise<void> {
  await api.post(`${tablePath(api, projectId, tableId)}/truncate/`)
}

/** Creates a summary table (type summary, fed by `sql`); throws ClusterError (`settings.summary.sql`). */
export function createSummaryTable(
  api: ClusterApi,
  projectId: string,
  table: { name: string; description?: string; sql: string; enabled?: boolean },
): Promise<Table> {
  return api.post<Table>(tablesPath(api, projectId), {
    name: table.name,
    ...(table.description ? { description: table.description } : {}),
    type: 'summary',
    settings: { summary: { enabled: table.enabled ?? true, sql: table.sql } },
  })
}
