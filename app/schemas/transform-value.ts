/**
 * A stored transform as the form's values, and back (decision 056). The form carries the stored
 * object (`original`, and each column's own `columns[i].original`); on save only the fields whose
 * posted value differs from what the form rendered from the original are written onto it, so what
 * the form does not show (unknown keys, null, "", absent keys, types it cannot name) stays as stored.
 * Shared by the server (merge) and the schema (rules apply to what the operator changed).
 */
import { comparableText, isObject, parseOriginal, type Json } from './lossless'
export { withCurrent } from './lossless'

/** The column types the form offers: the spec's, and the ones real clusters hold. */
export const ALL_COLUMN_TYPES = [
  'string',
  'boolean',
  'bool',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float',
  'float32',
  'float64',
  'double',
  'datetime',
  'datetime64',
  'epoch',
  'array',
  'map',
  'json',
  'ip',
  'uuid',
] as const

/** Every compression a real cluster takes ("" included: stored by older clusters). */
export const ALL_COMPRESSIONS = ['none', '', 'gzip', 'zip', 'zlib', 'bzip2', 'deflate', 'snappy', 'lz4', 'zstd', 'xz']

/** The datatype keys the column row shows as fields; every other key is the row's "extra" JSON. */
export const DATATYPE_FIELD_KEYS = [
  'type',
  'format',
  'resolution',
  'primary',
  'ignore',
  'index',
  'index_options',
  'elements',
]

/** The transform's keys the cluster owns (never sent back). */
const READ_ONLY_KEYS = ['uuid', 'created', 'modified', 'url', 'table']

/** Form fields that are textareas (a browser posts their line breaks as CRLF). */
export const TEXTAREA_FIELDS = ['description', 'sql', 'sampleData', 'extra']

type FormValue = Record<string, unknown>

export { isObject, parseOriginal }

const str = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value)
const on = (value: unknown) => (value ? 'on' : undefined)

/** A delimiter as typed: a tab shows as `\t`. */
const showDelimiter = (value: string) => (value === '\t' ? '\\t' : value)
/** A typed delimiter: `\t` is a tab. */
export const readDelimiter = (value: string) => (value === '\\t' ? '\t' : value)

/** An element's datatype (`{type…}` or `{datatype: {type…}}`). */
const elementDatatype = (element: unknown): Json =>
  isObject(element) ? (isObject(element.datatype) ? element.datatype : element) : {}

/** A datatype as a type expression: `string`, `map<string, uint64>`, `array<map<string, string>>`. */
export function typeExpression(datatype: Json): string {
  const type = str(datatype.type)
  const elements = Array.isArray(datatype.elements) ? datatype.elements : []
  return elements.length ? `${type}<${elements.map((e) => typeExpression(elementDatatype(e))).join(', ')}>` : type
}

export type TypeExpr = { type: string; elements: TypeExpr[] }

/** Parses the Elements field (`string, uint64` or `map<string, string>`); undefined when it does not parse. */
export function parseTypeList(text: string | undefined): TypeExpr[] | undefined {
  const source = (text ?? '').replace(/\s+/g, '')
  if (!source) return []
  let at = 0
  const list = (): TypeExpr[] | undefined => {
    const out: TypeExpr[] = []
    for (;;) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(at))
      if (!match) return undefined
      at += match[0].length
      const expr: TypeExpr = { type: match[0], elements: [] }
      if (source[at] === '<') {
        at += 1
        const inner = list()
        if (!inner || source[at] !== '>') return undefined
        at += 1
        expr.elements = inner
      }
      out.push(expr)
      if (source[at] !== ',') return out
      at += 1
    }
  }
  const parsed = list()
  return parsed && at === source.length ? parsed : undefined
}

const exprText = (expr: TypeExpr): string =>
  expr.elements.length ? `${expr.type}<${expr.elements.map(exprText).join(', ')}>` : expr.type

/** The rule an element list breaks (array: one element, map: two; known types), at any depth. */
export function elementsProblem(
  type: string,
  elements: TypeExpr[] | undefined,
): 'only' | 'needed' | 'type' | undefined {
  if (!elements) return 'type'
  if (elements.length && type !== 'array' && type !== 'map') return 'only'
  if ((type === 'array' && elements.length !== 1) || (type === 'map' && elements.length !== 2)) return 'needed'
  for (const element of elements) {
    if (!(ALL_COLUMN_TYPES as readonly string[]).includes(element.type)) return 'type'
    const inner = elementsProblem(element.type, element.elements)
    if (inner) return inner
  }
  return undefined
}

/**
 * The elements for a typed expression list: an element whose expression is unchanged is kept as
 * stored (its own keys included); a new one is `{type, index}` (a double is not indexed).
 */
export function buildElements(exprs: TypeExpr[], stored: unknown[]): unknown[] {
  return exprs.map((expr, i) => {
    const before = stored[i]
    if (before !== undefined && typeExpression(elementDatatype(before)) === exprText(expr)) return before
    const beforeDt = elementDatatype(before)
    const inner = Array.isArray(beforeDt.elements) ? beforeDt.elements : []
    return {
      type: expr.type,
      index: expr.type !== 'double',
      ...(expr.elements.length ? { elements: buildElements(expr.elements, inner) } : {}),
    }
  })
}

