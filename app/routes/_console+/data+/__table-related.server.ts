import { getOrgSummary } from '~/api/orgs.server'
import type { ClusterApi } from '~/api/client.server'
import { readPart } from '~/api/part-read.server'
import { settle } from '~/api/policies.server'
import { listAll } from '~/api/list-all.server'
import { cachedRead } from '~/api/read-cache.server'
import { listProjectsBriefly } from '~/api/table-search.server'
import type { Table } from '~/api/tables.server'
import type { Project } from '~/api/projects.server'
import { listViews } from '~/api/views.server'

/** The summary tables whose SQL reads `project.table` (the cluster records it in `settings.summary.parents`). */
function feeds(candidate: Table, parentName: string): boolean {
  const summary = candidate.settings?.summary as { parents?: unknown; sql?: unknown } | null | undefined
  if (!summary) return false
  if (Array.isArray(summary.parents)) return summary.parents.includes(parentName)
  return typeof summary.sql === 'string' && summary.sql.includes(parentName)
}

/**
 * What hangs off a table, for its page: its views and the summary tables it feeds. Each is a
 * bonus panel: a failure, or a role that may not read it, shows in that panel; the page stays.
 */
export async function loadTableRelated(api: ClusterApi, table: Table, project: Pick<Project, 'uuid' | 'name'>) {
  const [views, summaries] = await Promise.all([
    readPart(async () =>
      (await listViews(api, project.uuid, table.uuid)).map((view) => ({
        uuid: view.uuid,
        name: view.name,
        columns: view.settings?.output_columns?.length ?? 0,
      })),
    ),
    readPart(async () => {
      const parentName = `${project.name}.${table.name}`
      // an org without summary tables (the org summary's `summary_tables`, one read) has none to
      // list: no read per project (issue 33: 50 projects, 50 reads). A summary without the count
      // (its shape on a real cluster is not known) or that fails: every project is asked, as before.
      const { value: summary } = await settle(() => getOrgSummary(api))
      if (summary?.summary_tables === 0) return []
      // each project's summary tables (`?type=summary`; a cluster that ignores the filter answers
      // every table, and they are filtered here too), from the session's short read cache
      const projects = await listProjectsBriefly(api)
      const all = await Promise.all(
        projects.map(async (entry) => ({
          project: entry,
          tables: await cachedRead(api, `summaries:${entry.uuid}`, () =>
            listAll<Table>(api, `/orgs/${api.orgId}/projects/${encodeURIComponent(entry.uuid)}/tables/?type=summary`),
          ),
        })),
      )
      return all.flatMap((entry) =>
        entry.tables
          .filter((candidate) => candidate.type === 'summary' && feeds(candidate, parentName))
          .map((candidate) => ({
            uuid: candidate.uuid,
            name: `${entry.project.name}.${candidate.name}`,
            projectId: entry.project.uuid,
          })),
      )
    }),
  ])
  return { views, summaries }
}
