import { ingestOnce, INGEST_TOKEN_FIELD } from './__ingest-once.server'
import type { Submission as ConformSubmission } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { isShapeRefusal } from '~/utils/form-shape'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { formErrorsOf, replyFromCluster } from '~/api/policies.server'
import {
  createTransform,
  getTransform,
  ingestRows,
  updateTransform,
  validateTransform,
  type Transform,
  type TransformBody,
  type ValidatorResult,
} from '~/api/transforms.server'
import { transformFormValue } from '~/schemas/transform-value'
import type { Json } from '~/schemas/lossless'
import { refuseConflicts } from '~/utils/edit-conflict.server'
import {
  sampleError,
  TRANSFORM_MESSAGES,
  TransformEditSchema,
  TransformFormSchema,
  type ColumnForm,
  type TransformForm,
} from '~/schemas/transform'
import { redirectWithToast } from '~/utils/toast.server'
import { loadTableChoices, splitTableValue } from '~/services/table-choices.server'
import { formFieldOf, mergeTransform, type Posted } from '~/services/transform/body.server'
import { seenAgainTransform, transformConflicts } from '~/services/transform/conflicts.server'
import { loadTransformDefaults, newTransformValue } from '~/services/transform/defaults.server'
import { COLUMNS_INFERRED_FIELD, inferTransform } from './__transform-infer'
import { tableUrl } from './__table-url'

/** The transform form's HTML constraints: its schema loads in the browser after hydration (decision 077). */
export function transformConstraint() {
  return getZodConstraint(TransformFormSchema)
}

const on = (value: unknown) => (value ? 'on' : undefined)

export { transformFormValue }

