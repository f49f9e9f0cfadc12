import { ingestOnce, INGEST_TOKEN_FIELD } from './__ingest-once.server'
import type { Submission as ConformSubmission } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { isShapeRefusal } from '~/utils/form-shape'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { getDefaults } from '~/api/defaults.server'
import { formErrorsOf, loadFromCluster, replyFromCluster, settle } from '~/api/policies.server'
import { listProjectsWithTables } from '~/api/tables.server'
import { loadTableSearch, type TableChoice as PickedTable, type TableSearch } from '~/api/table-search.server'
import {
  createTransform,
  getTransform,
  ingestRows,
  updateTransform,
  validateTransform,
  type Transform,
  type TransformBody,
  type TransformColumn,
  type ValidatorResult,
} from '~/api/transforms.server'
import {
  buildElements,
  columnFormValue,
  renderedColumnOf,
  DATATYPE_FIELD_KEYS,
  isChanged,
  isObject,
  parseOriginal,
  parseTypeList,
  readDelimiter,
  renderedOf,
  settingsFormValue,
  shownColumnNames,
  TEXTAREA_FIELDS,
  transformFormValue,
  writableTransform,
} from '~/schemas/transform-value'
import type { Json } from '~/schemas/lossless'
import { conflictsOf, refuseConflicts, type FieldConflict, type WrittenField } from '~/utils/edit-conflict.server'
import {
  sampleError,
  TRANSFORM_MESSAGES,
  TransformEditSchema,
  TransformFormSchema,
  type ColumnForm,
  type TransformForm,
} from '~/schemas/transform'
import { redirectWithToast } from '~/utils/toast.server'
import { inferTransform } from './__transform-infer'
import { tableUrl } from './__table-url'
import { mergeDeep } from './__table-settings.server'

/** The transform form's HTML constraints: its schema loads in the browser after hydration (decision 077). */
export function transformConstraint() {
  return getZodConstraint(TransformFormSchema)
}

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

/**
 * The table choices a form offers and the one `?project=&table=` asks for (empty when none or not a
 * table of the org): the tables the search `?table_q=` finds, at most a short list (issue 33: not
 * every table of the org), and the one asked for, found by id whether or not the search lists it.
 */
export async function loadTablePick(
  api: ClusterApi,
  url: URL,
): Promise<{ tables: TableChoice[]; table: string; search: TableSearch }> {
  const search = await loadFromCluster(() => loadTableSearch(api, url, { qParam: 'table_q', idParam: 'table' }))
  const choiceOf = (choice: PickedTable): TableChoice => ({
    value: `${choice.projectId}/${choice.uuid}`,
    label: `${choice.project}.${choice.name}`,
    projectName: choice.project,
    tableName: choice.name,
  })
  const tables = search.choices.map(choiceOf)
  const chosen = search.selected ? choiceOf(search.selected) : null
  if (chosen && !tables.some((choice) => choice.value === chosen.value)) tables.unshift(chosen)
  return { tables, table: chosen?.value ?? '', search }
}

/** `projectId/tableId` → its parts (empty strings when it is not one). */
export function splitTableValue(value: string | undefined): { projectId: string; tableId: string } {
  const [projectId = '', tableId = ''] = (value ?? '').split('/')
  return { projectId, tableId }
}

const on = (value: unknown) => (value ? 'on' : undefined)

/**
 * The transform defaults the spec gives (section 9), used when `GET /config/v1/defaults/` fails or
 * lacks a value. Shaped like a transform's `settings`. The spec names no flattening values: these
 * are the console's (flattening on, one level, `.` for maps and `[]` for lists).
 */
export const BUILT_IN_TRANSFORM_DEFAULTS: Record<string, unknown> = {
  compression: 'none',
  format_details: {
    delimiter: ',',
    skip_head: 0,
    quote: '"',
    comment: '#',
    skip_comments: false,
    escape: '"',
    windows_ending: false,
    buffer_size: 4096,
    flattening: {
      active: true,
      depth: 1,
      map_flattening_strategy: { left: '.', right: '' },
      slice_flattening_strategy: { left: '[', right: ']' },
    },
  },
}

