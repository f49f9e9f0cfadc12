import type { ClusterApi } from '~/api/client.server'
import { listProjectsBriefly, searchTables, tableChoice, type TableChoice } from '~/api/table-search.server'
import type { ScopeLevel } from '~/schemas/security'
import { isConsoleProject, namesConsoleProject } from '~/utils/console-store'

/** A resource a scope level can point at: the org, a project or a table. */
export type ScopeOption = { level: ScopeLevel; value: string; label: string }

/** How many tables a scope picker lists for a search (issue 33): the rest is a search away. */
export const SCOPE_TABLES = 50

/** The table search a scope picker answered: what it found, and whether a narrower search finds more. */
export type ScopeSearch = { q: string; choices: TableChoice[]; hasMore: boolean }

/**
 * The scopes a page shows (issue 33, decision 070): the org, its projects (one short list), the
 * tables the search `q` finds (at most SCOPE_TABLES; none when `search` is false, for a page that
 * only describes scopes) and the tables named by id in `tableIds` (the chosen and staged scopes),
 * each found by id: never every table of the org. A page that offers scopes (`search`) leaves the
 * console's own project out (decision 105) unless the search names it or `projectIds` does (a
 * policy on it, to describe); a page that only describes scopes keeps it. Throws ClusterError.
 */
export async function loadScopes(
  api: ClusterApi,
  {
    q = '',
    tableIds = [],
    projectIds = [],
    search = true,
  }: {
    q?: string
    tableIds?: (string | null | undefined)[]
    projectIds?: (string | null | undefined)[]
    search?: boolean
  } = {},
): Promise<{ options: ScopeOption[]; search: ScopeSearch }> {
  const ids = [...new Set(tableIds.filter((id): id is string => Boolean(id)))]
  const [projects, found, named] = await Promise.all([
    listProjectsBriefly(api),
    search ? searchTables(api, q.trim(), SCOPE_TABLES, 'scope') : { choices: [], hasMore: false },
    Promise.all(ids.map((id) => tableChoice(api, id, null, 'scope'))),
  ])
  const tables = [...named.filter((choice) => choice !== null), ...found.choices]
  const seen = new Set<string>()
  const options: ScopeOption[] = [
    { level: 'org', value: api.orgId, label: 'This organization' },
    ...projects
      .filter(
        (project) =>
          !search || !isConsoleProject(project) || namesConsoleProject(q) || projectIds.includes(project.uuid),
      )
      .map((project) => ({ level: 'project' as const, value: project.uuid, label: project.name })),
    ...tables
      .filter((table) => !seen.has(table.uuid) && seen.add(table.uuid))
      .map((table) => ({ level: 'table' as const, value: table.uuid, label: `${table.project}.${table.name}` })),
  ]
  return { options, search: { q: q.trim(), choices: found.choices, hasMore: found.hasMore } }
}

/** The scope choices of a picker (see loadScopes); throws ClusterError. */
export async function loadScopeOptions(
  api: ClusterApi,
  options: Parameters<typeof loadScopes>[1] = {},
): Promise<ScopeOption[]> {
  return (await loadScopes(api, options)).options
}

/** The project ids among scopes: a page that offers scopes keeps these projects among them to describe them. */
export function projectScopeIds(scopes: { scope_type?: string | null; scope_id?: string | null }[]): string[] {
  return scopes.filter((scope) => scope.scope_type === 'project' && scope.scope_id).map((scope) => scope.scope_id!)
}

/** The table ids among scopes (`scope_type`, `scope_id`): what a page must find by id to describe them. */
export function tableScopeIds(scopes: { scope_type?: string | null; scope_id?: string | null }[]): string[] {
  return scopes.filter((scope) => scope.scope_type === 'table' && scope.scope_id).map((scope) => scope.scope_id!)
}

/**
 * Whether `value` is a resource of `level` in the org, asked of the cluster by id (the org, a
 * project of the short list, a table found by id): a check that does not read every table.
 */
export async function isScope(api: ClusterApi, level: string, value: string | null | undefined): Promise<boolean> {
  if (!value) return false
  if (level === 'org') return value === api.orgId
  if (level === 'project') return (await listProjectsBriefly(api)).some((project) => project.uuid === value)
  if (level === 'table') return (await tableChoice(api, value, null, 'scope')) !== null
  return false
}

/** Whether `value` is a resource of `level` among the options. */
export function isScopeOf(options: ScopeOption[], level: string, value: string): boolean {
  return options.some((option) => option.level === level && option.value === value)
}

/** How a scope reads on the page: "Project weblogs", "Organization", or the raw type and id when unknown. */
export function describeScope(
  options: ScopeOption[],
  type: string | null | undefined,
  id: string | null | undefined,
): string {
  if (!type) return 'Everywhere (all organizations)'
  if (type === 'org') return 'Organization'
  const known = options.find((option) => option.level === type && option.value === id)
  const kind = type.charAt(0).toUpperCase() + type.slice(1)
  return known ? `${kind} ${known.label}` : `${kind} ${id ?? ''}`.trim()
}
