import type { Submission as ConformSubmission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { formErrorsOf, loadFromCluster, replyFromCluster } from '~/api/policies.server'
import { listProjectsWithTables } from '~/api/tables.server'
import {
  createTransform,
  ingestRows,
  updateTransform,
  validateTransform,
  type Transform,
  type TransformBody,
  type TransformColumn,
  type ValidatorResult,
} from '~/api/transforms.server'
import {
  parseElements,
  sampleError,
  TRANSFORM_MESSAGES,
  TransformFormSchema,
  type ColumnForm,
  type TransformForm,
} from '~/schemas/transform'
import { redirectWithToast } from '~/utils/toast.server'
import { inferTransform } from './__transform-infer'
import { tableUrl } from './__table-url'

/** A table the transform can belong to: `projectId/tableId` and `project.table`. */
export type TableChoice = { value: string; label: string; projectName: string; tableName: string }

/** Every table of the org as a choice for the form's Table select. Throws ClusterError. */
export async function loadTableChoices(api: ClusterApi): Promise<TableChoice[]> {
  const projects = await listProjectsWithTables(api)
  return projects.flatMap(({ project, tables }) =>
    tables.map((table) => ({
      value: `${project.uuid}/${table.uuid}`,
      label: `${project.name}.${table.name}`,
      projectName: project.name,
      tableName: table.name,
    })),
  )
}

/** The table choices and the one `?project=&table=` asks for (empty when none or not a table of the org). */
export async function loadTablePick(api: ClusterApi, url: URL): Promise<{ tables: TableChoice[]; table: string }> {
  const tables = await loadFromCluster(() => loadTableChoices(api))
  const wanted = `${url.searchParams.get('project') ?? ''}/${url.searchParams.get('table') ?? ''}`
  return { tables, table: tables.some((choice) => choice.value === wanted) ? wanted : '' }
}

/** `projectId/tableId` → its parts (empty strings when it is not one). */
export function splitTableValue(value: string | undefined): { projectId: string; tableId: string } {
  const [projectId = '', tableId = ''] = (value ?? '').split('/')
  return { projectId, tableId }
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value))
const on = (value: unknown) => (value ? 'on' : undefined)

/** A new transform's form: CSV format and JSON flattening defaults as the cluster's transform defaults. */
export function newTransformValue(table: string): Record<string, unknown> {
  return {
    table,
    type: 'json',
    columns: [{ name: 'timestamp', type: 'datetime', format: '2006-01-02T15:04:05Z', primary: 'on', index: 'on' }],
    delimiter: ',',
    quote: '"',
    escape: '"',
    comment: '#',
    skipHead: '0',
    flatteningActive: 'on',
    depth: '1',
    mapLeft: '.',
    mapRight: '',
    sliceLeft: '[',
    sliceRight: ']',
    compression: 'none',
  }
}

// The stored object is read field by field, whatever another tool put in it.
/* eslint-disable @typescript-eslint/no-explicit-any */
/** A stored transform as the form's values (strings and "on", as a browser would post them). */
export function transformFormValue(transform: Transform, table: string): Record<string, unknown> {
  const settings = (transform.settings ?? {}) as Record<string, any>
  const fd = (settings.format_details ?? {}) as Record<string, any>
  const flat = (fd.flattening ?? {}) as Record<string, any>
  const columns = ((settings.output_columns ?? []) as TransformColumn[]).map((column) => {
    const { type, format, resolution, primary, ignore, index, index_options, elements, ...extra } = (column.datatype ??
      {}) as Record<string, any>
    return {
      name: column.name,
      type: str(type),
      format: str(format),
      resolution: str(resolution),
      primary: on(primary),
      ignore: on(ignore),
      index: on(index !== false),
      fulltext: on(index_options?.fulltext),
      elements: Array.isArray(elements)
        ? elements.map((element: any) => str(element?.datatype?.type ?? element?.type)).join(', ')
        : '',
      extra: Object.keys(extra).length ? JSON.stringify(extra) : '',
    }
  })
  return {
    table,
    name: transform.name,
    description: str(transform.description),
    type: str(transform.type),
    columns,
    delimiter: str(fd.delimiter ?? ','),
    quote: str(fd.quote ?? '"'),
    comment: str(fd.comment ?? '#'),
    escape: str(fd.escape ?? '"'),
    skipHead: str(fd.skip_head ?? 0),
    skipComments: on(fd.skip_comments),
    windowsEnding: on(fd.windows_ending),
    flatteningActive: on(flat.active),
    depth: str(flat.depth ?? ''),
    mapLeft: str(flat.map_flattening_strategy?.left ?? '.'),
    mapRight: str(flat.map_flattening_strategy?.right ?? ''),
    sliceLeft: str(flat.slice_flattening_strategy?.left ?? '['),
    sliceRight: str(flat.slice_flattening_strategy?.right ?? ']'),
    isDefault: on(settings.is_default),
    nullValues: Array.isArray(settings.null_values) ? settings.null_values.join(', ') : '',
    compression: str(settings.compression || 'none'),
    sql: str(settings.sql_transform),
    sampleData:
      typeof settings.sample_data === 'string'
        ? settings.sample_data
        : settings.sample_data
          ? JSON.stringify(settings.sample_data, null, 2)
          : '',
  }
}

