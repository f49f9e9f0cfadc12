import type { ClusterApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { listPerProject, type Project } from '~/api/projects.server'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { catalogProjects, projectFilterOf, type ProjectWindow } from '~/utils/catalog-projects'

/**
 * One page of a Data catalog list across projects (dictionaries, functions, files; issue 33,
 * decision 088): the projects the URL's filter, search and window pick, each read with `listOne`,
 * its items as rows (`rowOf`) kept when their name holds the search, then the page the URL asks
 * for. A chosen project is read alone; a large org a window of projects at a time. Throws as
 * loadFromCluster (the error boundary shows a failed read).
 */
export async function loadCatalogList<T, R extends { name: string }>(
  api: ClusterApi,
  url: URL,
  listOne: (projectId: string) => Promise<T[]>,
  rowOf: (item: T, project: Project) => R,
) {
  const paging = parsePaging(url)
  const project = projectFilterOf(url)
  const scope = { projectWindow: null as ProjectWindow | null }
  const { projects, entries } = await loadFromCluster(() =>
    listPerProject(api, listOne, (all) => {
      const { shown, window } = catalogProjects(all, { project, q: paging.q, url })
      scope.projectWindow = window
      return shown
    }),
  )
  const needle = paging.q.toLowerCase()
  const rows = entries
    .flatMap(({ project, items }) => items.map((item) => rowOf(item, project)))
    .filter((row) => !needle || row.name.toLowerCase().includes(needle))
  return {
    ...listPage(rows, paging),
    project,
    projects: projects.map((item) => ({ uuid: item.uuid, name: item.name })),
    /** The window of projects read when the org is read a window at a time (decision 088), else null. */
    projectWindow: scope.projectWindow,
    /** The project filtered on, by name (null without a filter or when no project has that id). */
    projectName: project ? (entries[0]?.project.name ?? null) : null,
    /** The items counted: the org's, or the filtered project's. */
    itemCount: entries.reduce((sum, entry) => sum + entry.items.length, 0),
  }
}
