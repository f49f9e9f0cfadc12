import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { parseEdit } from '~/services/edit-save.server'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { loadFromCluster, nullOnMissing, replyFromCluster } from '~/api/policies.server'
import { consoleRead, runQuery } from '~/api/query.server'
import { createSummaryTable, getTable, replaceTable, type Table } from '~/api/tables.server'
import {
  choiceValue,
  listProjectsBriefly,
  tableChoiceByName,
  tableChoiceOfValue,
  type TableChoice,
} from '~/api/table-search.server'
import { listTransforms } from '~/api/transforms.server'
import { AUTO_VIEW, listViews } from '~/api/views.server'
import type { Project } from '~/api/projects.server'
import {
  buildSummarySql,
  ColumnAnalysisSchema,
  SUMMARY_MESSAGES,
  SummaryFormSchema,
  summarySettingsEditForm,
} from '~/schemas/summary'
import { tableRef } from '~/utils/sql'
import { redirectWithToast } from '~/utils/toast.server'
import { conflictsOf, refuseConflicts, seenAgain } from '~/utils/edit-conflict.server'
import { tableUrl } from './__table-url'
import { isConsoleProject } from '~/utils/console-store'

/** Where the cluster's summary-table fields show on the forms. */
const SUMMARY_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.summary.sql': 'sql',
  'settings.summary': 'sql',
}

export type ParentChoice = { value: string; label: string; projectName: string; tableName: string }

/** A table picked as a summary's parent, as the forms offer it. */
export function parentChoice(choice: TableChoice): ParentChoice {
  return {
    value: choiceValue(choice),
    label: `${choice.project}.${choice.name}`,
    projectName: choice.project,
    tableName: choice.name,
  }
}

/** The projects a summary table can be made in (not the console's store), from the short read cache. */
export async function loadSummaryProjects(api: ClusterApi): Promise<{ uuid: string; name: string }[]> {
  const projects = (await listProjectsBriefly(api)).filter((project) => !isConsoleProject(project))
  return projects.map((project) => ({ uuid: project.uuid, name: project.name }))
}

/**
 * The parent a `<projectId>/<tableId>` value or a bare table id names (issue 33: found by id, not
 * among every table of the org); undefined when there is none or it is a summary table.
 */
export async function findParent(api: ClusterApi, wanted: string | null): Promise<ParentChoice | undefined> {
  const choice = await tableChoiceOfValue(api, wanted, 'raw')
  return choice ? parentChoice(choice) : undefined
}

/** The `project.table` a summary's SQL reads FROM (its first FROM), or null. */
function fromOf(sql: string): { projectName: string; tableName: string } | null {
  const match = /\bFROM\s+`?([A-Za-z_][\w-]*)`?\s*\.\s*`?([A-Za-z_][\w-]*)`?/i.exec(sql)
  return match ? { projectName: match[1]!, tableName: match[2]! } : null
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
    // the engine's refusal (a QueryError) or another 400
    if (error instanceof ClusterError && error.status === 400) return `The cluster refused the SQL: ${error.message}`
    throw error
  }
}

/**
 * Creates a summary table after the SQL ran on the cluster; redirects to it with a toast. A refusal
 * answers the parent picked (`picked`), so the form offers it again whatever its search lists.
 */