/** One stored output column as the form's row (strings and "on", as a browser posts them). */
export function columnFormValue(column: unknown): FormValue {
  const col = isObject(column) ? column : {}
  const dt = isObject(col.datatype) ? col.datatype : {}
  const extra = Object.fromEntries(Object.entries(dt).filter(([key]) => !DATATYPE_FIELD_KEYS.includes(key)))
  const indexOptions = isObject(dt.index_options) ? dt.index_options : {}
  return {
    name: str(col.name),
    type: str(dt.type),
    format: str(dt.format),
    resolution: str(dt.resolution),
    primary: on(dt.primary),
    ignore: on(dt.ignore),
    index: on(dt.index !== false),
    fulltext: on(indexOptions.fulltext),
    elements: Array.isArray(dt.elements) ? dt.elements.map((e) => typeExpression(elementDatatype(e))).join(', ') : '',
    extra: Object.keys(extra).length ? JSON.stringify(extra) : '',
    original: JSON.stringify(column),
  }
}

/** The stored transform without what the cluster owns (what a save may send back). */
export function writableTransform(transform: Json): Json {
  const out: Json = {}
  for (const [key, value] of Object.entries(transform)) if (!READ_ONLY_KEYS.includes(key)) out[key] = value
  return out
}

/**
 * The stored transform without what the cluster owns, its columns by name only (each travels whole
 * with its row; the names say which columns the form showed, decision 097).
 */
function transformOriginal(transform: Json): Json {
  const out = writableTransform(transform)
  if (isObject(out.settings)) {
    const settings = { ...out.settings }
    if (Array.isArray(settings.output_columns))
      settings.output_columns = settings.output_columns.map((column) => ({
        name: isObject(column) ? column.name : undefined,
      }))
    out.settings = settings
  }
  return out
}

/** The names of the columns a form's original says it showed; undefined for a form without them. */
export function shownColumnNames(original: Json | undefined): string[] | undefined {
  const settings = isObject(original?.settings) ? original.settings : undefined
  if (!Array.isArray(settings?.output_columns)) return undefined
  return settings.output_columns.map((column) => str(isObject(column) ? column.name : undefined))
}

/** The transform-level fields the form renders from a stored transform. */
export function settingsFormValue(transform: Json): FormValue {
  const settings = isObject(transform.settings) ? transform.settings : {}
  const fd = isObject(settings.format_details) ? settings.format_details : {}
  const flat = isObject(fd.flattening) ? fd.flattening : {}
  const map = isObject(flat.map_flattening_strategy) ? flat.map_flattening_strategy : {}
  const slice = isObject(flat.slice_flattening_strategy) ? flat.slice_flattening_strategy : {}
  return {
    name: str(transform.name),
    description: str(transform.description),
    type: str(transform.type),
    delimiter: showDelimiter(str(fd.delimiter ?? ',')),
    quote: str(fd.quote ?? '"'),
    comment: str(fd.comment ?? '#'),
    escape: str(fd.escape ?? '"'),
    skipHead: str(fd.skip_head ?? 0),
    skipComments: on(fd.skip_comments),
    windowsEnding: on(fd.windows_ending),
    bufferSize: str(fd.buffer_size ?? ''),
    flatteningActive: on(flat.active),
    depth: str(flat.depth),
    mapLeft: str(map.left ?? '.'),
    mapRight: str(map.right ?? ''),
    sliceLeft: str(slice.left ?? '['),
    sliceRight: str(slice.right ?? ']'),
    isDefault: on(settings.is_default),
    nullValues: Array.isArray(settings.null_values) ? settings.null_values.map(str).join(', ') : '',
    compression: str(settings.compression ?? 'none'),
    sql: str(settings.sql_transform),
    sampleData:
      typeof settings.sample_data === 'string'
        ? settings.sample_data
        : settings.sample_data !== undefined && settings.sample_data !== null
          ? JSON.stringify(settings.sample_data, null, 2)
          : '',
  }
}

/** A stored transform as the form's values, carrying the original for a lossless save. */
export function transformFormValue(transform: unknown, table: string): FormValue {
  const t = isObject(transform) ? transform : {}
  const settings = isObject(t.settings) ? t.settings : {}
  const columns = Array.isArray(settings.output_columns) ? settings.output_columns : []
  return {
    table,
    ...settingsFormValue(t),
    columns: columns.map(columnFormValue),
    original: JSON.stringify(transformOriginal(t)),
  }
}

/** A posted value as comparable text: what a browser does to an input's or a textarea's value. */
function comparable(field: string, value: unknown): string {
  return comparableText(value, TEXTAREA_FIELDS.includes(field))
}

/** Whether the operator changed `field`: its posted value differs from the value rendered from the original. */
export function isChanged(field: string, posted: unknown, rendered: FormValue | undefined): boolean {
  if (!rendered) return true
  return comparable(field, posted) !== comparable(field, rendered[field])
}

/** The rendered values of the form's original (without columns), or undefined for a new transform. */
export function renderedOf(original: unknown): FormValue | undefined {
  const value = parseOriginal(original)
  return value ? settingsFormValue(value) : undefined
}

/** The rendered row of a column's original, or undefined for a new row. */
export function renderedColumnOf(original: unknown): FormValue | undefined {
  const value = parseOriginal(original)
  return value ? columnFormValue(value) : undefined
}
