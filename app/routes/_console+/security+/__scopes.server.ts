import type { ClusterApi } from '~/api/client.server'
import { listProjectsWithTables } from '~/api/tables.server'
import type { ScopeLevel } from '~/schemas/security'

/** A resource a scope level can point at: the org, a project or a table. */
export type ScopeOption = { level: ScopeLevel; value: string; label: string }

/** The org, its projects and their tables (`project.table`), as scope choices; throws ClusterError. */
export async function loadScopeOptions(api: ClusterApi): Promise<ScopeOption[]> {
  const projects = await listProjectsWithTables(api)
  return [
    { level: 'org', value: api.orgId, label: 'This organization' },
    ...projects.map(({ project }) => ({ level: 'project' as const, value: project.uuid, label: project.name })),
    ...projects.flatMap(({ project, tables }) =>
      tables.map((table) => ({ level: 'table' as const, value: table.uuid, label: `${project.name}.${table.name}` })),
    ),
  ]
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
