import type { TransformBody, TransformColumn } from '~/api/transforms.server'
import type { Json } from '~/schemas/lossless'
import type { ColumnForm, TransformForm } from '~/schemas/transform'
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
  shownColumnNames,
  writableTransform,
} from '~/schemas/transform-value'

/*
 * A transform form's values and the cluster's transform body: the body a new transform's form
 * builds, an edit merged onto the stored transform with only what the operator changed written
 * (decisions 056 and 097), and where the cluster's error keys show on the form.
 */

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

export type Posted = Record<string, unknown>

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

export const rowsOf = (payload: Posted): Posted[] =>
  Array.isArray(payload.columns) ? (payload.columns as Posted[]) : []
export const columnsOf = (transform: Json): unknown[] => {
  const settings = isObject(transform.settings) ? transform.settings : {}
  return Array.isArray(settings.output_columns) ? settings.output_columns : []
}

/** For each posted row, the index of the cluster's column it was rendered from (by its original's name); -1 if none. */
export function matchRows(rows: Posted[], columns: unknown[]): number[] {
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
export const COLUMN_FIELDS = [
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

const isRowChanged = (row: Posted) => {
  const rendered = renderedColumnOf(row.original)
  return !rendered || COLUMN_FIELDS.some((field) => isChanged(field, row[field], rendered))
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
