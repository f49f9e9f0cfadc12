import type { ClusterApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { listProjectsWithTables } from '~/api/tables.server'
import { loadTableSearch, type TableChoice as PickedTable, type TableSearch } from '~/api/table-search.server'

/** A table the transform can belong to: `projectId/tableId` and `project.table`. */
export type TableChoice = { value: string; label: string; projectName: string; tableName: string }

/** Every table of the org as a choice for the form's Table select. Throws ClusterError. */
export async function loadTableChoices(api: ClusterApi): Promise<TableChoice[]> {
  const projects = await listProjectsWithTables(api)
  return projects.flatMap(({ project, tables }) =>
    tables.map((table) => ({
      value: `${project.uuid}/${table.uuid}`,
      label: `${project.name}.${table.name}`,
      projectName: project.name,
      tableName: table.name,
    })),
  )
}

/**
 * The table choices a form offers and the one `?project=&table=` asks for (empty when none or not a
 * table of the org): the tables the search `?table_q=` finds, at most a short list (issue 33: not
 * every table of the org), and the one asked for, found by id whether or not the search lists it.
 */
export async function loadTablePick(
  api: ClusterApi,
  url: URL,
): Promise<{ tables: TableChoice[]; table: string; search: TableSearch }> {
  const search = await loadFromCluster(() => loadTableSearch(api, url, { qParam: 'table_q', idParam: 'table' }))
  const choiceOf = (choice: PickedTable): TableChoice => ({
    value: `${choice.projectId}/${choice.uuid}`,
    label: `${choice.project}.${choice.name}`,
    projectName: choice.project,
    tableName: choice.name,
  })
  const tables = search.choices.map(choiceOf)
  const chosen = search.selected ? choiceOf(search.selected) : null
  if (chosen && !tables.some((choice) => choice.value === chosen.value)) tables.unshift(chosen)
  return { tables, table: chosen?.value ?? '', search }
}

/** `projectId/tableId` → its parts (empty strings when it is not one). */
export function splitTableValue(value: string | undefined): { projectId: string; tableId: string } {
  const [projectId = '', tableId = ''] = (value ?? '').split('/')
  return { projectId, tableId }
}
