import type { Json } from '~/schemas/lossless'
import {
  columnFormValue,
  DATATYPE_FIELD_KEYS,
  isChanged,
  isObject,
  parseOriginal,
  renderedColumnOf,
  renderedOf,
  settingsFormValue,
  TEXTAREA_FIELDS,
} from '~/schemas/transform-value'
import { conflictsOf, type FieldConflict, type WrittenField } from '~/utils/edit-conflict.server'
import { COLUMN_FIELDS, columnsOf, matchRows, rowsOf, type Posted } from './body.server'

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
export function seenAgainTransform(payload: Posted, current: Json, conflicts: TransformConflict[]) {
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