/** The body to send: merged onto the original when the form has one, else built from the fields. */
export function bodyOf(submission: Submission, form: TransformForm, current?: Json): TransformBody {
  return mergeTransform(submission.payload as Posted, form, current)
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
  const submission = parseWithZod(formData, {
    schema: options.transformId ? TransformEditSchema : TransformFormSchema,
  })
  // conform's own intents: add or remove a column row
  if (submission.status === undefined) return data({ result: withoutFiles(submission).reply() })

  // a form conform could not read as sent is refused before an upload or inference acts on it
  // (npm run fuzz: a malformed `__intent__` beside intent=upload answered 200)
  if (submission.status === 'error' && isShapeRefusal(submission)) return reply400(submission)
  if (intent === 'upload') return uploadTransform(submission, formData)
  if (intent === 'infer') return inferColumns(submission, (await loadTransformDefaults(api)).defaults)

  // a Validate or Publish sent while Infer was still running (issue 54, point 3): the page never
  // showed the inferred columns, so the columns posted are the new form's untouched defaults. The
  // columns the sample proposes are filled in instead; a Publish is not sent with the defaults.
  const inferred =
    !options.transformId && (intent === 'validate' || intent === 'save')
      ? await inferInPlaceOfDefaults(api, submission)
      : null
  if (inferred && intent === 'save') {
    return data(
      {
        result: withoutFiles(submission).reply({ formErrors: [COLUMNS_FILLED_MESSAGE] }),
        formKey: `infer-${Date.now()}`,
        notice: inferenceNotice(inferred.notes),
      },
      { status: 400 },
    )
  }
  const checked = inferred ? reparse(submission, options) : submission
  const extra = inferred
    ? { formKey: `infer-${Date.now()}`, notice: `${COLUMNS_VALIDATED_NOTE} ${inferenceNotice(inferred.notes)}` }
    : {}

  if (checked.status !== 'success') return reply400(checked, extra)
  const form = checked.value
  const { projectId, tableId } = splitTableValue(form.table)

  if (intent === 'validate') return validateSample(api, checked, form, extra)

  if (intent === 'ingest' && options.transformId) return ingestSample(api, submission, form, formData)

  try {
    // merged onto the transform as the cluster holds it now (edit), refused where it changed
    // meanwhile what the operator changed (decision 097); or onto a loaded transform file (create)
    const current = options.transformId
      ? ((await getTransform(api, projectId, tableId, options.transformId)) as unknown as Json)
      : undefined
    if (current) {
      const conflicts = transformConflicts(submission.payload as Posted, current)
      if (conflicts.length) {
        const original = seenAgainTransform(submission.payload as Posted, current, conflicts)
        return await refuseConflicts(api, withoutFiles(submission), conflicts, {
          current,
          original,
          // the form is drawn again from the answer: each row's original as updated
          extra: { formKey: `conflict-${Date.now()}` },
        })
      }
    }
    const body = bodyOf(submission, form, current)
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
async function ingestSample(api: ClusterApi, submission: Submission, form: TransformForm, formData: FormData) {
  const sample = form.sampleData ?? ''
  const problem = sampleError(sample, form.type)
  if (problem) return reply400(submission, {}, { fieldErrors: { sampleData: [problem] } })
  const tableRef = (await loadTableChoices(api)).find((choice) => choice.value === form.table)?.label ?? ''
  try {
    // once per page's token and sample (decision 098): a repeat answers the first result, loads nothing
    const token = formData.get(INGEST_TOKEN_FIELD)
    const { answer: result, isRepeat } = await ingestOnce(
      api.sessionKey,
      typeof token === 'string' && token ? token : null,
      `${form.table}\n${form.name}\n${form.type}\n${sample}`,
      () => ingestRows(api, tableRef, form.name, sample, form.type === 'csv' ? 'csv' : 'json'),
    )
    const done = `Ingested ${result.rows ?? 0} rows into ${tableRef} with transform ${form.name}.`
    return data({
      result: withoutFiles(submission).reply(),
      ingestToken: typeof token === 'string' ? token : undefined,
      ingestNotice: isRepeat
        ? `${done} This sample was already sent from this page, so it was not loaded again. To load it again, open the page anew.`
        : done,
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

/** The sample through the cluster's /validator: its rows as stored, or its errors row by row. */
async function validateSample(
  api: ClusterApi,
  submission: Submission,
  form: TransformForm,
  extra: Record<string, unknown>,
) {
  const sample = form.sampleData ?? ''
  const problem = sampleError(sample, form.type)
  if (problem) return reply400(submission, extra, { fieldErrors: { sampleData: [problem] } })
  const body = bodyOf(submission, form)
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
    return data({
      result: withoutFiles(submission).reply({ fieldErrors }),
      validation: validationView(result),
      ...extra,
    })
  } catch (error) {
    if (error instanceof ClusterError && error.status === 400) {
      const body = error.body as { message?: unknown } | undefined
      if (body && typeof body.message === 'string')
        return reply400(submission, extra, { fieldErrors: { sampleData: [body.message] } })
      const { fieldErrors, formErrors } = formErrorsOf(error, renameFor(error))
      return reply400(submission, extra, {
        fieldErrors: { ...fieldErrors, ...(formErrors.length ? { sampleData: formErrors } : {}) },
      })
    }
    throw error
  }
}

/** Why a Publish sent with the default columns did nothing (issue 54, point 3). */
export const COLUMNS_FILLED_MESSAGE =
  'Nothing was published: the columns were still the form’s default (one timestamp column) ' +
  'while the sample has others, as when Publish is pressed before Infer has answered. The ' +
  'columns inferred from the sample are filled in below: check them, then publish.'

/** Why a Validate sent with the default columns validated the inferred ones (issue 54, point 3). */
const COLUMNS_VALIDATED_NOTE =
  'The columns were still the form’s default (one timestamp column) while the sample has ' +
  'others, as when Validate is pressed before Infer has answered: the columns inferred from ' +
  'the sample were filled in and validated.'

/** The default column rows of a new transform's form, as the page posts them. */
const ROW_KEYS = ['name', 'type', 'format', 'resolution', 'primary', 'ignore', 'index', 'fulltext', 'elements', 'extra']
const rowText = (row: unknown) =>
  ROW_KEYS.map((key) => String((row as Record<string, unknown> | undefined)?.[key] ?? '')).join('\u0000')
const columnsText = (columns: unknown) => (Array.isArray(columns) ? columns.map(rowText).join('\n') : '')

/**
 * Issue 54, point 3. The columns the sample proposes, filled into `submission`'s payload, when a new
 * transform's form is posted with its columns as the page first drew them (the default `timestamp`
 * row, no row from a stored transform) and with a sample the page has not inferred from (the form
 * carries COLUMNS_INFERRED_FIELD once it has shown inferred columns, so an operator who goes back
 * to one timestamp column on purpose is not refilled again). That is what a Validate or Publish
 * pressed while Infer ran sends: the browser dropped Infer's answer. Null when the form is not such
 * a form, the sample proposes nothing, or it proposes the default column itself.
 */
async function inferInPlaceOfDefaults(api: ClusterApi, submission: Submission): Promise<{ notes: string[] } | null> {
  const payload = submission.payload as Record<string, unknown>
  if (payload.original || payload[COLUMNS_INFERRED_FIELD]) return null
  if (!String(payload.sampleData ?? '').trim()) return null
  const defaults = newTransformValue('')
  if (columnsText(payload.columns) !== columnsText(defaults.columns)) return null
  const proposed = structuredClone(payload)
  const inference = applyInference(proposed, (await loadTransformDefaults(api)).defaults)
  if ('problem' in inference || columnsText(proposed.columns) === columnsText(defaults.columns)) return null
  for (const key of Object.keys(payload)) delete payload[key]
  Object.assign(payload, proposed, { [COLUMNS_INFERRED_FIELD]: '1' })
  return { notes: inference.notes }
}

/** The form parsed again from its payload (after the server filled it in). */
function reparse(submission: Submission, options: { transformId?: string }): Submission {
  const formData = new FormData()
  for (const [key, value] of Object.entries(submission.payload)) {
    if (Array.isArray(value))
      value.forEach((row, index) => {
        for (const [field, cell] of Object.entries((row ?? {}) as Record<string, unknown>))
          if (cell !== undefined && cell !== null) formData.append(`${key}[${index}].${field}`, String(cell))
      })
    else if (value !== undefined && value !== null) formData.append(key, String(value))
  }
  return parseWithZod(formData, { schema: options.transformId ? TransformEditSchema : TransformFormSchema })
}

const inferenceNotice = (notes: string[]) =>
  ['Proposed from the sample: check each column, then validate and publish.', ...notes].join(' ')

function inferColumns(submission: Submission, transformDefaults: Record<string, unknown>) {
  const payload = submission.payload as Record<string, unknown>
  const inference = applyInference(payload, transformDefaults)
  if ('problem' in inference) return reply400(submission, {}, { fieldErrors: { sampleData: [inference.problem] } })
  payload[COLUMNS_INFERRED_FIELD] = '1'
  return data({
    result: freshReply(submission),
    formKey: `infer-${Date.now()}`,
    notice: inferenceNotice(inference.notes),
  })
}

/**
 * Fills `payload` (a posted transform form) with what its sample proposes: type, delimiter, columns,
 * Skip head and flattening. Returns the inference's notes, or what is wrong with the sample.
 */
function applyInference(
  payload: Record<string, unknown>,
  transformDefaults: Record<string, unknown>,
): { notes: string[] } | { problem: string } {
  const sample = String(payload.sampleData ?? '')
  const type = payload.type === 'csv' ? 'csv' : payload.type === 'json' || payload.type === 'hdx' ? 'json' : undefined
  if (!sample.trim())
    return { problem: type === 'csv' ? TRANSFORM_MESSAGES.sampleCsvRequired : TRANSFORM_MESSAGES.sampleRequired }
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
  // shown as typed: a tab as `\t` (a real tab in a field looks empty)
  payload.delimiter = delimiter === '\t' ? '\\t' : delimiter
  const inference = problem ? null : inferTransform(sample, undefined, delimiter)
  if (!inference || (type === 'csv' && inference.type !== 'csv')) return { problem: TRANSFORM_MESSAGES.sampleInvalid }
  payload.type = inference.type
  payload.columns = inference.columns.map((column) => ({
    name: column.name,
    type: column.type,
    format: column.format ?? '',
    primary: on(column.primary),
    index: on(column.index),
    elements: column.elements ?? '',
    extra: column.extra ? JSON.stringify(column.extra) : '',
  }))
  if (inference.type === 'csv') {
    payload.skipHead = String(inference.skipHead ?? 1)
    // fields the page did not send (with scripts the CSV fields are not shown while the type is JSON)
    // take the transform defaults, as the page shows them without scripts
    const defaults = newTransformValue('', transformDefaults)
    for (const key of ['quote', 'comment', 'escape', 'bufferSize'] as const)
      if (payload[key] === undefined) payload[key] = defaults[key]
  }
  if (inference.flattening) {
    payload.flatteningActive = 'on'
    payload.depth = '10'
    payload.mapLeft = '.'
  }
  return { notes: inference.notes }
}
