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
import { csvOptions, hasScript, transformType, type CsvOptions } from './transform'

export interface DirectPlan {
  /** JSON: true when the engine's parse of these records stores what the JavaScript mapper would */
  accepts(records: unknown[]): boolean
  /**
   * CSV: true when the engine's parse of this body (already passed by csvRecordCount) stores what
   * the JavaScript mapper would. `body`: the body's bytes as latin1 text, one character per byte
   * (the delimiters, quotes and the values checked here are ASCII, and no byte of a multi-byte UTF-8
   * character is ASCII, so the checks read the same as on the decoded text)
   */
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

export function isIsoUtc(value: string): boolean {
  const m = ISO_UTC.exec(value)
  if (!m) return false
  const year = +m[1]
  const month = +m[2]
  const day = +m[3]
  // DateTime64(3)'s range; a day the month has (Date.UTC would roll 02-30 over to March)
  if (year < 1900 || year > 2299 || month < 1 || month > 12 || day < 1 || +m[4] > 23 || +m[5] > 59 || +m[6] > 59)
    return false
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day
}

const digitsAt = (body: string, at: number, count: number): number => {
  let n = 0
  for (let i = at; i < at + count; i++) {
    const digit = body.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    n = n * 10 + digit
  }
  return n
}
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** isIsoUtc on body[at, end), without a copy of it */
export function timeFits(body: string, at: number, end: number): boolean {
  const length = end - at
  // YYYY-MM-DDTHH:MM:SSZ, or with .f, .ff or .fff before the Z
  if (length !== 20 && (length < 22 || length > 24)) return false
  if (
    body.charCodeAt(at + 4) !== 45 ||
    body.charCodeAt(at + 7) !== 45 ||
    body.charCodeAt(at + 10) !== 84 ||
    body.charCodeAt(at + 13) !== 58 ||
    body.charCodeAt(at + 16) !== 58 ||
    body.charCodeAt(end - 1) !== 90
  )
    return false
  if (length > 20 && (body.charCodeAt(at + 19) !== 46 || digitsAt(body, at + 20, length - 21) < 0)) return false
  const year = digitsAt(body, at, 4)
  const month = digitsAt(body, at + 5, 2)
  const day = digitsAt(body, at + 8, 2)
  const hour = digitsAt(body, at + 11, 2)
  const minute = digitsAt(body, at + 14, 2)
  const second = digitsAt(body, at + 17, 2)
  if (
    year < 1900 ||
    year > 2299 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  )
    return false
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return day <= DAYS[month - 1] + (leap ? 1 : 0)
}

/** INT_TEXT and the range, on body[at, end) (not empty) */
export function intFits(body: string, at: number, end: number, check: { lo: number; hi: number }): boolean {
  let i = at
  const negative = body.charCodeAt(i) === 45
  if (negative) i++
  if (end - i < 1 || end - i > 15) return false
  let n = 0
  for (; i < end; i++) {
    const digit = body.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return false
    n = n * 10 + digit
  }
  if (negative) n = -n
  return n >= check.lo && n <= check.hi
}

/** DOUBLE_TEXT and not a negative zero, on body[at, end) (not empty) */
export function doubleFits(body: string, at: number, end: number): boolean {
  let i = at
  const negative = body.charCodeAt(i) === 45
  if (negative) i++
  let digits = 0
  let nonZero = false
  for (; i < end; i++) {
    const c = body.charCodeAt(i)
    if (c < 48 || c > 57) break
    digits++
    if (c !== 48) nonZero = true
  }
  if (!digits) return false
  if (i < end) {
    if (body.charCodeAt(i) !== 46) return false
    i++
    let decimals = 0
    for (; i < end; i++) {
      const c = body.charCodeAt(i)
      if (c < 48 || c > 57) return false
      decimals++
      if (c !== 48) nonZero = true
    }
    if (!decimals) return false
  }
  return !negative || nonZero
}

/**
 * The direct plan for a JSON transform on a table, or null when its columns need the mapping.
 * `tableColumns`: the engine table's column types (a column must have the type the transform gives it).
 */
export function directPlanFor(
  transform: Resource,
  options: { tableOrderKey: string; tableColumns: Map<string, string> },
): DirectPlan | null {
  const type = transformType(transform)
  const settings = transform?.settings ?? {}
  const columns = storedColumns(transform)
  if (!columns.length) return null
  let csv: CsvOptions | null = null
  if (type === 'csv') {
    csv = csvOptions(settings.format_details)
    if (
      csv.quote !== '"' ||
      csv.escape !== '"' ||
      csv.skip_comments ||
      csv.delimiter.length !== 1 ||
      /["\r\n \t]/.test(csv.delimiter) ||
      csv.delimiter.charCodeAt(0) > 127
    )
      return null
    // every column reads its own field, in order, and names the raw insert can list
    if (
      columns.some(
        (c, i) => (c.datatype?.source?.from_input_index ?? i) !== i || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.name),
      )
    )
      return null
  }
  const nullValues = new Set<string>(Array.isArray(settings.null_values) ? settings.null_values.map(String) : [])
  // as acceptsCsv reads them (latin1 text of their UTF-8 bytes)
  const nullTexts = new Set([...nullValues].map((v) => Buffer.from(v, 'utf8').toString('latin1')))
  // flattening that makes nested names a column could read: the raw insert does not flatten
  const flattening = settings.format_details?.flattening
  if (
    flattening &&
    flattening.active !== false &&
    flattening.active !== undefined &&
    (typeof flattening.depth === 'number' ? flattening.depth : 10) > 1
  ) {
    const separators = [
      flattening.map_flattening_strategy?.left ?? '.',
      flattening.slice_flattening_strategy?.left ?? '[',
    ]
    if (separators.some((s) => typeof s !== 'string' || s === '' || columns.some((c) => c.name.includes(s))))
      return null
  }
  const checks: { name: string; kind: Kind; lo: number; hi: number; primary: boolean }[] = []
  for (const c of columns) {
    const dt = c.datatype ?? {}
    const type = String(dt.type ?? 'string').toLowerCase()
    if (dt.virtual || hasScript(dt) || (dt.default !== undefined && dt.default !== null)) return null
    if (type === 'json' && dt.source?.from_input_field !== undefined && dt.source.from_input_field !== c.name)
      return null
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
        return (
          typeof value === 'number' &&
          Number.isSafeInteger(value) &&
          value >= check.lo &&
          value <= check.hi &&
          !Object.is(value, -0)
        )
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
    if (nullTexts.has(value)) return false
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
      const last = checks.length - 1
      // whether the character at `at` closes field f: the delimiter after a field, a newline (or the
      // end of the body) after the last; anything else means fewer or more fields than columns
      const closes = (at: number, f: number) => {
        const next = at < n ? body.charCodeAt(at) : 10
        return f < last ? next === delimiter : next === 10
      }
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
            // without null values, a plain string field that cannot read as NULL needs no check, and
            // a number is checked where it lies (what textFits does, without a copy of it)
            const kind = checks[f].kind
            if (
              !nullTexts.size &&
              end > at &&
              (kind === Kind.String
                ? end - at !== 4
                : kind === Kind.Int
                  ? intFits(body, at, end, checks[f])
                  : kind === Kind.Double
                    ? doubleFits(body, at, end)
                    : kind === Kind.Time && timeFits(body, at, end))
            ) {
              if (!closes(end, f)) return false
              at = end + 1
              continue
            }
            value = body.slice(at, end)
            at = end
          }
          // an empty field: the mapper's '' for strings, null for the rest (the engine's default differs)
          if (value === '' ? checks[f].kind !== Kind.String || nullTexts.has('') : !textFits(value, quoted, checks[f]))
            return false
          if (!closes(at, f)) return false
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
