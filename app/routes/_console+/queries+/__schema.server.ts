import type { ClusterApi } from '~/api/client.server'
import { dictionarySqlName, listDictionaries } from '~/api/dictionaries.server'
import { listFunctions } from '~/api/functions.server'
import { ClusterError } from '~/api/errors.server'
import { QueryError, runQuery } from '~/api/query.server'
import { onOrgChange } from '~/api/read-cache.server'
import { listProjectsWithTablesBriefly } from '~/api/tables.server'
import { listTransforms } from '~/api/transforms.server'
import type { SchemaTreeData } from './__schema-tree'

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

/**
 * What SQL can name in the org: every table with its columns (from its transforms), the custom
 * functions and the dictionaries of every project. Throws ClusterError as the calls it makes.
 */
export async function loadSchema(api: ClusterApi): Promise<Schema> {
  // the session's short-lived lists (the query picker beside it reads the same ones: one read for both)
  const projects = await listProjectsWithTablesBriefly(api)
  const [tables, functions, dictionaries] = await Promise.all([
    Promise.all(
      projects.flatMap(({ project, tables }) =>
        tables.map(async (table): Promise<SchemaTable> => ({
          uuid: table.uuid,
          project: project.name,
          name: table.name,
          columns: await tableColumns(api, project.uuid, table.uuid),
        })),
      ),
    ),
    Promise.all(
      projects.map(async ({ project }) => {
        const items = await listFunctions(api, project.uuid)
        return items.map((fn): SchemaFunction => ({
          project: project.name,
          name: fn.name,
          sql: fn.sql ?? '',
          description: fn.description ?? '',
        }))
      }),
    ),
    Promise.all(
      projects.map(async ({ project }) =>
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
  return { tables, functions: functions.flat(), dictionaries: dictionaries.flat() }
}

const SCHEMA_TTL_MS = 60_000
/** From this age a view answers with the schema kept and reads it again behind, one read at a time (decision 052). */
export const SCHEMA_REFRESH_MS = 45_000
const schemas = new Map<string, { at: number; value: Promise<Schema>; fingerprint: string; isRefreshing?: boolean }>()

// Any change through the console forgets the org's schemas, for every user of it (decision 060).
onOrgChange((orgId) => {
  for (const key of schemas.keys()) if (key.startsWith(`${orgId}:`)) schemas.delete(key)
})

/**
 * What the kept schema must still match to be shown: the org's projects and tables (names, ids and
 * when each last changed), read in every view anyway (the query picker; once per request). A table
 * made, renamed or dropped through any replica or any other client reads the schema again at once.
 */
export async function schemaFingerprint(api: ClusterApi): Promise<string> {
  const projects = await listProjectsWithTablesBriefly(api)
  return JSON.stringify(
    projects.map(({ project, tables }) => [
      project.uuid,
      project.name,
      project.modified ?? '',
      tables.map((table) => [table.uuid, table.name, table.modified ?? '']),
    ]),
  )
}

/**
 * loadSchema, kept up to a minute per org and user: the editor's tree and autocomplete read it on
 * every page, and listing every table's transforms each time would cost one call per table. Shown
 * only while the org's projects and tables are as they were when it was read (`fingerprint`), and
 * forgotten for the whole org when anything changes through this console (decision 060). A view in
 * the last quarter of that minute gets the schema kept and starts the next read, so views in steady
 * use never wait for the chain of reads it takes; a column changed through another replica (a
 * transform edit, tables unchanged) is never shown older than a minute.
 */
export async function loadSchemaCached(
  api: ClusterApi,
  load: () => Promise<Schema> = () => loadSchema(api),
  fingerprintOf: () => Promise<string> = () => schemaFingerprint(api),
): Promise<Schema> {
  const key = `${api.orgId}:${api.userId}`
  const fingerprint = await fingerprintOf()
  const now = Date.now()
  const hit = schemas.get(key)
  if (hit && now - hit.at < SCHEMA_TTL_MS && hit.fingerprint === fingerprint) {
    if (now - hit.at >= SCHEMA_REFRESH_MS && !hit.isRefreshing) {
      hit.isRefreshing = true
      const next = load()
      next.then(
        () => {
          if (schemas.get(key) === hit) schemas.set(key, { at: now, value: next, fingerprint })
        },
        // kept as it is until its minute is up; the next view tries again
        () => (hit.isRefreshing = false),
      )
    }
    return hit.value
  }
  for (const [other, entry] of schemas) if (now - entry.at >= SCHEMA_TTL_MS) schemas.delete(other)
  const value = load()
  schemas.set(key, { at: now, value, fingerprint })
  value.catch(() => {
    if (schemas.get(key)?.value === value) schemas.delete(key)
  })
  return value
}

/** Forgets every cached schema (tests). */
export function clearSchemaCache() {
  schemas.clear()
}

/** The engine's function names (for autocomplete), or none when the cluster does not list them. */
export async function loadEngineFunctions(api: ClusterApi): Promise<string[]> {
  try {
    const answer = await runQuery(api, 'SELECT name FROM system.functions ORDER BY name', {
      hdx_query_output_format: 'TSVRaw',
    })
    return answer.text.split('\n').filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  } catch (error) {
    if (error instanceof ClusterError || error instanceof QueryError) return []
    throw error
  }
}

/** The most columns the tree carries in a page; beyond, tables are listed without their columns. */
const TREE_MAX_COLUMNS = 3000

/** The editor's schema tree (cached a minute), or null when the cluster could not list it: the editor works without. */
export async function loadSchemaTree(api: ClusterApi): Promise<SchemaTreeData | null> {
  let schema: Schema
  try {
    schema = await loadSchemaCached(api)
  } catch (error) {
    if (error instanceof ClusterError) return null
    throw error
  }
  let budget = TREE_MAX_COLUMNS
  const projects = new Map<string, SchemaTreeData['projects'][number]>()
  for (const table of schema.tables) {
    let project = projects.get(table.project)
    if (!project) projects.set(table.project, (project = { name: table.project, tables: [] }))
    const columns = budget >= table.columns.length ? table.columns.map(({ name, type }) => ({ name, type })) : []
    budget -= columns.length
    project.tables.push({ uuid: table.uuid, name: table.name, columns })
  }
  return {
    projects: [...projects.values()],
    functions: schema.functions.map(({ project, name }) => ({ project, name })),
    dictionaries: schema.dictionaries.map((dictionary) => dictionary.sqlName),
  }
}
