import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { loadFromCluster, nullOnMissing, replyFromCluster } from '~/api/policies.server'
import { consoleRead, QueryError, runQuery } from '~/api/query.server'
import { createSummaryTable, getTable, listProjectsWithTables, replaceTable, type Table } from '~/api/tables.server'
import { listTransforms } from '~/api/transforms.server'
import { AUTO_VIEW, listViews } from '~/api/views.server'
import type { Project } from '~/api/projects.server'
import {
  buildSummarySql,
  ColumnAnalysisSchema,
  SUMMARY_MESSAGES,
  SummaryFormSchema,
  SummarySettingsSchema,
} from '~/schemas/summary'
import { tableRef } from '~/utils/sql'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'
import { withoutConsoleProject } from '~/utils/console-store'

/** Where the cluster's summary-table fields show on the forms. */
const SUMMARY_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.summary.sql': 'sql',
  'settings.summary': 'sql',
}

export type ParentChoice = { value: string; label: string; projectName: string; tableName: string }

/** Every table that can feed a summary (not a summary itself), as `<projectId>/<tableId>`; and the projects. */
export async function loadSummaryChoices(api: ClusterApi) {
  const all = withoutConsoleProject(await listProjectsWithTables(api))
  const parents: ParentChoice[] = all.flatMap(({ project, tables }) =>
    tables
      .filter((table) => table.type !== 'summary')
      .map((table) => ({
        value: `${project.uuid}/${table.uuid}`,
        label: `${project.name}.${table.name}`,
        projectName: project.name,
        tableName: table.name,
      })),
  )
  return { parents, projects: all.map(({ project }) => ({ uuid: project.uuid, name: project.name })) }
}

/** Finds a parent choice by `<projectId>/<tableId>` or a bare table id. */
export function findParent(parents: ParentChoice[], wanted: string | null): ParentChoice | undefined {
  if (!wanted) return undefined
  return parents.find((parent) => parent.value === wanted || parent.value.endsWith(`/${wanted}`))
}

export type ParentColumn = { name: string; type: string; primary: boolean }

/** A parent table's columns: its auto_view's, or its transforms' when it has none. */
export async function loadParentColumns(api: ClusterApi, value: string): Promise<ParentColumn[]> {
  const [projectId, tableId] = value.split('/') as [string, string]
  const views = (await nullOnMissing(() => listViews(api, projectId, tableId))) ?? []
  let columns = views.find((view) => view.name === AUTO_VIEW)?.settings?.output_columns
  if (!columns) {
    const transforms = (await nullOnMissing(() => listTransforms(api, projectId, tableId))) ?? []
    const seen = new Set<string>()
    columns = transforms
      .flatMap((transform) => transform.settings?.output_columns ?? [])
      .filter((column) => !seen.has(column.name) && seen.add(column.name))
  }
  return columns.map((column) => ({
    name: column.name,
    type: column.datatype?.type ?? '',
    primary: Boolean(column.datatype?.primary),
  }))
}

/** Does the SQL read FROM the parent (`project.table`, quoted or not)? */
function readsFrom(sql: string, parent: ParentChoice): boolean {
  const part = (name: string) => `\`?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?`
  return new RegExp(`\\bFROM\\s+${part(parent.projectName)}\\s*\\.\\s*${part(parent.tableName)}(?![\\w])`, 'i').test(
    sql,
  )
}

/**
 * Runs the summary SQL on the cluster without reading rows (`SELECT * FROM (<sql>) LIMIT 0`, its
 * SETTINGS moved outside) and returns the engine's complaint, or null when it runs.
 */
export async function checkSummarySql(api: ClusterApi, sql: string): Promise<string | null> {
  const match = /\s+SETTINGS\s+([\s\S]*?);?\s*$/i.exec(sql)
  const body = match ? sql.slice(0, match.index) : sql.replace(/;\s*$/, '')
  try {
    await runQuery(api, `SELECT * FROM (${body}) LIMIT 0`, consoleRead())
    return null
  } catch (error) {
    if (error instanceof QueryError) return `The cluster refused the SQL: ${error.message}`
    if (error instanceof ClusterError && error.status === 400) return `The cluster refused the SQL: ${error.message}`
    throw error
  }
}

