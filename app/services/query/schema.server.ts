import type { ClusterApi } from '~/api/client.server'
import { dictionarySqlName, listDictionaries } from '~/api/dictionaries.server'
import { listFunctions } from '~/api/functions.server'
import { ClusterError } from '~/api/errors.server'
import { consoleRead, QueryError, runQuery } from '~/api/query.server'
import { listProjectsBriefly, pageOfTables, searchTables, tableChoice } from '~/api/table-search.server'
import { listTransforms } from '~/api/transforms.server'
import type { SchemaTreeData } from '~/utils/schema-tree'
import { isConsoleProject } from '~/utils/console-store'

export type SchemaColumn = { name: string; type: string; isPrimary: boolean }
export type SchemaTable = { uuid: string; project: string; name: string; columns: SchemaColumn[] }
export type SchemaFunction = { project: string; name: string; sql: string; description: string }
/** A dictionary as SQL sees it: the name dictGet takes, its key and its attributes. */
export type SchemaDictionary = {
  project: string
  name: string
  sqlName: string
  key: string[]
  attributes: string[]
  editUrl: string
}
export type Schema = { tables: SchemaTable[]; functions: SchemaFunction[]; dictionaries: SchemaDictionary[] }

/** A table's columns: every column of its transforms' output (the default transform's type wins). */
async function tableColumns(api: ClusterApi, projectId: string, tableId: string): Promise<SchemaColumn[]> {
  const transforms = await listTransforms(api, projectId, tableId)
  transforms.sort((a, b) => Number(Boolean(b.settings?.is_default)) - Number(Boolean(a.settings?.is_default)))
  const columns = new Map<string, SchemaColumn>()
  for (const transform of transforms) {
    for (const column of transform.settings?.output_columns ?? []) {
      if (!column?.name || columns.has(column.name) || column.datatype?.ignore) continue
      columns.set(column.name, {
        name: column.name,
        type: String(column.datatype?.type ?? ''),
        isPrimary: Boolean(column.datatype?.primary),
      })
    }
  }
  return [...columns.values()]
}

/** The most tables the reference page describes at once (each costs a read of its transforms). */
export const REFERENCE_TABLES = 20

/** A table of the reference page: its columns when they are read (`null`: a link away). */
export type ReferenceTable = Omit<SchemaTable, 'columns'> & { columns: SchemaColumn[] | null }

/** Up to this many tables, the reference page shows every table's columns (open). */
export const REFERENCE_OPEN = 3

/**
 * Up to this many projects in the org, the reference page lists every project's functions and
 * dictionaries; past it, those of the projects whose tables it describes (each project costs two
 * reads: 50 projects were 100 reads for a page that describes 20 tables; issue 33).
 */
export const REFERENCE_ALL_PROJECTS = 5

/**
 * The reference page's schema (issue 33): the table `tableId` asked for and the org's first tables
 * (REFERENCE_TABLES), with the columns of the one asked for (of each, when there are REFERENCE_OPEN
 * or fewer: a table's columns cost a read of its transforms, so the others are a link away), and the
 * functions and dictionaries of every project (REFERENCE_ALL_PROJECTS or fewer) or of the projects
 * of the tables described (`catalogProjects` names them then; null when every project's are listed).
 * `hasMore` when the org has more tables than it describes. Throws ClusterError.
 */
export async function loadReferenceSchema(
  api: ClusterApi,
  tableId: string | null,
): Promise<Omit<Schema, 'tables'> & { tables: ReferenceTable[]; hasMore: boolean; catalogProjects: string[] | null }> {
  const [projects, { choices, hasMore }, picked] = await Promise.all([
    // the console's own store is not the user's data (decision 105)
    listProjectsBriefly(api).then((all) => all.filter((project) => !isConsoleProject(project))),
    searchTables(api, '', REFERENCE_TABLES),
    tableChoice(api, tableId),
  ])
  const shown = picked && !choices.some((choice) => choice.uuid === picked.uuid) ? [picked, ...choices] : choices
  const described = new Set(shown.map((choice) => choice.projectId))
  const isEveryProject = projects.length <= REFERENCE_ALL_PROJECTS
  const catalogued = isEveryProject ? projects : projects.filter((project) => described.has(project.uuid))
  const [tables, functions, dictionaries] = await Promise.all([
    Promise.all(
      shown.map(async (choice): Promise<ReferenceTable> => ({
        uuid: choice.uuid,
        project: choice.project,
        name: choice.name,
        // the columns of the table asked for (or of each of a few): the others are a link away
        columns:
          choice.uuid === picked?.uuid || shown.length <= REFERENCE_OPEN
            ? await tableColumns(api, choice.projectId, choice.uuid)
            : null,
      })),
    ),
    Promise.all(
      catalogued.map(async (project) =>
        (await listFunctions(api, project.uuid)).map((fn): SchemaFunction => ({
          project: project.name,
          name: fn.name,
          sql: fn.sql ?? '',
          description: fn.description ?? '',
        })),
      ),
    ),
    Promise.all(
      catalogued.map(async (project) =>
        (await listDictionaries(api, project.uuid)).map((dictionary): SchemaDictionary => {
          const key = dictionary.settings?.primary_key ?? []
          return {
            project: project.name,
            name: dictionary.name,
            sqlName: dictionarySqlName(project.name, dictionary.name),
            key,
            attributes: (dictionary.settings?.output_columns ?? [])
              .map((column) => column.name)
              .filter((name) => !key.includes(name)),
            editUrl: `/data/dictionaries/${project.uuid}/${dictionary.uuid}/edit-dictionary`,
          }
        }),
      ),
    ),
  ])
  return {
    tables,
    functions: functions.flat(),
    dictionaries: dictionaries.flat(),
    hasMore,
    catalogProjects: isEveryProject ? null : catalogued.map((project) => project.name),
  }
}

