import type { ClusterApi } from '~/api/client.server'
import { listProjects } from '~/api/projects.server'
import { listTables, type Table } from '~/api/tables.server'
import { tableUrl } from './__table-url'

/** What a summary table's page shows of where its rows come from (issue 54, point 9). */
export type SummarySource = {
  sql: string
  /** Each source (parent) table as `project.table`, with its page when the cluster still has it. */
  sources: { ref: string; to: string | null }[]
}

/**
 * A summary table's SQL and source tables (`settings.summary.parents`, else the SQL's FROM), each
 * linked to its page when found; null for a table that is not a summary. Throws ClusterError.
 */
export async function loadSummarySource(api: ClusterApi, table: Table): Promise<SummarySource | null> {
  if (table.type !== 'summary') return null
  const summary = (table.settings?.summary ?? {}) as { sql?: unknown; parents?: unknown }
  const sql = typeof summary.sql === 'string' ? summary.sql : ''
  const fromSql = /\bFROM\s+`?([A-Za-z0-9_]+)`?\s*\.\s*`?([A-Za-z0-9_]+)/i.exec(sql)
  const refs = Array.isArray(summary.parents)
    ? summary.parents.filter((parent): parent is string => typeof parent === 'string')
    : fromSql
      ? [`${fromSql[1]}.${fromSql[2]}`]
      : []
  const projects = refs.length ? await listProjects(api) : []
  const sources = await Promise.all(
    refs.map(async (ref) => {
      const [projectName, tableName] = ref.split('.')
      const project = projects.find((candidate) => candidate.name === projectName)
      const found = project ? (await listTables(api, project.uuid)).find((t) => t.name === tableName) : undefined
      return { ref, to: project && found ? tableUrl(found.uuid, project.uuid) : null }
    }),
  )
  return { sql, sources }
}
