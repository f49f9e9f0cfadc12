import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { loadFromCluster, nullOnMissing, replyFromCluster } from '~/api/policies.server'
import { loadTableSearch, tableChoiceOfValue, type TableSearch } from '~/api/table-search.server'
import type { TransformColumn } from '~/api/transforms.server'
import { AUTO_VIEW, createView, getView, listViews, patchView, type View } from '~/api/views.server'
import { isTextChanged } from '~/schemas/lossless'
import { parseEdit } from '~/services/edit-save.server'
import { VIEW_MESSAGES, viewEditForm, ViewFormSchema } from '~/schemas/view'
import { redirectWithToast } from '~/utils/toast.server'
import { conflictsOf, refuseConflicts, seenAgain, type WrittenField } from '~/utils/edit-conflict.server'
import { tableUrl } from './__table-url'

/** Where the cluster's view fields show on the form. */
const VIEW_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.output_columns': 'outputColumns',
}

export type ViewChoice = { uuid: string; name: string; columns: { name: string; type: string }[] }

/** A table's views as the form offers them: each with its columns. */
function choicesOf(views: View[]): ViewChoice[] {
  return views.map((view) => ({
    uuid: view.uuid,
    name: view.name,
    columns: (view.settings?.output_columns ?? []).map((column) => ({
      name: column.name,
      type: column.datatype?.type ?? '',
    })),
  }))
}

/** The table a `<projectId>/<tableId>` value names, with its views; null when the table does not exist. */
export async function loadTableViews(api: ClusterApi, projectId: string, tableId: string) {
  const views = await loadFromCluster(() => nullOnMissing(() => listViews(api, projectId, tableId)))
  if (!views) return null
  const choices = choicesOf(views)
  return { views: choices, hasAutoView: choices.some((view) => view.name === AUTO_VIEW) }
}

/**
 * The new-view form's data (issue 33): the table chosen (`?table=<projectId>/<tableId>` or a bare
 * table id, found by id), its views, and, while none is chosen, the tables the picker's search
 * (`?table_q=`) finds: never every table of the org. Summary tables are not offered. Throws ClusterError.
 */
export async function loadNewView(
  api: ClusterApi,
  url: URL,
): Promise<{
  search: TableSearch | null
  table: string
  label: string
  views: ViewChoice[]
  hasAutoView: boolean
}> {
  const chosen = await tableChoiceOfValue(api, url.searchParams.get('table'), 'raw')
  if (!chosen) {
    // the search's own choice is the URL's table (when the search lists it; a stale one is dropped)
    const search = await loadTableSearch(api, url, { idParam: 'table', kind: 'raw' })
    return { search, table: '', label: '', views: [], hasAutoView: false }
  }
  const tableViews = await loadTableViews(api, chosen.projectId, chosen.uuid)
  return {
    search: null,
    table: `${chosen.projectId}/${chosen.uuid}`,
    label: `${chosen.project}.${chosen.name}`,
    views: tableViews?.views ?? [],
    hasAutoView: tableViews?.hasAutoView ?? false,
  }
}

/**
 * The edit form's rendered values as JSON (decision 072): name, description as stored, and the
 * output columns the form shows ticked (the view's columns among the parent's).
 */
export function viewOriginal(view: View, columns: string[], parent: ViewChoice | undefined): string {
  const shown = new Set((parent?.columns ?? []).map((column) => column.name))
  return JSON.stringify({
    name: view.name,
    description: view.description,
    outputColumns: columns.filter((name) => shown.has(name)),
  })
}

/**
 * An edit posted with its original: only the fields the operator changed are written (a PATCH of
 * those keys; unchanged columns keep the view's own stored columns and whatever else it holds).
 */
async function saveViewChanges(api: ClusterApi, formData: FormData, viewId: string, original: Record<string, unknown>) {
  // the same rule as the browser's check (decision 103)
  const kept = viewEditForm.kept(formData, undefined)
  const isNameKept = kept.includes('name')
  const isDescriptionKept = kept.includes('description')
  if (!kept.includes('outputColumns')) return undefined // the whole form's rules and columns, as for a new view
  const schema = viewEditForm.schemaOf(formData, undefined)
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const [projectId, tableId] = submission.value.table.split('/') as [string, string]
  const refusal = await refuseChangedView(api, submission, formData, original, {
    current: await loadFromCluster(() => getView(api, projectId, tableId, viewId)),
    isNameKept,
    isDescriptionKept,
  })
  if (refusal) return refusal
  const changes: Record<string, unknown> = {}
  if (!isNameKept) changes.name = submission.value.name
  if (!isDescriptionKept) changes.description = submission.value.description ?? ''
  try {
    const saved = Object.keys(changes).length
      ? await patchView(api, projectId, tableId, viewId, changes)
      : await getView(api, projectId, tableId, viewId)
    return redirectWithToast(`${tableUrl(tableId, projectId)}#views`, {
      title: `View ${saved.name} saved`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: VIEW_FIELDS })
  }
}

/** A column list as a set, compared as text (the order the form shows is the parent's). */
const asSet = (names: unknown) => (Array.isArray(names) ? [...names].map(String).sort().join(', ') : '')

/**
 * The refusal when a field this save writes was changed on the cluster since the form was opened
 * (decision 097): the name and description as the form shows them, the columns as a set; else null.
 */
