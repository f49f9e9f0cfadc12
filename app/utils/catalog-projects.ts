/*
 * Which projects a Data catalog list (dictionaries, functions, files) reads (issue 33, decision 088).
 * The cluster lists these per project only: one read per project. A chosen project is read alone;
 * a search reads every project (it must find a name wherever it is); an org of up to
 * CATALOG_PROJECTS_PER_PAGE projects is read whole. A larger org without a filter is read a window
 * of CATALOG_PROJECTS_PER_PAGE projects at a time, in name order: `?projects=N` is the window, kept
 * in the URL so it works without scripts and deep-links.
 */

/** Reads the project filter from a list URL: a project uuid, or '' for every project. */
export function projectFilterOf(url: URL): string {
  return (url.searchParams.get('project') ?? '').trim()
}

/** How many projects an unfiltered catalog list reads at once. */
export const CATALOG_PROJECTS_PER_PAGE = 5

/** The window of projects a list shows: its number (1-based) of `count`, and the projects it spans. */
export type ProjectWindow = {
  index: number
  count: number
  /** 1-based positions of its first and last project in the org's name order, of `total` */
  from: number
  to: number
  total: number
  firstName: string
  lastName: string
}

/**
 * The projects to read for a list, and the window when the list is read a window at a time.
 * `projects` is the org's, in name order; `project` the filter's id ('' for all); `q` the search.
 */
export function catalogProjects<P extends { uuid: string; name: string }>(
  projects: P[],
  { project, q, url }: { project: string; q: string; url: URL },
): { shown: P[]; window: ProjectWindow | null } {
  if (project) return { shown: projects.filter((item) => item.uuid === project), window: null }
  if (q || projects.length <= CATALOG_PROJECTS_PER_PAGE) return { shown: projects, window: null }
  const count = Math.ceil(projects.length / CATALOG_PROJECTS_PER_PAGE)
  const asked = Number(url.searchParams.get('projects'))
  const index = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, count) : 1
  const start = (index - 1) * CATALOG_PROJECTS_PER_PAGE
  const shown = projects.slice(start, start + CATALOG_PROJECTS_PER_PAGE)
  return {
    shown,
    window: {
      index,
      count,
      from: start + 1,
      to: start + shown.length,
      total: projects.length,
      firstName: shown[0]!.name,
      lastName: shown[shown.length - 1]!.name,
    },
  }
}

/** "projects 11–20 of 51 (scale_09 to scale_18)" */
export function windowText(window: ProjectWindow): string {
  return `projects ${window.from}–${window.to} of ${window.total} (${window.firstName} to ${window.lastName})`
}

/** Where a list's rows come from: "project web", "projects 1–10 of 51 (…)" or "3 projects". */
export function scopeText(data: {
  project: string
  projectName: string | null
  projectWindow: ProjectWindow | null
  projects: unknown[]
}): string {
  if (data.project) return `project ${data.projectName ?? '(none)'}`
  if (data.projectWindow) return windowText(data.projectWindow)
  return `${data.projects.length} ${data.projects.length === 1 ? 'project' : 'projects'}`
}
