/**
 * Ingest written by the engine's own parser (docs/decisions/031-ingest-parsed-by-the-engine.md).
 *
 * When a JSON transform stores each input field under its own name with nothing to compute (no
 * renamed, virtual or defaulted columns, the table's order key is the primary column), the JavaScript
 * mapper's whole job on a clean body is to check each value and hand it on unchanged. Then the body
 * itself goes to the target table in one raw insert (the engine parses it, as its own insert of the
 * same bytes does), after a check in JavaScript over the records the request already parsed: every
 * value must be one the engine's parse stores exactly as the JavaScript mapper would (a string in a
 * string column, a safe integer in range, a finite number, a boolean, an ISO 8601 UTC timestamp with
 * at most milliseconds, null where the column may be null; no null_values, no field that names a
 * column of the table this transform does not store). Anything else, and any engine error, leaves
 * the request to the engine-mapped path (engine-mapping.ts) and then the JavaScript mapper, as before.
 */
import type { Resource } from '../hooks'
import { columnType, storedColumns } from './engine'
import { transformType } from './transform'

export interface DirectPlan {
  /** true when the engine's parse of these records stores what the JavaScript mapper would */
  accepts(records: unknown[]): boolean
  /** the raw insert's settings */
  settings: Record<string, string | number>
}

const STRINGS = new Set(['string', 'ip', 'uuid', 'json'])
const DOUBLES = new Set(['double', 'float', 'float64'])
const INT_RANGES: Record<string, [number, number]> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
}
/** the JavaScript mapper reads these exactly (ISO_RE, milliseconds without rounding) and the engine's best-effort parse agrees */
const ISO_UTC = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,3})?Z$/

const enum Kind {
  String,
  Int,
  Double,
  Bool,
  Time,
}

function isIsoUtc(value: string): boolean {
  const m = ISO_UTC.exec(value)
  if (!m) return false
  const year = +m[1]
  const month = +m[2]
  const day = +m[3]
  // DateTime64(3)'s range; a day the month has (Date.UTC would roll 02-30 over to March)
  if (year < 1900 || year > 2299 || month < 1 || month > 12 || day < 1 || +m[4] > 23 || +m[5] > 59 || +m[6] > 59) return false
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day
}

/**
 * The direct plan for a JSON transform on a table, or null when its columns need the mapping.
 * `tableColumns`: the engine table's column types (a column must have the type the transform gives it).
 */
export function directPlanFor(transform: Resource, options: { tableOrderKey: string; tableColumns: Map<string, string> }): DirectPlan | null {
  if (transformType(transform) !== 'json') return null
  const settings = transform?.settings ?? {}
  const columns = storedColumns(transform)
  if (!columns.length) return null
  const nullValues = new Set<string>(Array.isArray(settings.null_values) ? settings.null_values.map(String) : [])
  // flattening that makes nested names a column could read: the raw insert does not flatten
  const flattening = settings.format_details?.flattening
  if (flattening && flattening.active !== false && flattening.active !== undefined && (typeof flattening.depth === 'number' ? flattening.depth : 10) > 1) {
    const separators = [flattening.map_flattening_strategy?.left ?? '.', flattening.slice_flattening_strategy?.left ?? '[']
    if (separators.some((s) => typeof s !== 'string' || s === '' || columns.some((c) => c.name.includes(s)))) return null
  }
  const checks: { name: string; kind: Kind; lo: number; hi: number; primary: boolean }[] = []
  for (const c of columns) {
    const dt = c.datatype ?? {}
    const type = String(dt.type ?? 'string').toLowerCase()
    if (dt.virtual || (dt.default !== undefined && dt.default !== null)) return null
    if (dt.source?.from_input_field !== undefined && dt.source.from_input_field !== c.name) return null
    const want = dt.primary ? 'DateTime64(3)' : columnType(dt)
    if (options.tableColumns.get(c.name) !== want) return null
    let kind: Kind
    let lo = 0
    let hi = 0
    if (STRINGS.has(type)) kind = Kind.String
    else if (DOUBLES.has(type)) kind = Kind.Double
    else if (type === 'boolean' || type === 'bool') kind = Kind.Bool
    else if (type in INT_RANGES) {
      kind = Kind.Int
      ;[lo, hi] = INT_RANGES[type]
    } else if (type === 'datetime' && (!dt.format || /^2006-01-02[T ]15:04/.test(String(dt.format)))) kind = Kind.Time
    else return null // epoch, Go layouts, arrays, maps, float32: the mapping decides
    checks.push({ name: c.name, kind, lo, hi, primary: !!dt.primary })
  }
  const primary = columns.find((c) => c.datatype?.primary)
  if (!primary || primary.name !== options.tableOrderKey) return null
  // a field named like a table column this transform does not store: the raw insert would store it
  const stored = new Set(columns.map((c) => c.name))
  const foreign = new Set([...options.tableColumns.keys()].filter((name) => !stored.has(name)))

  const valueFits = (value: unknown, check: (typeof checks)[number]): boolean => {
    if (value === null || value === undefined) return !check.primary
    switch (check.kind) {
      case Kind.String:
        return typeof value === 'string' && !nullValues.has(value)
      case Kind.Int:
        return typeof value === 'number' && Number.isSafeInteger(value) && value >= check.lo && value <= check.hi && !Object.is(value, -0)
      case Kind.Double:
        return typeof value === 'number' && !Object.is(value, -0)
      case Kind.Bool:
        return typeof value === 'boolean'
      case Kind.Time:
        return typeof value === 'string' && !nullValues.has(value) && isIsoUtc(value)
    }
  }

  return {
    accepts(records) {
      for (const record of records) {
        if (!record || typeof record !== 'object' || Array.isArray(record)) return false
        const r = record as Record<string, unknown>
        for (const check of checks) if (!valueFits(r[check.name], check)) return false
        if (foreign.size) for (const key in r) if (foreign.has(key)) return false
      }
      return true
    },
    settings: {
      input_format_skip_unknown_fields: 1,
      date_time_input_format: 'best_effort',
      precise_float_parsing: 1,
      input_format_allow_errors_num: 0,
      input_format_allow_errors_ratio: 0,
      // one block, so a refused row leaves nothing written
      min_insert_block_size_rows: 1_000_000_000,
      min_insert_block_size_bytes: 100_000_000_000,
      max_insert_block_size: 1_000_000_000,
    },
  }
}