function extraOf(column: ColumnForm): Record<string, unknown> {
  if (!column.extra) return {}
  try {
    const value: unknown = JSON.parse(column.extra)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** One output column as the cluster stores it. */
export function columnBody(column: ColumnForm): TransformColumn {
  const elements = parseElements(column.elements)
  const datatype: Record<string, unknown> = {
    ...extraOf(column),
    type: column.type,
    index: Boolean(column.index),
    ...(column.format ? { format: column.format } : {}),
    ...(column.resolution ? { resolution: column.resolution } : {}),
    ...(column.primary ? { primary: true } : {}),
    ...(column.ignore ? { ignore: true } : {}),
    ...(column.fulltext ? { index_options: { fulltext: true } } : {}),
    ...(elements.length ? { elements: elements.map((type) => ({ type, index: type !== 'double' })) } : {}),
  }
  return { name: column.name, datatype }
}

/** The create/update body for a valid form. */
export function transformBody(form: TransformForm): TransformBody {
  const formatDetails: Record<string, unknown> =
    form.type === 'csv'
      ? {
          delimiter: form.delimiter === '\\t' ? '\t' : form.delimiter || ',',
          quote: form.quote ?? '"',
          comment: form.comment ?? '#',
          escape: form.escape ?? '"',
          skip_head: form.skipHead ?? 0,
          skip_comments: Boolean(form.skipComments),
          windows_ending: Boolean(form.windowsEnding),
        }
      : {
          flattening: {
            active: Boolean(form.flatteningActive),
            ...(form.depth !== undefined ? { depth: form.depth } : {}),
            map_flattening_strategy: { left: form.mapLeft ?? '.', right: form.mapRight ?? '' },
            slice_flattening_strategy: { left: form.sliceLeft ?? '[', right: form.sliceRight ?? ']' },
          },
        }
  const nullValues = (form.nullValues ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
  return {
    name: form.name,
    ...(form.description ? { description: form.description } : {}),
    type: form.type,
    settings: {
      is_default: Boolean(form.isDefault),
      compression: form.compression ?? 'none',
      null_values: nullValues,
      sql_transform: form.sql?.trim() ? form.sql : null,
      format_details: formatDetails,
      output_columns: form.columns.map(columnBody),
      ...(form.sampleData?.trim() ? { sample_data: form.sampleData } : {}),
    },
  }
}

const COLUMN_KEYS: Record<string, string> = {
  name: 'name',
  'datatype.type': 'type',
  'datatype.format': 'format',
  'datatype.resolution': 'resolution',
  'datatype.primary': 'primary',
  'datatype.ignore': 'ignore',
  'datatype.index': 'index',
  'datatype.index_options.fulltext': 'fulltext',
  'datatype.index_options': 'fulltext',
}

const SETTINGS_KEYS: Record<string, string> = {
  name: 'name',
  description: 'description',
  type: 'type',
  'settings.output_columns': 'columns',
  'settings.is_default': 'isDefault',
  'settings.compression': 'compression',
  'settings.null_values': 'nullValues',
  'settings.sql_transform': 'sql',
  'settings.sample_data': 'sampleData',
  'settings.format_details.delimiter': 'delimiter',
  'settings.format_details.quote': 'quote',
  'settings.format_details.comment': 'comment',
  'settings.format_details.escape': 'escape',
  'settings.format_details.skip_head': 'skipHead',
  'settings.format_details.skip_comments': 'skipComments',
  'settings.format_details.windows_ending': 'windowsEnding',
  'settings.format_details.flattening.active': 'flatteningActive',
  'settings.format_details.flattening.depth': 'depth',
}

/** Where a cluster error key (`settings.output_columns[2].datatype.format`) shows on the form (`columns[2].format`). */
export function formFieldOf(key: string): string | undefined {
  if (SETTINGS_KEYS[key]) return SETTINGS_KEYS[key]
  const match = /^settings\.output_columns(?:\[(\d+)\]|\.(\d+))\.?(.*)$/.exec(key)
  if (!match) return undefined
  const [, bracketed, dotted, rest = ''] = match
  const index = bracketed ?? dotted
  if (rest.startsWith('datatype.elements')) return `columns[${index}].elements`
  return `columns[${index}].${COLUMN_KEYS[rest] ?? 'name'}`
}

/** The rename map for one cluster error: each of its keys to the form's field. */
function renameFor(error: unknown): Record<string, string> {
  if (!(error instanceof ClusterError) || error.status !== 400) return {}
  const rename: Record<string, string> = {}
  for (const key of Object.keys(error.mapped.fieldErrors)) {
    const field = formFieldOf(key)
    if (field) rename[key] = field
  }
  return rename
}

export type ValidationView = {
  /** The validator's summary line. */
  message: string
  columns: { name: string; type: string; primary: boolean }[]
  rows: Record<string, string>[]
  errors: { row: number; message: string }[]
  numRows: number
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The validator's answer as the page shows it: every value as text, at most 100 rows. */
export function validationView(result: ValidatorResult): ValidationView {
  return {
    message: result.message ?? '',
    columns: (result.columns ?? []).map((column) => ({
      name: column.name,
      type: column.type,
      primary: Boolean(column.primary),
    })),
    rows: (result.rows ?? [])
      .slice(0, 100)
      .map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cell(value)]))),
    errors: result.errors ?? [],
    numRows: result.num_rows ?? 0,
  }
}