/**
 * The transform defaults: the cluster's (`defaults.transforms`, or `defaults.transform`), each
 * missing value from the spec's.
 */
export async function loadTransformDefaults(
  api: ClusterApi,
): Promise<{ defaults: Record<string, unknown>; isBuiltIn: boolean }> {
  const answer = await settle(() => getDefaults(api))
  const fromCluster = answer.value?.transforms ?? answer.value?.transform
  if (!isObject(fromCluster)) return { defaults: BUILT_IN_TRANSFORM_DEFAULTS, isBuiltIn: true }
  return { defaults: mergeDeep(BUILT_IN_TRANSFORM_DEFAULTS, fromCluster), isBuiltIn: false }
}

/** A new transform's form: one primary timestamp column, JSON, every format field from the defaults. */
export function newTransformValue(
  table: string,
  defaults: Record<string, unknown> = BUILT_IN_TRANSFORM_DEFAULTS,
): Record<string, unknown> {
  const fromDefaults = transformFormValue({ type: 'json', settings: defaults }, table)
  const keep = [
    'delimiter',
    'quote',
    'escape',
    'comment',
    'skipHead',
    'skipComments',
    'windowsEnding',
    'bufferSize',
    'flatteningActive',
    'depth',
    'mapLeft',
    'mapRight',
    'sliceLeft',
    'sliceRight',
    'compression',
  ]
  return {
    table,
    type: 'json',
    columns: [{ name: 'timestamp', type: 'datetime', format: '2006-01-02T15:04:05Z', primary: 'on', index: 'on' }],
    ...Object.fromEntries(keep.map((key) => [key, fromDefaults[key]])),
  }
}

export { transformFormValue }

function extraOf(column: ColumnForm): Record<string, unknown> {
  return parseOriginal(column.extra) ?? {}
}

/** One output column as the cluster stores it (a new row: built from its fields). */
export function columnBody(column: ColumnForm): TransformColumn {
  const elements = parseTypeList(column.elements) ?? []
  const datatype: Record<string, unknown> = {
    ...extraOf(column),
    type: column.type,
    index: Boolean(column.index),
    ...(column.format ? { format: column.format } : {}),
    ...(column.resolution ? { resolution: column.resolution } : {}),
    ...(column.primary ? { primary: true } : {}),
    ...(column.ignore ? { ignore: true } : {}),
    ...(column.fulltext ? { index_options: { fulltext: true } } : {}),
    ...(elements.length ? { elements: buildElements(elements, []) } : {}),
  }
  return { name: column.name, datatype }
}

type Posted = Record<string, unknown>

/**
 * A row onto its stored column: only the fields the operator changed are written (decision 056);
 * a row without a readable original is built from its fields.
 */
export function mergeColumn(posted: Posted, column: ColumnForm, base?: unknown): TransformColumn {
  const stored = parseOriginal(posted.original)
  if (!stored) return columnBody(column)
  const rendered = columnFormValue(stored)
  const changed = (field: string) => isChanged(field, posted[field], rendered)
  // onto the column as the cluster holds it now when given (the row's original only says what changed)
  const out = structuredClone(isObject(base) ? base : stored) as Record<string, unknown>
  const dt: Record<string, unknown> = isObject(out.datatype) ? out.datatype : {}
  if (changed('name')) out.name = column.name
  if (changed('type')) dt.type = column.type
  const setText = (field: 'format' | 'resolution') => {
    if (!changed(field)) return
    if (column[field]) dt[field] = column[field]
    else if (dt[field] !== undefined) dt[field] = null
  }
  setText('format')
  setText('resolution')
  for (const flag of ['primary', 'ignore', 'index'] as const) if (changed(flag)) dt[flag] = Boolean(column[flag])
  if (changed('fulltext'))
    dt.index_options = { ...(isObject(dt.index_options) ? dt.index_options : {}), fulltext: Boolean(column.fulltext) }
  if (changed('elements')) {
    const exprs = parseTypeList(column.elements) ?? []
    if (exprs.length) dt.elements = buildElements(exprs, Array.isArray(dt.elements) ? dt.elements : [])
    else if (dt.elements !== undefined) dt.elements = null
  }
  if (changed('extra')) {
    for (const key of Object.keys(parseOriginal(rendered.extra) ?? {})) delete dt[key]
    for (const [key, value] of Object.entries(extraOf(column))) if (!DATATYPE_FIELD_KEYS.includes(key)) dt[key] = value
  }
  if (isObject(out.datatype) || Object.keys(dt).length) out.datatype = dt
  return out as TransformColumn
}

