import type { ClusterApi } from './client.server'
import { isConsoleProject } from '~/utils/console-store'
import { listProjects, type Project } from './projects.server'
import { cachedRead } from './read-cache.server'
import { findTable, learnTableProject, listTables, type Table } from './tables.server'

/**
 * The table pickers of an org of any size (issue 33, decision 062): a search narrows a short list
 * instead of a `<select>` holding every table. Without a search the list is the first tables of the
 * first projects (one page read from the cluster); with one it is the tables whose `project.table`
 * holds the words searched for. The cluster's lists filter by exact name only, so a search reads
 * each project's tables through the session's short read cache (decision 036): a search costs what
 * a whole-org read costs, a page view without one does not.
 */
export type TableChoice = { uuid: string; projectId: string; project: string; name: string }
export type TableSearch = {
  q: string
  choices: TableChoice[]
  /** More tables match than are listed: the search should be narrowed. */
  hasMore: boolean
  /** The table chosen (kept in the URL or the form), found by id whether or not it is in `choices`. */
  selected: TableChoice | null
}

/** The most tables a picker lists. */
export const PICKER_LIMIT = 50

/** The org's projects (sorted by name) from the session's short read cache. Shared: never change it. */
export function listProjectsBriefly(api: ClusterApi): Promise<Project[]> {
  return cachedRead(api, 'projects', () => listProjects(api))
}

/** A project's tables (sorted by name) from the session's short read cache. Shared: never change it. */
export function listTablesBriefly(api: ClusterApi, projectId: string): Promise<Table[]> {
  return cachedRead(api, `tables:${projectId}`, () => listTables(api, projectId))
}

const tablesPath = (api: ClusterApi, projectId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/`

/**
 * One page of a project's tables by name (`page`, `page_size`, `ordering=name`: DRF's ordering
 * filter, which the local cluster honours; a cluster that ignores it answers in its own order) and
 * how many it has: the read a tree or a first list makes without reading the whole project.
 */
export async function pageOfTables(
  api: ClusterApi,
  projectId: string,
  page: number,
  pageSize: number,
): Promise<{ tables: Table[]; count: number }> {
  const answer = await cachedRead(api, `tables:${projectId}:${page}:${pageSize}`, () =>
    api.list<Table>(tablesPath(api, projectId), { page, pageSize, params: { ordering: 'name' } }),
  )
  for (const table of answer.results) learnTableProject(table.uuid, projectId)
  return { tables: answer.results, count: answer.count }
}

function words(q: string): string[] {
  return q.toLowerCase().split(/\s+/).filter(Boolean)
}

/** Whether every word of the search is in `project.table`. */
function matches(needles: string[], project: string, table: string): boolean {
  const ref = `${project}.${table}`.toLowerCase()
  return needles.every((needle) => ref.includes(needle))
}

/** The tables a picker lists for the search `q` (at most `limit`; see the module's comment). Throws ClusterError. */
export async function searchTables(
  api: ClusterApi,
  q: string,
  limit = PICKER_LIMIT,
): Promise<{ choices: TableChoice[]; hasMore: boolean }> {
  // the console's own store is never a table to pick (issue 36): left out before the list is filled
  const projects = (await listProjectsBriefly(api)).filter((project) => !isConsoleProject(project))
  const needles = words(q)
  const choices: TableChoice[] = []
  if (!needles.length) {
    // the first tables of the first projects, a page at a time: as many reads as it takes to fill
    // the list (one, unless the first projects are nearly empty)
    for (const project of projects) {
      const { tables, count } = await pageOfTables(api, project.uuid, 1, limit + 1 - choices.length)
      for (const table of tables)
        choices.push({ uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name })
      if (choices.length > limit || (choices.length === limit && count > tables.length)) break
    }
    return { choices: choices.slice(0, limit), hasMore: choices.length > limit }
  }
  // a project whose name matches every word: its tables all match
  const lists = await Promise.all(projects.map((project) => listTablesBriefly(api, project.uuid)))
  for (const [index, project] of projects.entries()) {
    for (const table of lists[index]!) {
      learnTableProject(table.uuid, project.uuid)
      if (matches(needles, project.name, table.name))
        choices.push({ uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name })
      if (choices.length > limit) return { choices: choices.slice(0, limit), hasMore: true }
    }
  }
  return { choices, hasMore: false }
}

/** The table `tableId` as a choice, or null when there is none (or the id is empty). */
export async function tableChoice(
  api: ClusterApi,
  tableId: string | null | undefined,
  projectHint?: string | null,
): Promise<TableChoice | null> {
  if (!tableId) return null
  try {
    const { table, project } = await findTable(api, tableId, projectHint)
    return { uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name }
  } catch {
    return null
  }
}

/**
 * A picker's list for the URL's search (`qParam`) and choice (`idParam`): the matches and the
 * chosen table. Throws ClusterError as searchTables does.
 */
export async function loadTableSearch(
  api: ClusterApi,
  url: URL,
  { qParam = 'table_q', idParam = 'table_id', projectParam = 'project' } = {},
): Promise<TableSearch> {
  const q = (url.searchParams.get(qParam) ?? '').trim()
  const [{ choices, hasMore }, selected] = await Promise.all([
    searchTables(api, q),
    tableChoice(api, url.searchParams.get(idParam), url.searchParams.get(projectParam)),
  ])
  return { q, choices, hasMore, selected }
}