/** Row errors that name a column (`column "status": …`) also show at that column's row. */
function columnErrorsOf(result: ValidatorResult, columns: ColumnForm[]): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {}
  for (const error of result.errors ?? []) {
    const name = /column "([^"]+)"/.exec(error.message)?.[1]
    const index = columns.findIndex((column) => column.name === name)
    if (index >= 0)
      (fieldErrors[`columns[${index}].name`] ??= []).push(
        `Sample row ${error.row}: ${error.message.replace(/^row \d+: column "[^"]+": /, '')}`,
      )
  }
  return fieldErrors
}

type Submission = ConformSubmission<TransformForm>

async function fileText(value: FormDataEntryValue | null): Promise<string | null> {
  if (!value || typeof value === 'string' || value.size === 0) return null
  return value.text()
}

/** Drops uploaded files from what goes back to the page (they cannot be refilled). */
function withoutFiles(submission: Submission) {
  delete submission.payload.sampleFile
  delete submission.payload.transformFile
  delete submission.payload.intent
  return submission
}

/** The reply after the server refilled the form (upload, infer): the new values, none of the old errors. */
const freshReply = (submission: Submission) => ({
  ...withoutFiles(submission).reply(),
  status: 'success' as const,
  error: undefined,
})

const reply400 = (
  submission: Submission,
  extra: Record<string, unknown> = {},
  errors?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] },
) => data({ result: withoutFiles(submission).reply(errors), ...extra }, { status: 400 })