export async function createSummaryAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: SummaryFormSchema })
  const parentValue = formData.get('parent')
  const [projects, picked] = await loadFromCluster(() =>
    Promise.all([
      loadSummaryProjects(api),
      tableChoiceOfValue(api, typeof parentValue === 'string' ? parentValue : null, 'raw'),
    ]),
  )
  // a refused field the page sets itself (enabled, settingsShown) is said at the top of the form,
  // on either tab (setByThePage)
  if (submission.status !== 'success') return data({ result: submission.reply(), picked }, { status: 400 })
  const { project, name, description, sql } = submission.value
  // enabled unless the Settings tab was shown and its box sent unticked
  const enabled = submission.value.enabled === 'on' || submission.value.settingsShown !== 'on'
  const parent = picked ? parentChoice(picked) : undefined
  const fieldErrors: Record<string, string[]> = {}
  if (!projects.some((candidate) => candidate.uuid === project)) fieldErrors.project = ['Project is required']
  if (!parent) fieldErrors.parent = [SUMMARY_MESSAGES.parentRequired]
  else if (!readsFrom(sql, parent)) fieldErrors.sql = [SUMMARY_MESSAGES.sqlNotFromParent(parent.label)]
  if (Object.keys(fieldErrors).length)
    return data({ result: submission.reply({ fieldErrors }), picked }, { status: 400 })
  const refusal = await loadFromCluster(() => checkSummarySql(api, sql))
  if (refusal) return data({ result: submission.reply({ fieldErrors: { sql: [refusal] } }), picked }, { status: 400 })
  try {
    const created = await createSummaryTable(api, project, { name, description, sql, enabled })
    return redirectWithToast(tableUrl(created.uuid, project), {
      title: `Summary table ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    const reply = replyFromCluster(submission, error, { rename: SUMMARY_FIELDS })
    return data({ ...reply.data, picked }, reply.init ?? undefined)
  }
}

/** The summary table an edit route is about: its SQL, enabled flag and parent (from `summary.parents`). */
export async function loadSummaryTable(api: ClusterApi, table: Table, project: Pick<Project, 'uuid' | 'name'>) {
  if (table.type !== 'summary')
    throw data({ message: `${table.name} is not a summary table` }, { status: 404, statusText: 'Not Found' })
  const summary = (table.settings?.summary ?? {}) as { sql?: string; enabled?: boolean; parents?: string[] }
  // the parent by name (`summary.parents`, else the SQL's FROM): two reads, not every table of the org
  const refs = [
    ...(summary.parents ?? [])
      .filter((name) => name.includes('.'))
      .map((name) => ({ projectName: name.slice(0, name.indexOf('.')), tableName: name.slice(name.indexOf('.') + 1) })),
    ...(summary.sql ? [fromOf(summary.sql)].filter((ref) => ref !== null) : []),
  ]
  let parent: ParentChoice | null = null
  for (const ref of refs) {
    const choice = await loadFromCluster(() => tableChoiceByName(api, ref.projectName, ref.tableName, 'raw'))
    if (choice) {
      parent = parentChoice(choice)
      break
    }
  }
  return {
    table: { uuid: table.uuid, name: table.name, description: table.description ?? '' },
    project: { uuid: project.uuid, name: project.name },
    sql: summary.sql ?? '',
    enabled: summary.enabled !== false,
    // the stored values as the form renders them (decision 072): a save writes only what differs
    original: JSON.stringify({ enabled: summary.enabled !== false, sql: summary.sql ?? '' }),
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
  // the same rule as the browser's check (decision 103)
  const { original, kept, submission } = parseEdit(formData, summarySettingsEditForm, undefined)
  const isEnabledKept = kept.includes('enabled')
  const isSqlKept = kept.includes('sql')
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  if (isEnabledKept && isSqlKept)
    return redirectWithToast(tableUrl(table.uuid, project.uuid), {
      title: `Summary settings of ${table.name}: nothing changed`,
      type: 'success',
    })
  const sql = submission.value.sql ?? ''
  if (!isSqlKept) {
    const refusal = await loadFromCluster(() => checkSummarySql(api, sql))
    if (refusal) return data({ result: submission.reply({ fieldErrors: { sql: [refusal] } }) }, { status: 400 })
  }
  const fresh = await loadFromCluster(() => getTable(api, project.uuid, table.uuid))
  const summary = structuredClone((fresh.settings?.summary ?? {}) as Record<string, unknown>)
  if (original) {
    // no silent lost update (decision 097): rendered as the loader renders them
    const now = { enabled: summary.enabled !== false, sql: typeof summary.sql === 'string' ? summary.sql : '' }
    const conflicts = conflictsOf([
      ...(isEnabledKept
        ? []
        : [
            {
              field: 'enabled',
              label: 'Summary enabled',
              seen: original.enabled,
              now: now.enabled,
              posted: formData.get('enabled'),
            },
          ]),
      ...(isSqlKept
        ? []
        : [
            {
              field: 'sql',
              label: 'Summary SQL',
              seen: original.sql,
              now: now.sql,
              posted: formData.get('sql'),
              isMultiline: true,
            },
          ]),
    ])
    if (conflicts.length)
      return refuseConflicts(api, submission, conflicts, {
        current: fresh,
        original: JSON.stringify(seenAgain(original, now, conflicts)),
      })
  }
  if (!isEnabledKept) summary.enabled = submission.value.enabled === 'on'
  if (!isSqlKept) summary.sql = sql
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
  const parent = await loadFromCluster(() => findParent(api, submission.value.parent))
  if (!parent)
    return data(
      { result: submission.reply({ fieldErrors: { parent: [SUMMARY_MESSAGES.parentRequired] } }), sql: null },
      { status: 400 },
    )
  const sql = buildSummarySql(submission.value, tableRef(parent.projectName, parent.tableName))
  return { result: submission.reply(), sql, parent: parent.value }
}