async function refuseChangedView(
  api: ClusterApi,
  submission: Parameters<typeof refuseConflicts>[1],
  formData: FormData,
  original: Record<string, unknown>,
  options: {
    current: View
    isNameKept: boolean
    isDescriptionKept: boolean
    columns?: { now: string[]; posted: string[] }
  },
) {
  const { current, columns } = options
  const written: WrittenField[] = []
  if (!options.isNameKept)
    written.push({
      field: 'name',
      label: 'View name',
      seen: original.name,
      now: current.name,
      posted: formData.get('name'),
    })
  if (!options.isDescriptionKept)
    written.push({
      field: 'description',
      label: 'Description',
      seen: original.description,
      now: current.description,
      posted: formData.get('description'),
    })
  if (columns && asSet(columns.posted) !== asSet(original.outputColumns))
    written.push({
      field: 'outputColumns',
      label: 'Columns',
      seen: asSet(original.outputColumns),
      now: asSet(columns.now),
      posted: asSet(columns.posted),
    })
  const conflicts = conflictsOf(written)
  if (!conflicts.length) return null
  const now: Record<string, unknown> = {
    name: current.name,
    description: current.description,
    outputColumns: columns?.now ?? original.outputColumns,
  }
  return refuseConflicts(api, submission, conflicts, {
    current,
    original: JSON.stringify(seenAgain(original, now, conflicts)),
  })
}

/**
 * Checks the form and the view rules against the table's views (auto_view there, the parent one of
 * them, every column in the parent), then creates or updates; redirects to the table with a toast.
 */
export async function saveViewAction(api: ClusterApi, formData: FormData, viewId?: string) {
  // an edit's kept name is not checked again, as in the browser (decision 103)
  const { original, submission } = parseEdit(formData, viewEditForm, undefined, {
    isEdit: Boolean(viewId),
    strict: ViewFormSchema,
  })
  if (viewId && original) {
    const saved = await saveViewChanges(api, formData, viewId, original)
    if (saved) return saved
  }
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { table, name, description, parentView, outputColumns } = submission.value
  const [projectId, tableId] = table.split('/') as [string, string]
  const tableViews = await loadTableViews(api, projectId, tableId)
  if (!tableViews)
    return data(
      { result: submission.reply({ fieldErrors: { table: [VIEW_MESSAGES.tableRequired] } }) },
      { status: 400 },
    )
  if (!tableViews.hasAutoView)
    return data(
      { result: submission.reply({ fieldErrors: { table: [VIEW_MESSAGES.autoViewMissing] } }) },
      { status: 400 },
    )
  const parent = tableViews.views.find((view) => view.uuid === parentView && view.uuid !== viewId)
  if (!parent)
    return data(
      { result: submission.reply({ fieldErrors: { parentView: [VIEW_MESSAGES.parentRequired] } }) },
      { status: 400 },
    )
  const missing = outputColumns.filter((column) => !parent.columns.some((candidate) => candidate.name === column))
  if (missing.length) {
    return data(
      { result: submission.reply({ fieldErrors: { outputColumns: missing.map(VIEW_MESSAGES.columnNotInParent) } }) },
      { status: 400 },
    )
  }
  // The columns keep the parent view's datatypes (the primary timestamp among them).
  const views = await loadFromCluster(() => listViews(api, projectId, tableId))
  const parentColumns = views.find((view) => view.uuid === parent.uuid)?.settings?.output_columns ?? []
  // A column the view already had keeps its own stored shape and place (issue 32); one the form did
  // not show (not in the parent: a view whose columns come from more than one view) is kept as it
  // is, since the operator could not untick it (decision 073). New columns come after, in the form's order.
  const ownColumns = (viewId ? views.find((view) => view.uuid === viewId)?.settings?.output_columns : []) ?? []
  const current = viewId ? views.find((view) => view.uuid === viewId) : undefined
  if (current && original) {
    // the columns a view shows from its parent, now, as the form shows them
    const shownNow = ownColumns
      .map((column) => column.name)
      .filter((name) => parent.columns.some((c) => c.name === name))
    const refusal = await refuseChangedView(api, submission, formData, original, {
      current,
      isNameKept: !isTextChanged(formData.get('name'), original.name),
      isDescriptionKept: !isTextChanged(formData.get('description'), original.description),
      columns: { now: shownNow, posted: outputColumns },
    })
    if (refusal) return refusal
  }
  const shown = new Set(parent.columns.map((column) => column.name))
  const ticked = new Set(outputColumns)
  const columns: TransformColumn[] = [
    ...ownColumns.filter((column) => !shown.has(column.name) || ticked.has(column.name)),
    ...outputColumns
      .filter((name) => !ownColumns.some((column) => column.name === name))
      .map((name) => parentColumns.find((candidate) => candidate.name === name)!),
  ]
  try {
    const saved = viewId
      ? await patchView(api, projectId, tableId, viewId, {
          ...(original && !isTextChanged(formData.get('name'), original.name) ? {} : { name }),
          ...(original && !isTextChanged(formData.get('description'), original.description)
            ? {}
            : { description: description ?? '' }),
          settings: { output_columns: columns },
        })
      : await createView(api, projectId, tableId, { name, description, outputColumns: columns })
    return redirectWithToast(`${tableUrl(tableId, projectId)}#views`, {
      title: `View ${saved.name} ${viewId ? 'saved' : 'created'}`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: VIEW_FIELDS })
  }
}