/**
 * The transform form's action, for create (`transformId` absent) and edit. Intents:
 * conform's list intents (add/remove a column row: answered with the form as it now is, so they work
 * without scripts); `validate` (the sample through the cluster's /validator); `infer` (a proposal of
 * columns from the sample); `upload` (a transform JSON file fills the form); `save` (the default).
 */
export async function transformEditorAction(
  api: ClusterApi,
  formData: FormData,
  options: { transformId?: string } = {},
) {
  const intent = String(formData.get('intent') ?? 'save')
  const sampleUpload = await fileText(formData.get('sampleFile'))
  if (sampleUpload !== null) formData.set('sampleData', sampleUpload)
  const submission = parseWithZod(formData, { schema: TransformFormSchema })
  // conform's own intents: add or remove a column row
  if (submission.status === undefined) return data({ result: withoutFiles(submission).reply() })

  if (intent === 'upload') return uploadTransform(submission, formData)
  if (intent === 'infer') return inferColumns(submission)

  if (submission.status !== 'success') return reply400(submission)
  const form = submission.value
  const { projectId, tableId } = splitTableValue(form.table)

  if (intent === 'validate') {
    const sample = form.sampleData ?? ''
    const problem = sampleError(sample, form.type)
    if (problem) return reply400(submission, {}, { fieldErrors: { sampleData: [problem] } })
    const body = transformBody(form)
    let tableRef = ''
    try {
      const choices = await loadTableChoices(api)
      tableRef = choices.find((choice) => choice.value === form.table)?.label ?? ''
      const result = await validateTransform(
        api,
        { table: tableRef },
        { name: body.name, type: body.type, settings: body.settings },
        sample,
      )
      const fieldErrors = columnErrorsOf(result, form.columns)
      return data({ result: withoutFiles(submission).reply({ fieldErrors }), validation: validationView(result) })
    } catch (error) {
      if (error instanceof ClusterError && error.status === 400) {
        const body = error.body as { message?: unknown } | undefined
        if (body && typeof body.message === 'string')
          return reply400(submission, {}, { fieldErrors: { sampleData: [body.message] } })
        const { fieldErrors, formErrors } = formErrorsOf(error, renameFor(error))
        return reply400(
          submission,
          {},
          { fieldErrors: { ...fieldErrors, ...(formErrors.length ? { sampleData: formErrors } : {}) } },
        )
      }
      throw error
    }
  }

  if (intent === 'ingest' && options.transformId) return ingestSample(api, submission, form)

  try {
    const body = transformBody(form)
    const saved = options.transformId
      ? await updateTransform(api, projectId, tableId, options.transformId, body)
      : await createTransform(api, projectId, tableId, body)
    return redirectWithToast(tableUrl(tableId, projectId), {
      title: `Transform ${saved.name} ${options.transformId ? 'saved' : 'published'}`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(withoutFiles(submission), error, {
      rename: renameFor(error),
      notes: [TRANSFORM_MESSAGES.publishFailed],
    })
  }
}

/**
 * Edit only: sends the sample through the saved transform into the table (`/ingest/event`), so the
 * rows can be queried at once. The cluster's refusal comes back at Sample data, row by row; any
 * other cluster error (a 403) as the catalogue's message there, never a 500.
 */
async function ingestSample(api: ClusterApi, submission: Submission, form: TransformForm) {
  const sample = form.sampleData ?? ''
  const problem = sampleError(sample, form.type)
  if (problem) return reply400(submission, {}, { fieldErrors: { sampleData: [problem] } })
  const tableRef = (await loadTableChoices(api)).find((choice) => choice.value === form.table)?.label ?? ''
  try {
    const result = await ingestRows(api, tableRef, form.name, sample, form.type === 'csv' ? 'csv' : 'json')
    return data({
      result: withoutFiles(submission).reply(),
      notice: `Ingested ${result.rows ?? 0} rows into ${tableRef} with transform ${form.name}.`,
    })
  } catch (error) {
    if (error instanceof ClusterError && error.status === 400) {
      const body = error.body as { message?: unknown; errors?: unknown } | undefined
      const messages = [
        typeof body?.message === 'string' ? body.message : error.message,
        ...(Array.isArray(body?.errors) ? body.errors.map(String) : []),
      ]
      return reply400(submission, {}, { fieldErrors: { sampleData: messages } })
    }
    // any other refusal (a 403 for a user without insert_sql) is the catalogue's message at the sample
    if (error instanceof ClusterError)
      return data(
        { result: withoutFiles(submission).reply({ fieldErrors: { sampleData: [error.message] } }) },
        { status: error.status },
      )
    throw error
  }
}

/** Replaces the form's values with `value` (kept: the table, and the name unless the value has one). */
function refill(submission: Submission, value: Record<string, unknown>) {
  const table = submission.payload.table
  for (const key of Object.keys(submission.payload)) delete submission.payload[key]
  Object.assign(submission.payload, value, { table })
}

async function uploadTransform(submission: Submission, formData: FormData) {
  const text = await fileText(formData.get('transformFile'))
  if (text === null)
    return reply400(submission, {}, { fieldErrors: { transformFile: [TRANSFORM_MESSAGES.fileRequired] } })
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return reply400(submission, {}, { fieldErrors: { transformFile: [TRANSFORM_MESSAGES.nonJsonUpload] } })
  }
  const transform = parsed as Transform
  const columns = transform?.settings?.output_columns
  if (!transform || typeof transform !== 'object' || Array.isArray(transform) || !Array.isArray(columns)) {
    return reply400(submission, {}, { fieldErrors: { transformFile: [TRANSFORM_MESSAGES.schemaJson] } })
  }
  const keepName = submission.payload.name
  refill(
    submission,
    transformFormValue(
      {
        ...transform,
        name: typeof transform.name === 'string' && transform.name ? transform.name : String(keepName ?? ''),
      },
      '',
    ),
  )
  return data({
    result: freshReply(submission),
    formKey: `upload-${Date.now()}`,
    notice: `Loaded ${columns.length} columns from the file: check them, then publish.`,
  })
}

function inferColumns(submission: Submission) {
  const payload = submission.payload as Record<string, unknown>
  const sample = String(payload.sampleData ?? '')
  const type = payload.type === 'csv' ? 'csv' : payload.type === 'json' || payload.type === 'hdx' ? 'json' : undefined
  if (!sample.trim()) {
    return reply400(
      submission,
      {},
      {
        fieldErrors: {
          sampleData: [type === 'csv' ? TRANSFORM_MESSAGES.sampleCsvRequired : TRANSFORM_MESSAGES.sampleRequired],
        },
      },
    )
  }
  const problem = sampleError(sample, type === 'csv' ? 'csv' : /^\s*[[{]/.test(sample) ? 'json' : 'csv')
  // the delimiter typed (`\t` for a tab), else a tab when the header line has tabs and no commas
  const typed =
    payload.delimiter === '\\t'
      ? '\t'
      : typeof payload.delimiter === 'string' && payload.delimiter.length === 1
        ? payload.delimiter
        : ','
  const header = sample.trim().split(/\r?\n/, 1)[0] ?? ''
  const delimiter = typed === ',' && header.includes('\t') && !header.includes(',') ? '\t' : typed
  if (delimiter !== typed) payload.delimiter = delimiter
  const inference = problem ? null : inferTransform(sample, undefined, delimiter)
  if (!inference || (type === 'csv' && inference.type !== 'csv')) {
    return reply400(submission, {}, { fieldErrors: { sampleData: [TRANSFORM_MESSAGES.sampleInvalid] } })
  }
  payload.type = inference.type
  payload.columns = inference.columns.map((column) => ({
    name: column.name,
    type: column.type,
    format: column.format ?? '',
    primary: on(column.primary),
    index: on(column.index),
    elements: column.elements ?? '',
  }))
  if (inference.type === 'csv') payload.skipHead = '1'
  if (inference.flattening) {
    payload.flatteningActive = 'on'
    payload.depth = '10'
    payload.mapLeft = '.'
  }
  return data({
    result: freshReply(submission),
    formKey: `infer-${Date.now()}`,
    notice: ['Proposed from the sample: check each column, then validate and publish.', ...inference.notes].join(' '),
  })
}
