import type { ClusterApi } from './client.server'
import { transformOf, transformValue } from '~/schemas/job'
import { DEFAULT_TRANSFORM, type TableTransformOption } from '~/utils/table-transform'
import { listAll } from './list-all.server'
import { learnTableProject, listProjectsWithTables } from './tables.server'
import { listProjectsBriefly, searchTables, type TableSearch } from './table-search.server'
import { withoutConsoleProject } from '~/utils/console-store'

export type TransformColumn = {
  name: string
  datatype?: { type?: string; primary?: boolean; index?: boolean; format?: string; [key: string]: unknown }
}

/** A transform as the cluster returns it (cluster-api.md 3.4). */
export type Transform = {
  uuid: string
  name: string
  description?: string | null
  type?: 'csv' | 'json' | 'hdx' | string
  table?: string
  created?: string
  modified?: string
  settings?: {
    is_default?: boolean
    compression?: string
    output_columns?: TransformColumn[]
    [key: string]: unknown
  }
}

const transformsPath = (api: ClusterApi, projectId: string, tableId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}/transforms/`

/** Returns every transform of a table, sorted by name; throws ClusterError. */
export async function listTransforms(api: ClusterApi, projectId: string, tableId: string): Promise<Transform[]> {
  const transforms = await listAll<Transform>(api, transformsPath(api, projectId, tableId))
  return transforms.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one transform; throws ClusterError (404 when there is none). */
export function getTransform(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  transformId: string,
): Promise<Transform> {
  return api.get<Transform>(`${transformsPath(api, projectId, tableId)}${encodeURIComponent(transformId)}`)
}

/** The body the console sends to create or update a transform. */
export type TransformBody = {
  name: string
  description?: string
  type: string
  settings: Record<string, unknown>
}

/** Creates a transform on a table; throws ClusterError (400 with field errors such as `settings.output_columns[0].datatype.format`). */
export function createTransform(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  body: TransformBody,
): Promise<Transform> {
  return api.post<Transform>(transformsPath(api, projectId, tableId), body)
}

/** Replaces a transform; throws ClusterError. */
export function updateTransform(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  transformId: string,
  body: TransformBody,
): Promise<Transform> {
  return api.put<Transform>(`${transformsPath(api, projectId, tableId)}${encodeURIComponent(transformId)}`, body)
}

/** Deletes a transform; throws ClusterError. */
export function deleteTransform(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  transformId: string,
): Promise<void> {
  return api.del(`${transformsPath(api, projectId, tableId)}${encodeURIComponent(transformId)}`)
}

/** What the cluster's `/validator` answers: the rows as they would be stored, and the rows it refused. */
export type ValidatorResult = {
  code?: number
  message?: string
  num_rows?: number
  num_valid?: number
  num_errors?: number
  columns?: { name: string; type: string; primary?: boolean }[]
  rows?: Record<string, unknown>[]
  errors?: { row: number; message: string }[]
}

/**
 * Sends a transform and sample data to the cluster's `/validator` (`x-hdx-test: true`: nothing is
 * stored) and returns its answer; throws ClusterError (a 400 says why the data could not be parsed).
 */
export async function validateTransform(
  api: ClusterApi,
  target: { table: string },
  transform: { name?: string; type: string; settings: Record<string, unknown> },
  data: string,
): Promise<ValidatorResult> {
  const response = await api.stream('POST', '/validator', {
    // a test of the transform: nothing is stored, no kept read is forgotten
    isRead: true,
    body: JSON.stringify({ transform, data }),
    headers: { 'content-type': 'application/json', 'x-hdx-table': target.table, 'x-hdx-test': 'true' },
    accept: 'application/json',
  })
  const text = await response.text()
  try {
    return JSON.parse(text) as ValidatorResult
  } catch {
    return { message: text }
  }
}

/** What `/ingest/event` answers when the rows were stored. */
export type IngestResult = { code?: number; message?: string; rows?: number; table?: string; transform?: string }

/**
 * Sends rows to the table through one of its transforms (`POST /ingest/event`, the HTTP stream
 * ingest) and returns the cluster's answer; throws ClusterError (a 400 says which rows did not map).
 */
export async function ingestRows(
  api: ClusterApi,
  tableRef: string,
  transformName: string,
  body: string,
  type: 'csv' | 'json',
): Promise<IngestResult> {
  const response = await api.stream('POST', '/ingest/event', {
    body,
    headers: {
      'content-type': type === 'csv' ? 'text/csv' : 'application/json',
      'x-hdx-table': tableRef,
      'x-hdx-transform': transformName,
    },
    accept: 'application/json',
  })
  const text = await response.text()
  try {
    return JSON.parse(text) as IngestResult
  } catch {
    return { message: text }
  }
}

export type { TableTransformOption, TransformChoice } from '~/utils/table-transform'

/** Every table of the org with its transforms, as the batch job and pool forms offer them. Throws ClusterError. */
export async function listTableTransformOptions(api: ClusterApi): Promise<TableTransformOption[]> {
  // the console's own store is written by the console alone: no picker offers it
  const projects = withoutConsoleProject(await listProjectsWithTables(api))
  return Promise.all(
    projects.flatMap(({ project, tables }) =>
      tables.map(async (table) => {
        const value = `${project.name}.${table.name}`
        const transforms = await listTransforms(api, project.uuid, table.uuid)
        return {
          value,
          transforms: transforms.map((transform) => ({
            value: transformValue(value, transform.name),
            name: transform.name,
            type: transform.type ?? '',
            isDefault: Boolean(transform.settings?.is_default),
          })),
        }
      }),
    ),
  )
}

/**
 * One table (`project.table`) with its transforms as a form option, or null when the org has none
 * by that name: two reads (the table by name, its transforms), whatever the org's size. Throws ClusterError.
 */
export async function tableTransformOption(api: ClusterApi, value: string): Promise<TableTransformOption | null> {
  const dot = value.indexOf('.')
  if (dot <= 0) return null
  const projectName = value.slice(0, dot)
  const tableName = value.slice(dot + 1)
  const project = (await listProjectsBriefly(api)).find((entry) => entry.name === projectName)
  if (!project) return null
  const answer = await api.list<{ uuid: string; name: string }>(
    `/orgs/${api.orgId}/projects/${encodeURIComponent(project.uuid)}/tables/`,
    { params: { name: tableName } },
  )
  const table = answer.results.find((entry) => entry.name === tableName)
  if (!table) return null
  learnTableProject(table.uuid, project.uuid)
  return { value, transforms: await transformOptionsOf(api, project.uuid, table.uuid, value) }
}

async function transformOptionsOf(api: ClusterApi, projectId: string, tableId: string, value: string) {
  const transforms = await listTransforms(api, projectId, tableId)
  return transforms.map((transform) => ({
    value: transformValue(value, transform.name),
    name: transform.name,
    type: transform.type ?? '',
    isDefault: Boolean(transform.settings?.is_default),
  }))
}

/** The most tables a form that offers their transforms lists (each costs a read of its transforms). */
export const TRANSFORM_PICKER_LIMIT = 20

/** A list this short has every table's transforms read (a search that found the table wanted). */
export const TRANSFORMS_READ_UP_TO = 3

/**
 * The tables a form that picks a table and one of its transforms offers (issue 33, decisions 062
 * and 085): those the search `?table_q=` finds (at most TRANSFORM_PICKER_LIMIT) and the table
 * `?table=project.table` chosen, found by name whether or not the search lists it. Transforms are
 * read for the chosen table (else, with `pickFirst`, the first one listed: the form preselects it),
 * or for every table when the list holds TRANSFORMS_READ_UP_TO or fewer; the others' are read when
 * picked. One read of transforms, not twenty, whatever the org's size. Throws ClusterError.
 */
export async function loadTableTransformPick(
  api: ClusterApi,
  url: URL,
  { pickFirst = false }: { pickFirst?: boolean } = {},
): Promise<{ options: TableTransformOption[]; search: TableSearch; chosen: TableTransformOption | null }> {
  const q = (url.searchParams.get('table_q') ?? '').trim()
  const wanted = url.searchParams.get('table') ?? ''
  const [{ choices, hasMore }, chosen] = await Promise.all([
    searchTables(api, q, TRANSFORM_PICKER_LIMIT),
    wanted ? tableTransformOption(api, wanted) : null,
  ])
  const listed = chosen ? choices.filter((choice) => `${choice.project}.${choice.name}` !== chosen.value) : choices
  const count = listed.length + (chosen ? 1 : 0)
  const options = await Promise.all(
    listed.map(async (choice, index): Promise<TableTransformOption> => {
      const value = `${choice.project}.${choice.name}`
      const isRead = count <= TRANSFORMS_READ_UP_TO || (!chosen && pickFirst && index === 0)
      return { value, transforms: isRead ? await transformOptionsOf(api, choice.projectId, choice.uuid, value) : null }
    }),
  )
  if (chosen) {
    // in the search's order when it lists the table, else first
    const at = choices.findIndex((choice) => `${choice.project}.${choice.name}` === chosen.value)
    options.splice(at < 0 ? 0 : at, 0, chosen)
  }
  return {
    options,
    search: { q, choices, hasMore, selected: null },
    chosen: chosen ?? (pickFirst ? (options[0] ?? null) : null),
  }
}

/**
 * The transform a form sent for `table` (`project.table:name`), by name: `project.table:*` is the
 * table's default transform (else its first), read now; null when it is not one of the table's or the
 * table has none (or does not exist). Throws ClusterError.
 */
export async function sentTransform(api: ClusterApi, table: string, value: string): Promise<string | null> {
  const name = transformOf(table, value)
  if (name !== DEFAULT_TRANSFORM) return name
  const option = await tableTransformOption(api, table)
  const transforms = option?.transforms ?? []
  return (transforms.find((transform) => transform.isDefault) ?? transforms[0])?.name ?? null
}
