import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** One column of a dictionary's schema definition (cluster-api.md 5); other keys are kept as given. */
export type DictionaryColumn = {
  name: string
  datatype: { type: string; [key: string]: unknown }
  [key: string]: unknown
}

/** A dictionary as the cluster returns it (cluster-api.md 5). */
export type Dictionary = {
  uuid: string
  name: string
  description?: string | null
  project?: string
  created?: string
  modified?: string
  settings?: {
    filename?: string
    format?: string
    layout?: string
    lifetime_seconds?: number
    primary_key?: string[]
    output_columns?: DictionaryColumn[]
    load_level?: string | null
    [key: string]: unknown
  }
}

export type DictionaryInput = {
  name: string
  description?: string
  filename: string
  format: string
  layout: string
  lifetimeSeconds?: number
  primaryKey: string[]
  outputColumns: DictionaryColumn[]
  loadLevel?: string
}

const dictionariesPath = (api: ClusterApi, projectId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/dictionaries/`

/** Returns every dictionary of a project, sorted by name; throws ClusterError. */
export async function listDictionaries(api: ClusterApi, projectId: string): Promise<Dictionary[]> {
  const dictionaries = await listAll<Dictionary>(api, dictionariesPath(api, projectId))
  return dictionaries.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one dictionary; throws ClusterError (404 when there is none). */
export function getDictionary(api: ClusterApi, projectId: string, dictionaryId: string): Promise<Dictionary> {
  return api.get<Dictionary>(`${dictionariesPath(api, projectId)}${encodeURIComponent(dictionaryId)}`)
}

/** The request body the form's values make (a full dictionary). */
export function dictionaryBody(dictionary: DictionaryInput) {
  return {
    name: dictionary.name,
    description: dictionary.description ?? '',
    settings: {
      filename: dictionary.filename,
      format: dictionary.format,
      layout: dictionary.layout,
      ...(dictionary.lifetimeSeconds !== undefined ? { lifetime_seconds: dictionary.lifetimeSeconds } : {}),
      primary_key: dictionary.primaryKey,
      output_columns: dictionary.outputColumns,
      load_level: dictionary.loadLevel || null,
    },
  }
}

/** Creates a dictionary (the cluster loads its file at once) and returns it; throws ClusterError. */
export function createDictionary(api: ClusterApi, projectId: string, dictionary: DictionaryInput): Promise<Dictionary> {
  return api.post<Dictionary>(dictionariesPath(api, projectId), dictionaryBody(dictionary))
}

/**
 * Replaces a dictionary's fields and settings with `body` (the stored dictionary with the changed
 * fields written onto it, decision 073); throws ClusterError.
 */
export function updateDictionary(
  api: ClusterApi,
  projectId: string,
  dictionaryId: string,
  body: Record<string, unknown>,
): Promise<Dictionary> {
  return api.put<Dictionary>(`${dictionariesPath(api, projectId)}${encodeURIComponent(dictionaryId)}`, body)
}

/** Deletes a dictionary; throws ClusterError. */
export function deleteDictionary(api: ClusterApi, projectId: string, dictionaryId: string): Promise<void> {
  return api.del(`${dictionariesPath(api, projectId)}${encodeURIComponent(dictionaryId)}`)
}

/** The name a dictionary answers to in SQL (`dictGet('{project}_{name}', …)`, cluster-api.md 5). */
export function dictionarySqlName(projectName: string, dictionaryName: string): string {
  return `${projectName}_${dictionaryName}`
}
