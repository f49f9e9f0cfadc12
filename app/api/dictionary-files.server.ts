import type { ClusterApi } from './client.server'
import { listProjects, type Project } from './projects.server'

/**
 * A dictionary file. A real cluster lists names only (cluster-api.md 5); with `?detail=1` the local
 * cluster adds size, type and times, which are shown when given.
 */
export type DictionaryFile = { name: string; size?: number; content_type?: string; created?: string; modified?: string }

const filesPath = (api: ClusterApi, projectId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/dictionaries/files`

/** Returns a project's dictionary files, sorted by name (bare names become `{ name }`); throws ClusterError. */
export async function listDictionaryFiles(api: ClusterApi, projectId: string): Promise<DictionaryFile[]> {
  const page = await api.list<string | DictionaryFile>(filesPath(api, projectId), { params: { detail: 1 } })
  return page.results
    .map((file) => (typeof file === 'string' ? { name: file } : file))
    .filter((file) => typeof file.name === 'string')
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns every project with its files; throws ClusterError. */
export async function listProjectsWithFiles(api: ClusterApi): Promise<{ project: Project; files: DictionaryFile[] }[]> {
  const projects = await listProjects(api)
  return Promise.all(
    projects.map(async (project) => ({ project, files: await listDictionaryFiles(api, project.uuid) })),
  )
}

/**
 * Uploads `file` as `name` into a project (multipart `file` + `name`, cluster-api.md 5); with
 * `replace` it replaces the named file's contents. The Blob may be backed by a file on disk
 * (`fs.openAsBlob`), so the bytes stream to the cluster without being held in memory. Throws ClusterError.
 */
export async function uploadDictionaryFile(
  api: ClusterApi,
  projectId: string,
  name: string,
  file: Blob,
  options: { replace?: boolean } = {},
): Promise<DictionaryFile> {
  const form = new FormData()
  form.append('name', name)
  form.append('file', file, name)
  const path = options.replace
    ? `${filesPath(api, projectId)}/${encodeURIComponent(name)}`
    : `${filesPath(api, projectId)}/`
  return options.replace ? api.put<DictionaryFile>(path, form) : api.post<DictionaryFile>(path, form)
}

/** Returns the cluster's answer for a file's bytes, unread, to stream to the browser; throws ClusterError. */
export function downloadDictionaryFile(api: ClusterApi, projectId: string, name: string): Promise<Response> {
  return api.stream('GET', `/config/v1${filesPath(api, projectId)}/${encodeURIComponent(name)}`)
}

/** Deletes a file; the cluster refuses (400) while a dictionary reads it. Throws ClusterError. */
export function deleteDictionaryFile(api: ClusterApi, projectId: string, name: string): Promise<void> {
  return api.del(`${filesPath(api, projectId)}/${encodeURIComponent(name)}`)
}