/** Creates a summary table after the SQL ran on the cluster; redirects to it with a toast. */
export async function createSummaryAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SummaryFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { project, name, description, parent: parentValue, sql } = submission.value
  const { parents, projects } = await loadFromCluster(() => loadSummaryChoices(api))
  const parent = findParent(parents, parentValue)
  const fieldErrors: Record<string, string[]> = {}
  if (!projects.some((candidate) => candidate.uuid === project)) fieldErrors.project = ['Project is required']
  if (!parent) fieldErrors.parent = [SUMMARY_MESSAGES.parentRequired]
  else if (!readsFrom(sql, parent)) fieldErrors.sql = [SUMMARY_MESSAGES.sqlNotFromParent(parent.label)]
  if (Object.keys(fieldErrors).length) return data({ result: submission.reply({ fieldErrors }) }, { status: 400 })
  const refusal = await loadFromCluster(() => checkSummarySql(api, sql))
  if (refusal) return data({ result: submission.reply({ fieldErrors: { sql: [refusal] } }) }, { status: 400 })
  try {
    const created = await createSummaryTable(api, project, { name, description, sql })
    return redirectWithToast(tableUrl(created.uuid, project), {
      title: `Summary table ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: SUMMARY_FIELDS })
  }
}

/** The summary table an edit route is about: its SQL, enabled flag and parent (from `summary.parents`). */
export async function loadSummaryTable(api: ClusterApi, table: Table, project: Pick<Project, 'uuid' | 'name'>) {
  if (table.type !== 'summary')
    throw data({ message: `${table.name} is not a summary table` }, { status: 404, statusText: 'Not Found' })
  const summary = (table.settings?.summary ?? {}) as { sql?: string; enabled?: boolean; parents?: string[] }
  const { parents } = await loadFromCluster(() => loadSummaryChoices(api))
  const parent =
    parents.find((candidate) => summary.parents?.includes(`${candidate.projectName}.${candidate.tableName}`)) ??
    parents.find((candidate) => summary.sql && readsFrom(summary.sql, candidate))
  return {
    table: { uuid: table.uuid, name: table.name, description: table.description ?? '' },
    project: { uuid: project.uuid, name: project.name },
    sql: summary.sql ?? '',
    enabled: summary.enabled !== false,
    parent: parent ?? null,
  }
}

/** Saves the Summary Settings tab (enabled, SQL) after the SQL ran on the cluster. */
export async function updateSummarySettingsAction(
  api: ClusterApi,
  formData: FormData,
  table: Table,
  project: Pick<Project, 'uuid' | 'name'>,
) {
  const submission = parseWithZod(formData, { schema: SummarySettingsSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const refusal = await loadFromCluster(() => checkSummarySql(api, submission.value.sql))
  if (refusal) return data({ result: submission.reply({ fieldErrors: { sql: [refusal] } }) }, { status: 400 })
  const fresh = await loadFromCluster(() => getTable(api, project.uuid, table.uuid))
  const previous = (fresh.settings?.summary ?? {}) as Record<string, unknown>
  const summary: Record<string, unknown> = {
    ...previous,
    enabled: submission.value.enabled === 'on',
    sql: submission.value.sql,
  }
  delete summary.parents
  delete summary.summary_sql
  try {
    await replaceTable(api, project.uuid, table.uuid, { ...fresh, settings: { ...fresh.settings, summary } })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: SUMMARY_FIELDS })
  }
  return redirectWithToast(tableUrl(table.uuid, project.uuid), {
    title: `Summary settings of ${table.name} saved`,
    type: 'success',
  })
}

/**
 * Builds the summary SQL from a column analysis (the rules and the Illegal Aggregation message at
 * their fields); returns the form's reply and the SQL, for the page to hand to the Summary Form.
 */
export async function columnAnalysisAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ColumnAnalysisSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), sql: null }, { status: 400 })
  const { parents } = await loadFromCluster(() => loadSummaryChoices(api))
  const parent = findParent(parents, submission.value.parent)
  if (!parent)
    return data(
      { result: submission.reply({ fieldErrors: { parent: [SUMMARY_MESSAGES.parentRequired] } }), sql: null },
      { status: 400 },
    )
  const sql = buildSummarySql(submission.value, tableRef(parent.projectName, parent.tableName))
  return { result: submission.reply(), sql, parent: parent.value }
}