const blankToNull = (value: string | undefined) => (value?.trim() ? value : null)

/** The sample as stored: JSON text stays JSON when the stored sample was JSON (an object), else text. */
function sampleValue(text: string | undefined, stored: unknown): unknown {
  if (!text?.trim()) return null
  if (stored !== undefined && stored !== null && typeof stored !== 'string') {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

/**
 * The update body for a valid form with an original: the stored transform with only the fields
 * the operator changed written onto it (decision 056).
 */
export function mergeTransform(payload: Posted, form: TransformForm, current?: Json): TransformBody {
  const stored = parseOriginal(payload.original)
  if (!stored) return transformBody(form)
  const rendered = renderedOf(payload.original)!
  const changed = (field: string) => isChanged(field, payload[field], rendered)
  // an edit writes onto the transform as the cluster holds it now (decision 097); the posted
  // original only says what the operator changed
  const out: Record<string, unknown> = structuredClone(current ? writableTransform(current) : stored)
  if (changed('name')) out.name = form.name
  if (changed('description')) out.description = form.description ?? ''
  if (changed('type')) out.type = form.type
  const settings: Record<string, unknown> = isObject(out.settings) ? out.settings : {}
  out.settings = settings
  if (changed('isDefault')) settings.is_default = Boolean(form.isDefault)
  if (changed('compression')) settings.compression = form.compression ?? ''
  if (changed('nullValues'))
    settings.null_values = (form.nullValues ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
  if (changed('sql')) settings.sql_transform = blankToNull(form.sql)
  if (changed('sampleData')) settings.sample_data = sampleValue(form.sampleData, settings.sample_data)
  const fd = () =>
    (settings.format_details = isObject(settings.format_details) ? settings.format_details : {}) as Record<
      string,
      unknown
    >
  const text = (field: 'delimiter' | 'quote' | 'comment' | 'escape', key: string) => {
    if (changed(field)) fd()[key] = field === 'delimiter' ? readDelimiter(form[field] ?? '') : (form[field] ?? '')
  }
  text('delimiter', 'delimiter')
  text('quote', 'quote')
  text('comment', 'comment')
  text('escape', 'escape')
  if (changed('skipHead')) fd().skip_head = form.skipHead ?? 0
  if (changed('skipComments')) fd().skip_comments = Boolean(form.skipComments)
  if (changed('windowsEnding')) fd().windows_ending = Boolean(form.windowsEnding)
  if (changed('bufferSize')) {
    if (form.bufferSize === undefined) delete fd().buffer_size
    else fd().buffer_size = form.bufferSize
  }
  const flat = () => {
    const details = fd()
    return (details.flattening = isObject(details.flattening) ? details.flattening : {}) as Record<string, unknown>
  }
  if (changed('flatteningActive')) flat().active = Boolean(form.flatteningActive)
  if (changed('depth')) flat().depth = form.depth ?? null
  for (const [key, left, right] of [
    ['map_flattening_strategy', 'mapLeft', 'mapRight'],
    ['slice_flattening_strategy', 'sliceLeft', 'sliceRight'],
  ] as const) {
    if (!changed(left) && !changed(right)) continue
    const before = flat()[key]
    const strategy = isObject(before) ? { ...before } : {}
    if (changed(left)) strategy.left = form[left] ?? ''
    if (changed(right)) strategy.right = form[right] ?? ''
    flat()[key] = strategy
  }
  const rows = rowsOf(payload)
  if (!current) {
    settings.output_columns = form.columns.map((column, index) => mergeColumn(rows[index] ?? {}, column))
    return out as TransformBody
  }
  const currentColumns = columnsOf(current)
  const matches = matchRows(rows, currentColumns)
  const columns: unknown[] = []
  form.columns.forEach((column, index) => {
    const row = rows[index] ?? {}
    const at = matches[index]!
    // a row the form showed whose column is gone from the cluster (removed or renamed meanwhile),
    // left as it was here: it goes (a changed one was refused as a conflict)
    if (at === -1 && parseOriginal(row.original) && !isRowChanged(row)) return
    columns.push(mergeColumn(row, column, at >= 0 ? currentColumns[at] : undefined))
  })
  // columns added on the cluster since the form was opened (it did not show them) stay, after the form's
  const shown = shownColumnNames(stored)
  if (shown)
    currentColumns.forEach((column, at) => {
      if (!matches.includes(at) && !shown.includes(String(isObject(column) ? column.name : ''))) columns.push(column)
    })
  settings.output_columns = columns
  return out as TransformBody
}

const rowsOf = (payload: Posted): Posted[] => (Array.isArray(payload.columns) ? (payload.columns as Posted[]) : [])
const columnsOf = (transform: Json): unknown[] => {
  const settings = isObject(transform.settings) ? transform.settings : {}
  return Array.isArray(settings.output_columns) ? settings.output_columns : []
}

/** For each posted row, the index of the cluster's column it was rendered from (by its original's name); -1 if none. */
function matchRows(rows: Posted[], columns: unknown[]): number[] {
  const used = new Set<number>()
  return rows.map((row) => {
    const original = parseOriginal(row.original)
    if (!original) return -1
    const at = columns.findIndex(
      (column, index) => !used.has(index) && isObject(column) && column.name === original.name,
    )
    if (at >= 0) used.add(at)
    return at
  })
}

/** The row's fields the form shows. */
const COLUMN_FIELDS = [
  'name',
  'type',
  'format',
  'resolution',
  'primary',
  'ignore',
  'index',
  'fulltext',
  'elements',
  'extra',
]

const COLUMN_LABELS: Record<string, string> = {
  name: 'Name',
  type: 'Type',
  format: 'Format',
  resolution: 'Resolution',
  primary: 'Primary',
  ignore: 'Ignore',
  index: 'Index',
  fulltext: 'Full-text index',
  elements: 'Elements',
  extra: 'Other keys (JSON)',
}

const isRowChanged = (row: Posted) => {
  const rendered = renderedColumnOf(row.original)
  return !rendered || COLUMN_FIELDS.some((field) => isChanged(field, row[field], rendered))
}

/** The transform-level fields as a conflict names them, and where each is stored. */
const TRANSFORM_FIELDS: Record<string, { label: string; path: string[] }> = {
  name: { label: 'Transform name', path: ['name'] },
  description: { label: 'Description', path: ['description'] },
  type: { label: 'Format', path: ['type'] },
  isDefault: { label: 'Default transform', path: ['settings', 'is_default'] },
  compression: { label: 'Compression', path: ['settings', 'compression'] },
  nullValues: { label: 'Null values', path: ['settings', 'null_values'] },
  sql: { label: 'SQL transform', path: ['settings', 'sql_transform'] },
  sampleData: { label: 'Sample data', path: ['settings', 'sample_data'] },
  delimiter: { label: 'Delimiter', path: ['settings', 'format_details', 'delimiter'] },
  quote: { label: 'Quote', path: ['settings', 'format_details', 'quote'] },
  comment: { label: 'Comment', path: ['settings', 'format_details', 'comment'] },
  escape: { label: 'Escape', path: ['settings', 'format_details', 'escape'] },
  skipHead: { label: 'Skip head', path: ['settings', 'format_details', 'skip_head'] },
  skipComments: { label: 'Skip comments', path: ['settings', 'format_details', 'skip_comments'] },
  windowsEnding: { label: 'Windows line endings', path: ['settings', 'format_details', 'windows_ending'] },
  bufferSize: { label: 'Buffer size', path: ['settings', 'format_details', 'buffer_size'] },
  flatteningActive: { label: 'Flattening', path: ['settings', 'format_details', 'flattening', 'active'] },
  depth: { label: 'Depth', path: ['settings', 'format_details', 'flattening', 'depth'] },
  mapLeft: { label: 'Map left', path: ['settings', 'format_details', 'flattening', 'map_flattening_strategy', 'left'] },
  mapRight: {
    label: 'Map right',
    path: ['settings', 'format_details', 'flattening', 'map_flattening_strategy', 'right'],
  },
  sliceLeft: {
    label: 'Slice left',
    path: ['settings', 'format_details', 'flattening', 'slice_flattening_strategy', 'left'],
  },
  sliceRight: {
    label: 'Slice right',
    path: ['settings', 'format_details', 'flattening', 'slice_flattening_strategy', 'right'],
  },
}

/** Where a column's row field is stored in the column (`extra`: every datatype key the row does not show). */
const COLUMN_PATHS: Record<string, string[]> = {
  name: ['name'],
  type: ['datatype', 'type'],
  format: ['datatype', 'format'],
  resolution: ['datatype', 'resolution'],
  primary: ['datatype', 'primary'],
  ignore: ['datatype', 'ignore'],
  index: ['datatype', 'index'],
  fulltext: ['datatype', 'index_options'],
  elements: ['datatype', 'elements'],
}

function valueAtPath(record: unknown, path: string[]): unknown {
  let value = record
  for (const key of path) value = isObject(value) ? value[key] : undefined
  return value
}

function setAtPath(record: Json, path: string[], value: unknown) {
  let node = record
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {}
    node = node[key] as Json
  }
  if (value === undefined) delete node[path[path.length - 1]!]
  else node[path[path.length - 1]!] = structuredClone(value)
}

type TransformConflict = FieldConflict & { row?: number; key: string }

/**
 * The fields a save of this form writes that were changed on the cluster since the form was
 * rendered (decision 097): the transform's own fields, and each row's against the cluster's column
 * it was rendered from (by its original's name); a changed row whose column is gone is one too.
 */
export function transformConflicts(payload: Posted, current: Json): TransformConflict[] {
  const seen = renderedOf(payload.original)
  if (!seen) return []
  const now = settingsFormValue(current)
  const written = (field: string): WrittenField => ({
    field,
    label: TRANSFORM_FIELDS[field]!.label,
    seen: seen[field],
    now: now[field],
    posted: payload[field],
    isMultiline: TEXTAREA_FIELDS.includes(field),
  })
  const conflicts: TransformConflict[] = conflictsOf(
    Object.keys(TRANSFORM_FIELDS)
      .filter((field) => isChanged(field, payload[field], seen))
      .map(written),
  ).map((conflict) => ({ ...conflict, key: conflict.field }))
  const rows = rowsOf(payload)
  const columns = columnsOf(current)
  matchRows(rows, columns).forEach((at, index) => {
    const row = rows[index]!
    const before = renderedColumnOf(row.original)
    if (!before) return
    const name = String(before.name)
    const changed = COLUMN_FIELDS.filter((field) => isChanged(field, row[field], before))
    if (!changed.length) return
    if (at === -1) {
      conflicts.push({
        field: `columns[${index}].name`,
        key: 'row',
        row: index,
        label: `Column “${name}”`,
        now: '(removed or renamed)',
      })
      return
    }
    const after = columnFormValue(columns[at])
    for (const conflict of conflictsOf(
      changed.map((field) => ({
        field,
        label: `Column “${name}”: ${COLUMN_LABELS[field]}`,
        seen: before[field],
        now: after[field],
        posted: row[field],
        isMultiline: TEXTAREA_FIELDS.includes(field),
      })),
    ))
      conflicts.push({ ...conflict, field: `columns[${index}].${conflict.field}`, key: conflict.field, row: index })
  })
  return conflicts
}

/**
 * The posted form carrying, for the fields in conflict, the cluster's values now as what it showed
 * (its `original` and each row's): a second save replaces them on purpose. A row whose column is
 * gone becomes a new row (saved again, it is added as typed).
 */
function seenAgainTransform(payload: Posted, current: Json, conflicts: TransformConflict[]) {
  const original = parseOriginal(payload.original)!
  const rows = rowsOf(payload)
  const columns = columnsOf(current)
  const matches = matchRows(rows, columns)
  for (const conflict of conflicts) {
    if (conflict.row === undefined) {
      setAtPath(
        original,
        TRANSFORM_FIELDS[conflict.key]!.path,
        valueAtPath(current, TRANSFORM_FIELDS[conflict.key]!.path),
      )
      continue
    }
    const row = rows[conflict.row]!
    const at = matches[conflict.row]!
    if (at === -1) {
      delete row.original
      continue
    }
    const seenColumn = parseOriginal(row.original)!
    const now = columns[at] as Json
    if (conflict.key === 'extra') {
      const seenType = isObject(seenColumn.datatype) ? seenColumn.datatype : (seenColumn.datatype = {})
      const nowType = isObject(now.datatype) ? now.datatype : {}
      for (const key of Object.keys(seenType)) if (!DATATYPE_FIELD_KEYS.includes(key)) delete seenType[key]
      for (const [key, value] of Object.entries(nowType))
        if (!DATATYPE_FIELD_KEYS.includes(key)) seenType[key] = structuredClone(value)
    } else setAtPath(seenColumn, COLUMN_PATHS[conflict.key]!, valueAtPath(now, COLUMN_PATHS[conflict.key]!))
    row.original = JSON.stringify(seenColumn)
  }
  return JSON.stringify(original)
}

/** The body to send: merged onto the original when the form has one, else built from the fields. */
export function bodyOf(submission: Submission, form: TransformForm, current?: Json): TransformBody {
  return mergeTransform(submission.payload as Posted, form, current)
}

/** The create/update body for a valid form. */
export function transformBody(form: TransformForm): TransformBody {
  const formatDetails: Record<string, unknown> =
    form.type === 'csv'
      ? {
          delimiter: readDelimiter(form.delimiter || ','),
          quote: form.quote ?? '"',
          comment: form.comment ?? '#',
          escape: form.escape ?? '"',
          skip_head: form.skipHead ?? 0,
          skip_comments: Boolean(form.skipComments),
          windows_ending: Boolean(form.windowsEnding),
          ...(form.bufferSize !== undefined ? { buffer_size: form.bufferSize } : {}),
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
      // unticked, it is left out: the cluster makes a table's first transform its default
      ...(form.isDefault ? { is_default: true } : {}),
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
  'settings.format_details.buffer_size': 'bufferSize',
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

  if (submission.status !== 'success') return reply400(submission)
  const form = submission.value
  const { projectId, tableId } = splitTableValue(form.table)

  if (intent === 'validate') {
    const sample = form.sampleData ?? ''
    const problem = sampleError(sample, form.type)
    if (problem) return reply400(submission, {}, { fieldErrors: { sampleData: [problem] } })
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

function inferColumns(submission: Submission, transformDefaults: Record<string, unknown>) {
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
  // shown as typed: a tab as `\t` (a real tab in a field looks empty)
  payload.delimiter = delimiter === '\t' ? '\\t' : delimiter
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
  return data({
    result: freshReply(submission),
    formKey: `infer-${Date.now()}`,
    notice: ['Proposed from the sample: check each column, then validate and publish.', ...inference.notes].join(' '),
  })
}
