import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** A project as the cluster returns it (cluster-api.md 3.1). */
export type Project = {
  uuid: string
  name: string
  description?: string | null
  org?: string
  url?: string
  created?: string
  modified?: string
  settings?: Record<string, unknown>
}

export type NewProject = { name: string; description?: string }

const projectsPath = (api: ClusterApi) => `/orgs/${api.orgId}/projects/`

/** Returns every project of the active org, sorted by name; throws ClusterError. */
export async function listProjects(api: ClusterApi): Promise<Project[]> {
  const projects = await listAll<Project>(api, projectsPath(api))
  return projects.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Returns every project of the org, and what `listOne` reads for each project `pick` keeps (the
 * cluster has no org-wide list of a project's functions or dictionaries: one read per project; a
 * list page picks one project, or a window of them: issue 33, decision 088). Throws ClusterError.
 */
export async function listPerProject<T>(
  api: ClusterApi,
  listOne: (projectId: string) => Promise<T[]>,
  pick: (projects: Project[]) => Project[] = (projects) => projects,
): Promise<{ projects: Project[]; entries: { project: Project; items: T[] }[] }> {
  const projects = await listProjects(api)
  const entries = await Promise.all(
    pick(projects).map(async (project) => ({ project, items: await listOne(project.uuid) })),
  )
  return { projects, entries }
}

/** Returns one project; throws ClusterError (404 when there is none). */
export function getProject(api: ClusterApi, projectId: string): Promise<Project> {
  return api.get<Project>(`${projectsPath(api)}${encodeURIComponent(projectId)}`)
}

/** Creates a project and returns it; throws ClusterError (400 with field errors). */
export function createProject(api: ClusterApi, project: NewProject): Promise<Project> {
  return api.post<Project>(projectsPath(api), {
    name: project.name,
    ...(project.description ? { description: project.description } : {}),
  })
}

/** Deletes a project; throws ClusterError. */
export function deleteProject(api: ClusterApi, projectId: string): Promise<void> {
  return api.del(`${projectsPath(api)}${encodeURIComponent(projectId)}`)
}

/** Changes a project's name and description; returns it; throws ClusterError (400 with field errors). */
export function updateProject(
  api: ClusterApi,
  projectId: string,
  changes: { name: string; description: string },
): Promise<Project> {
  return api.patch<Project>(`${projectsPath(api)}${encodeURIComponent(projectId)}`, changes)
}

/** A project's storage figures summed over its tables (`projects/{p}/stats`). */
export type ProjectStats = {
  tables?: number
  total_rows?: number
  total_partitions?: number
  compressed_data_size?: number
  raw_data_size?: number
}

/** Returns a project's figures; throws ClusterError. */
export function getProjectStats(api: ClusterApi, projectId: string): Promise<ProjectStats> {
  return api.get<ProjectStats>(`${projectsPath(api)}${encodeURIComponent(projectId)}/stats`)
}

/** The names of a project's dictionaries (what a project delete takes with it); throws ClusterError. */
export async function listProjectDictionaryNames(api: ClusterApi, projectId: string): Promise<string[]> {
  const dictionaries = await listAll<{ name: string }>(
    api,
    `${projectsPath(api)}${encodeURIComponent(projectId)}/dictionaries/`,
  )
  return dictionaries.map((dictionary) => dictionary.name).sort()
}
