import type { ClusterApi } from './client.server'
import { isConsoleProject, namesConsoleProject } from '~/utils/console-store'
import { listProjects, type Project } from './projects.server'
import { nullWhenGone } from './policies.server'
import { cachedRead } from './read-cache.server'
import { findTable, learnTableProject, tablesOfListedProject, type Table } from './tables.server'

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

/**
 * A project's tables (sorted by name) from the session's short read cache. Shared: never change it.
 * A project deleted since the project list was read (its tables answer 404) has none.
 */
export async function listTablesBriefly(api: ClusterApi, projectId: string): Promise<Table[]> {
  return (await tablesOfListedProject(api, projectId)) ?? []
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
): Promise<{ tables: Table[]; count: number; isGone?: true }> {
  // null: deleted since the project list was read (every caller read the project there); no tables,
  // and the caller leaves the project out
  const answer = await cachedRead(api, `tables:${projectId}:${page}:${pageSize}`, () =>
    nullWhenGone(() => api.list<Table>(tablesPath(api, projectId), { page, pageSize, params: { ordering: 'name' } })),
  )
  if (!answer) return { tables: [], count: 0, isGone: true }
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

/**
 * What a picker may offer: every table of the user's projects (`any`); only those that can feed a
 * summary or a view (`raw`: not a summary table, and a choice kept by id or name is refused in the
 * console's store too); or every table (`scope`: security scopes), the console's store only when the
 * search names it (decision 105: no user needs rights on it) or a choice names it by id.
 */
export type TableKind = 'any' | 'raw' | 'scope'

/** Whether a table is of the kind a picker offers (`raw`: not a summary table). */
export function isKind(table: Pick<Table, 'type'>, kind: TableKind): boolean {
  return kind !== 'raw' || table.type !== 'summary'
}

/** The tables a picker lists for the search `q` (at most `limit`; see the module's comment). Throws ClusterError. */
export async function searchTables(
  api: ClusterApi,
  q: string,
  limit = PICKER_LIMIT,
  kind: TableKind = 'any',
): Promise<{ choices: TableChoice[]; hasMore: boolean }> {
  // the console's own store is never a table to pick (issue 36), but for a security scope searched
  // for by its name (decision 105): left out before the list is filled
  const projects = (await listProjectsBriefly(api)).filter(
    (project) => !isConsoleProject(project) || (kind === 'scope' && namesConsoleProject(q)),
  )
  const needles = words(q)
  const choices: TableChoice[] = []
  if (!needles.length) {
    // the first tables of the first projects, a page of each, read two projects at a time (then 4,
    // 8…) until the list is full: an org whose first project holds a few tables (the sample) fills
    // it in one round trip, not one after the other (issue 33: the Scale tab's tables waited on two)
    let full = false
    let next = 0
    for (let batch = 2; next < projects.length && !full; batch *= 2) {
      const asked = projects.slice(next, next + batch)
      next += asked.length
      const room = limit + 1 - choices.length
      const answers = await Promise.all(asked.map((project) => pageOfTables(api, project.uuid, 1, room)))
      for (const [index, { tables, count }] of answers.entries()) {
        const project = asked[index]!
        for (const table of tables)
          if (isKind(table, kind))
            choices.push({ uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name })
        full = choices.length > limit || (choices.length === limit && count > tables.length)
        if (full) break
      }
    }
    return { choices: choices.slice(0, limit), hasMore: choices.length > limit }
  }
  // a project whose name matches every word: its tables all match
  const lists = await Promise.all(projects.map((project) => listTablesBriefly(api, project.uuid)))
  for (const [index, project] of projects.entries()) {
    for (const table of lists[index]!) {
      learnTableProject(table.uuid, project.uuid)
      if (isKind(table, kind) && matches(needles, project.name, table.name))
        choices.push({ uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name })
      if (choices.length > limit) return { choices: choices.slice(0, limit), hasMore: true }
    }
  }
  return { choices, hasMore: false }
}

/** The table `tableId` as a choice, or null when there is none, it is not of `kind` (or the id is empty). */
export async function tableChoice(
  api: ClusterApi,
  tableId: string | null | undefined,
  projectHint?: string | null,
  kind: TableKind = 'any',
): Promise<TableChoice | null> {
  if (!tableId) return null
  try {
    const { table, project } = await findTable(api, tableId, projectHint)
    if (!isKind(table, kind) || (kind === 'raw' && isConsoleProject(project))) return null
    return { uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name }
  } catch {
    return null
  }
}

/**
 * The table a `<projectId>/<tableId>` value (a form's) or a bare table id names, as a choice; null
 * when there is none or it is not of `kind`. Two reads at most with the project, whatever the org's size.
 */
export function tableChoiceOfValue(
  api: ClusterApi,
  value: string | null | undefined,
  kind: TableKind = 'any',
): Promise<TableChoice | null> {
  const [first, second] = (value ?? '').split('/')
  return second ? tableChoice(api, second, first, kind) : tableChoice(api, first, null, kind)
}

/**
 * The table `project.table` names, as a choice; null when the org has none by that name or it is
 * not of `kind`. Reads the project list (short cache) and the project's tables by `?name=`.
 */
export async function tableChoiceByName(
  api: ClusterApi,
  projectName: string,
  tableName: string,
  kind: TableKind = 'any',
): Promise<TableChoice | null> {
  const project = (await listProjectsBriefly(api)).find((entry) => entry.name === projectName)
  if (!project || (kind === 'raw' && isConsoleProject(project))) return null
  const answer = await cachedRead(api, `tables:${project.uuid}:name:${tableName}`, () =>
    api.list<Table>(tablesPath(api, project.uuid), { params: { name: tableName } }),
  )
  const table = answer.results.find((entry) => entry.name === tableName)
  if (!table || !isKind(table, kind)) return null
  learnTableProject(table.uuid, project.uuid)
  return { uuid: table.uuid, projectId: project.uuid, project: project.name, name: table.name }
}

/** A `<projectId>/<tableId>` form value for a choice. */
export const choiceValue = (choice: Pick<TableChoice, 'projectId' | 'uuid'>) => `${choice.projectId}/${choice.uuid}`

/**
 * A picker's list for the URL's search (`qParam`) and choice (`idParam`): the matches and the
 * chosen table. Throws ClusterError as searchTables does.
 */
export async function loadTableSearch(
  api: ClusterApi,
  url: URL,
  {
    qParam = 'table_q',
    idParam = 'table_id',
    projectParam = 'project',
    kind = 'any',
  }: { qParam?: string; idParam?: string; projectParam?: string; kind?: TableKind } = {},
): Promise<TableSearch> {
  const q = (url.searchParams.get(qParam) ?? '').trim()
  const [{ choices, hasMore }, selected] = await Promise.all([
    searchTables(api, q, PICKER_LIMIT, kind),
    // a `<projectId>/<tableId>` value (the summary and view forms') carries its project
    (url.searchParams.get(idParam) ?? '').includes('/')
      ? tableChoiceOfValue(api, url.searchParams.get(idParam), kind)
      : tableChoice(api, url.searchParams.get(idParam), url.searchParams.get(projectParam), kind),
  ])
  return { q, choices, hasMore, selected }
}
