import { tableRef } from '~/utils/sql'

export type SchemaTreeTable = { uuid: string; name: string; columns?: { name: string; type: string }[] }
export type SchemaTreeProject = { uuid: string; name: string; tables?: SchemaTreeTable[]; tableCount?: number }

/**
 * What the editor's schema tree and autocomplete know: the projects, and of the projects opened their
 * first tables, functions and dictionaries, and of the tables opened their columns (issue 33: a part
 * loads when it is opened; `tables` or `columns` absent means not loaded yet).
 */
export type SchemaTreeData = {
  projects: SchemaTreeProject[]
  functions: { project: string; name: string }[]
  dictionaries: string[]
  /** The project and table the URL opened (`schema_project`, `schema_table`). */
  openProject?: string | null
  openTable?: string | null
}

/** One autocomplete suggestion; `scope` set means "only after `scope.`" (a project's tables). */
export type SchemaCompletion = { value: string; caption?: string; meta: string; score: number; scope?: string }

/** The suggestions for a schema and the engine's function names. */
export function completionsOf(schema: SchemaTreeData, engineFunctions: string[]): SchemaCompletion[] {
  const items: SchemaCompletion[] = []
  const seenColumns = new Map<string, SchemaCompletion>()
  for (const project of schema.projects) {
    items.push({ value: project.name, meta: 'project', score: 900 })
    for (const table of project.tables ?? []) {
      items.push({ value: tableRef(project.name, table.name), meta: 'table', score: 950 })
      items.push({ value: table.name, meta: `table in ${project.name}`, score: 950, scope: project.name })
      for (const column of table.columns ?? []) {
        const existing = seenColumns.get(column.name)
        if (existing) {
          if (!existing.meta.endsWith('…')) existing.meta = `${existing.meta.split(' · ')[0]} · …`
          continue
        }
        const item = { value: column.name, caption: column.name, meta: `${column.type} · ${table.name}`, score: 1000 }
        seenColumns.set(column.name, item)
        items.push(item)
        items.push({ value: column.name, meta: column.type, score: 1000, scope: table.name })
      }
    }
  }
  for (const fn of schema.functions)
    items.push({ value: `${fn.name}(`, caption: fn.name, meta: `function · ${fn.project}`, score: 800 })
  for (const dictionary of schema.dictionaries)
    items.push({ value: `'${dictionary}'`, caption: dictionary, meta: 'dictionary', score: 700 })
  for (const name of engineFunctions) items.push({ value: `${name}(`, caption: name, meta: 'function', score: 500 })
  return items
}

/** Merges a project's part (tables, functions, dictionaries) into the tree. */
export function withProjectPart(
  tree: SchemaTreeData,
  projectId: string,
  part: {
    tables: SchemaTreeTable[]
    tableCount: number
    functions: SchemaTreeData['functions']
    dictionaries: string[]
  },
): SchemaTreeData {
  const project = tree.projects.find((entry) => entry.uuid === projectId)
  if (!project) return tree
  return {
    ...tree,
    projects: tree.projects.map((entry) =>
      entry.uuid === projectId ? { ...entry, tables: part.tables, tableCount: part.tableCount } : entry,
    ),
    functions: [...tree.functions.filter((fn) => fn.project !== project.name), ...part.functions],
    dictionaries: [...new Set([...tree.dictionaries, ...part.dictionaries])],
  }
}

/** Merges a table's columns into the tree. */
export function withTableColumns(
  tree: SchemaTreeData,
  projectId: string,
  tableId: string,
  columns: { name: string; type: string }[],
): SchemaTreeData {
  return {
    ...tree,
    projects: tree.projects.map((project) =>
      project.uuid === projectId
        ? {
            ...project,
            tables: project.tables?.map((table) => (table.uuid === tableId ? { ...table, columns } : table)),
          }
        : project,
    ),
  }
}