/** The engine's function names (for autocomplete), or none when the cluster does not list them. */
export async function loadEngineFunctions(api: ClusterApi): Promise<string[]> {
  try {
    const answer = await runQuery(
      api,
      'SELECT name FROM system.functions ORDER BY name',
      consoleRead({ hdx_query_output_format: 'TSVRaw' }),
    )
    return answer.text.split('\n').filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  } catch (error) {
    if (error instanceof ClusterError || error instanceof QueryError) return []
    throw error
  }
}

/** The most tables of an open project the tree lists (the rest: the table picker's search finds them). */
export const TREE_TABLES = 100

/** One project's part of the tree: a page of its tables (names), its functions and dictionaries. Throws ClusterError. */
export async function loadProjectSchema(
  api: ClusterApi,
  project: { uuid: string; name: string },
): Promise<{
  tables: { uuid: string; name: string }[]
  tableCount: number
  functions: SchemaTreeData['functions']
  dictionaries: string[]
}> {
  const [{ tables, count }, functions, dictionaries] = await Promise.all([
    pageOfTables(api, project.uuid, 1, TREE_TABLES),
    listFunctions(api, project.uuid),
    listDictionaries(api, project.uuid),
  ])
  return {
    tables: tables
      .map((table) => ({ uuid: table.uuid, name: table.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    tableCount: count,
    functions: functions.map((fn) => ({ project: project.name, name: fn.name })),
    dictionaries: dictionaries.map((dictionary) => dictionarySqlName(project.name, dictionary.name)),
  }
}

/** A table's columns for the tree (name and type). Throws ClusterError. */
export async function loadTableColumns(api: ClusterApi, projectId: string, tableId: string) {
  return (await tableColumns(api, projectId, tableId)).map(({ name, type }) => ({ name, type }))
}

/**
 * The editor's schema tree as the URL opens it (issue 33, decision 062): the org's projects, and
 * only for the project `schema_project` its first tables, functions and dictionaries, and for the
 * table `schema_table` its columns. What it costs does not grow with the org's tables: the rest
 * loads when a project or table is opened (a link without scripts, /resources/schema with them).
 * Null when the cluster could not list the projects: the editor works without.
 */
export async function loadSchemaTree(api: ClusterApi, url?: URL): Promise<SchemaTreeData | null> {
  let projects: { uuid: string; name: string }[]
  try {
    // the console's own store is not the user's data (decision 105): SQL can still name it
    projects = (await listProjectsBriefly(api)).filter((project) => !isConsoleProject(project))
  } catch (error) {
    if (error instanceof ClusterError) return null
    throw error
  }
  const openProject = url?.searchParams.get('schema_project') ?? null
  const openTable = url?.searchParams.get('schema_table') ?? null
  const tree: SchemaTreeData = {
    projects: projects.map((project) => ({ uuid: project.uuid, name: project.name })),
    functions: [],
    dictionaries: [],
    openProject: null,
    openTable: null,
  }
  const open = tree.projects.find((project) => project.uuid === openProject)
  if (!open) return tree
  try {
    const [part, columns] = await Promise.all([
      loadProjectSchema(api, open),
      openTable ? loadTableColumns(api, open.uuid, openTable).catch(() => null) : null,
    ])
    open.tables = part.tables
    open.tableCount = part.tableCount
    tree.functions = part.functions
    tree.dictionaries = part.dictionaries
    tree.openProject = open.uuid
    const table = open.tables.find((entry) => entry.uuid === openTable)
    if (table && columns) {
      table.columns = columns
      tree.openTable = table.uuid
    }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
  }
  return tree
}
