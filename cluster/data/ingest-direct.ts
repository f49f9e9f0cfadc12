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
import { csvOptions, transformType, type CsvOptions } from './transform'

export interface DirectPlan {
  /** JSON: true when the engine's parse of these records stores what the JavaScript mapper would */
  accepts(records: unknown[]): boolean
  /** CSV: true when the engine's parse of this body (already passed by csvRecordCount) stores what the JavaScript mapper would */
  acceptsCsv(body: string): boolean
  format: 'JSONEachRow' | 'CSV'
  /** CSV: the table's columns in input order */
  columns?: string[]
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

const INT_TEXT = /^-?\d{1,15}$/
const DOUBLE_TEXT = /^-?\d+(\.\d+)?$/

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
  const type = transformType(transform)
  const settings = transform?.settings ?? {}
  const columns = storedColumns(transform)
  if (!columns.length) return null
  let csv: CsvOptions | null = null
  if (type === 'csv') {
    csv = csvOptions(settings.format_details)
    if (csv.quote !== '"' || csv.escape !== '"' || csv.skip_comments || csv.delimiter.length !== 1 || /["\r\n \t]/.test(csv.delimiter)) return null
    // every column reads its own field, in order, and names the raw insert can list
    if (columns.some((c, i) => (c.datatype?.source?.from_input_index ?? i) !== i || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.name))) return null
  }
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
    if (type === 'json' && dt.source?.from_input_field !== undefined && dt.source.from_input_field !== c.name) return null
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

  /** a CSV field's text (unquoted) checked as the column's kind; `quoted`: it was in quotes */
  const textFits = (value: string, quoted: boolean, check: (typeof checks)[number]): boolean => {
    if (nullValues.has(value)) return false
    switch (check.kind) {
      case Kind.String:
        // the engine may read an unquoted NULL as null in a Nullable column
        return quoted || !/^null$/i.test(value)
      case Kind.Int: {
        if (!INT_TEXT.test(value)) return false
        const n = Number(value)
        return n >= check.lo && n <= check.hi
      }
      case Kind.Double:
        return DOUBLE_TEXT.test(value) && !/^-0*(\.0*)?$/.test(value)
      case Kind.Bool:
        return value === 'true' || value === 'false'
      case Kind.Time:
        return isIsoUtc(value)
    }
  }

  return {
    format: type === 'csv' ? 'CSV' : 'JSONEachRow',
    columns: type === 'csv' ? columns.map((c) => c.name) : undefined,
    acceptsCsv(body) {
      if (!csv) return false
      const delimiter = csv.delimiter.charCodeAt(0)
      const n = body.length
      let at = 0
      for (let k = 0; k < csv.skip_head && at < n; k++) {
        const nl = body.indexOf('\n', at)
        at = nl < 0 ? n : nl + 1
      }
      while (at < n) {
        for (let f = 0; f < checks.length; f++) {
          let value: string
          const quoted = body.charCodeAt(at) === 34
          if (quoted) {
            value = ''
            let from = at + 1
            for (;;) {
              const q = body.indexOf('"', from)
              if (q < 0) return false
              if (body.charCodeAt(q + 1) === 34) {
                value += body.slice(from, q + 1)
                from = q + 2
                continue
              }
              value += body.slice(from, q)
              at = q + 1
              break
            }
          } else {
            let end = at
            while (end < n) {
              const ch = body.charCodeAt(end)
              if (ch === delimiter || ch === 10) break
              end++
            }
            value = body.slice(at, end)
            at = end
          }
          // an empty field: the mapper's '' for strings, null for the rest (the engine's default differs)
          if (value === '' ? checks[f].kind !== Kind.String || nullValues.has('') : !textFits(value, quoted, checks[f])) return false
          const next = at < n ? body.charCodeAt(at) : 10
          if (f < checks.length - 1) {
            if (next !== delimiter) return false // fewer fields than columns
          } else if (next !== 10) return false // more fields than columns
          at++
        }
      }
      return true
    },
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
      ...(csv
        ? {
            format_csv_delimiter: csv.delimiter,
            input_format_csv_skip_first_lines: csv.skip_head,
            input_format_csv_empty_as_default: 0,
            input_format_csv_trim_whitespaces: 0,
            input_format_csv_detect_header: 0,
            input_format_csv_allow_variable_number_of_columns: 0,
            format_csv_allow_single_quotes: 0,
            format_csv_allow_double_quotes: 1,
          }
        : { input_format_skip_unknown_fields: 1 }),
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
