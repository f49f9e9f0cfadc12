/**
 * Ingest mapped by the engine (docs/decisions/021-ingest-mapped-by-the-engine.md).
 *
 * A transform's rules (transform.ts: `makeMapper` / `convertValue`) written as one
 * `INSERT INTO db.t (cols) SELECT <mapping> FROM format(JSONEachRow|CSV, '<fields as strings>', <body>)
 * WHERE throwIf(NOT <every rule holds>)`: the engine reads the whole body in its own format, converts
 * every value as the JavaScript mapper would, and refuses the whole statement when any row breaks a
 * rule. The SQL is deliberately conservative: it accepts a value only when it is certain the
 * JavaScript mapper accepts it and stores the same thing; anything else (a rule broken, a value it
 * cannot be sure about, any engine error) throws, and the caller maps that request through the
 * JavaScript mapper instead, which produces the exact errors (or, for a value the SQL was unsure of,
 * inserts as before). Transforms or bodies the SQL does not cover (arrays, maps, float32, Go date
 * layouts, flattening into nested names, unusual CSV options) are never sent this way.
 */
import { columnType, ident, lit, qualified, storedColumns, type Datatype, type OutputColumn } from './engine'
import type { Resource } from '../hooks'
import { csvOptions, hasScript, isFlattening, transformType } from './transform'

export interface EnginePlan {
  type: 'json' | 'csv'
  /** the staging table's columns (every input field as Nullable(String)), its format and input settings */
  structure: string
  format: 'CSV' | 'JSONEachRow'
  input: Record<string, string | number>
  /** the mapping: INSERT INTO the table SELECT ... FROM the staging table */
  insertFrom(stage: string): string
  /** CSV only: lines the transform skips (`skip_head`), and the delimiter */
  skipHead: number
  delimiter: string
}

/** Setting the engine-mapped path off (tests compare both paths). */
let enabled = process.env.CLUSTER_INGEST_ENGINE_MAPPING !== '0'
/**
 * Bodies with fewer rows go through the JavaScript mapper: for a handful of rows its one insert
 * (group-committed) answers sooner than the engine path's staging insert plus mapping statement.
 */
let minRows = 100
export function setEngineMapping(on: boolean, options: { minRows?: number } = {}) {
  enabled = on
  if (options.minRows !== undefined) minRows = options.minRows
}
export function engineMappingMinRows() {
  return minRows
}
export function engineMappingEnabled() {
  return enabled
}

// re2 patterns (the engine's `match`), the same grammar as the JavaScript checks they stand for
/** a JSON number */
const JSON_NUMBER = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$'
/** JSON numbers that JavaScript prints back unchanged (String(Number(x)) === x): integers below 2^53 and short decimals */
const CANONICAL_NUMBER =
  '^(0|-?[1-9][0-9]{0,14}|-?[1-9][0-9]{0,6}\\.[0-9]{0,7}[1-9]|-?0\\.0{0,4}[1-9]([0-9]{0,8}[1-9])?)$'
const DECIMAL = '^-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?$'
/** parseTime's numeric strings: /^-?\d+(\.\d+)?$/ */
const EPOCH_NUMBER = '^-?[0-9]+(\\.[0-9]+)?$'
/** parseTime's ISO_RE */
const ISO =
  '^([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:?[0-9]{2})?$'
const TRUE_WORDS = ['true', '1', 't', 'yes', 'y']
const FALSE_WORDS = ['false', '0', 'f', 'no', 'n', '']

const INT_RANGES: Record<string, [string, string]> = {
  int8: ['-128', '127'],
  uint8: ['0', '255'],
  int16: ['-32768', '32767'],
  uint16: ['0', '65535'],
  int32: ['-2147483648', '2147483647'],
  uint32: ['0', '4294967295'],
  int64: ['-9223372036854775808', '9223372036854775807'],
  uint64: ['0', '18446744073709551615'],
}
const EPOCH_FACTORS: Record<string, number> = {
  s: 1000,
  seconds: 1000,
  second: 1000,
  ms: 1,
  milliseconds: 1,
  cs: 10,
  us: 0.001,
  microseconds: 0.001,
  ns: 0.000001,
  nanoseconds: 0.000001,
}
/** DateTime64(3)'s range, in ms (1900-01-01 .. 2299-12-31 23:59:59.999) */
const MIN_MS = -2208988800000
const MAX_MS = 10413791999999
const STRINGS = new Set(['string', 'ip', 'uuid', 'json'])
const DOUBLES = new Set(['double', 'float', 'float64'])

/** A number literal the engine reads as the same Float64. */
const num = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n))

function words(list: string[]) {
  return `(${list.map(lit).join(', ')})`
}

/** A default value as the JavaScript mapper would see it once converted from text, or undefined when the SQL cannot stand for it. */
function defaultText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'boolean') return String(value)
  return undefined
}

/**
 * The engine plan for a transform on a table, or null when the transform uses something the SQL does
 * not cover. `tableColumns`: the engine table's column types (a column must have the type the
 * transform gives it).
 */
export function planFor(
  transform: Resource,
  options: { tableOrderKey: string; database: string; table: string; tableColumns: Map<string, string> },
): EnginePlan | null {
  const type = transformType(transform)
  const settings = transform?.settings ?? {}
  const columns = storedColumns(transform)
  if (!columns.length) return null
  // a scripted column is computed row by row from the others: the JavaScript mapper's work
  if (columns.some((c) => hasScript(c.datatype))) return null
  const nullValues: string[] = Array.isArray(settings.null_values) ? settings.null_values.map(String) : []
  // JSON: a null value that reads like a JSON number or boolean could have been one (the mapper nulls strings only)
  if (type === 'json' && nullValues.some((v) => /^(true|false)$/.test(v) || new RegExp(JSON_NUMBER).test(v)))
    return null
  const flattening = settings.format_details?.flattening
  let separators: string[] = []
  if (type === 'json' && isFlattening(flattening)) {
    const depth = typeof flattening.depth === 'number' ? flattening.depth : 10
    if (depth > 1) {
      separators = [flattening.map_flattening_strategy?.left ?? '.', flattening.slice_flattening_strategy?.left ?? '[']
      if (separators.some((s) => typeof s !== 'string' || s === '')) return null
    }
  }
  let skipHead = 0
  let structure: string
  let aliases = ''
  const raw = new Map<OutputColumn, string>()
  if (type === 'csv') {
    const o = csvOptions(settings.format_details)
    if (
      o.quote !== '"' ||
      o.escape !== '"' ||
      o.skip_comments ||
      o.delimiter.length !== 1 ||
      /["\r\n]/.test(o.delimiter)
    )
      return null
    skipHead = o.skip_head
    let position = 0
    let max = -1
    for (const c of columns) {
      if (c.datatype?.virtual) continue
      const idx = c.datatype?.source?.from_input_index
      const at = typeof idx === 'number' ? idx : position
      position++
      if (!Number.isInteger(at) || at < 0 || at > 10_000) return null
      raw.set(c, `c${at}`)
      max = Math.max(max, at)
    }
    structure = Array.from({ length: max + 1 }, (_, i) => `c${i} Nullable(String)`).join(', ')
    if (!structure) structure = 'c0 Nullable(String)'
  } else {
    const fields = new Map<string, string>()
    for (const c of columns) {
      if (c.datatype?.virtual) continue
      const field =
        typeof c.datatype?.source?.from_input_field === 'string' ? c.datatype.source.from_input_field : c.name
      if (!field || separators.some((s) => field.includes(s))) return null
      if (!fields.has(field)) fields.set(field, `__hdx_f${fields.size}`)
      raw.set(c, fields.get(field)!)
    }
    if (!fields.size) return null
    // the structure names the body's fields; the SELECT reads them through aliases f0, f1, ...
    structure = [...fields.keys()].map((f) => `${ident(f)} Nullable(String)`).join(', ')
    aliases = [...fields.entries()].map(([f, a]) => `${ident(f)} AS ${a}`).join(', ')
  }

  const select: string[] = []
  const checks: string[] = []
  const targets: string[] = []
  const valueOf = new Map<string, string>()
  let i = 0
  for (const c of columns) {
    const dt: Datatype = c.datatype ?? {}
    const t = String(dt.type ?? 'string').toLowerCase()
    const want = dt.primary ? 'DateTime64(3)' : columnType(dt)
    const actual = options.tableColumns.get(c.name)
    if (actual !== want && !(dt.primary && actual === 'Nullable(DateTime64(3))')) return null
    const v = `__hdx_v${i}`
    const x = `__hdx_x${i}`
    // the input value, then null_values (strings only), then the default (for null or missing)
    let input = dt.virtual ? 'CAST(NULL AS Nullable(String))' : raw.get(c)!
    if (nullValues.length && !dt.virtual) input = `if(${input} IN ${words(nullValues)}, NULL, ${input})`
    const def = defaultText(dt.default)
    if (def === undefined) return null
    if (def !== null) input = `ifNull(${input}, ${lit(def)})`
    select.push(`${input} AS ${v}`)
    let value: string
    let bad: string
    if (
      STRINGS.has(t) ||
      !(
        t in INT_RANGES ||
        DOUBLES.has(t) ||
        t === 'boolean' ||
        t === 'bool' ||
        t === 'datetime' ||
        t === 'epoch' ||
        t === 'array' ||
        t === 'map' ||
        t === 'float32'
      )
    ) {
      value = v
      // JSON: a number the mapper would print differently, or an object/array it would re-serialise
      bad =
        type === 'json'
          ? `(${v} IS NOT NULL AND ((match(${v}, ${lit(JSON_NUMBER)}) AND NOT ` +
            `match(${v}, ${lit(CANONICAL_NUMBER)})) OR startsWith(${v}, '{') OR startsWith(${v}, '[')))`
          : '0'
    } else if (t === 'boolean' || t === 'bool') {
      const s = `lower(trimBoth(${v}))`
      // a number (JSON 2 or "2") is true unless it is zero, as a real intake head reads it
      const numeric = `match(${s}, ${lit(DECIMAL)})`
      value = `if(${v} IS NULL, NULL, ${s} IN ${words(TRUE_WORDS)} OR (${numeric} AND toFloat64OrZero(${s}) != 0))`
      bad = `(${v} IS NOT NULL AND ${s} NOT IN ${words([...TRUE_WORDS, ...FALSE_WORDS])} AND NOT ${numeric})`
    } else if (DOUBLES.has(t)) {
      const blank = `(${v} = '')`
      // + 0.0 turns -0 into 0, as the JavaScript mapper's JSON text does
      value = `if(${v} IS NULL OR ${blank} OR NOT match(${v}, ${lit(DECIMAL)}), NULL, toFloat64OrNull(${v}) + 0.0)`
      bad = `(${v} IS NOT NULL AND NOT ${blank} AND (NOT match(${v}, ${lit(DECIMAL)}) OR NOT isFinite(ifNull(${x}, nan))))`
    } else if (t in INT_RANGES) {
      const [lo, hi] = INT_RANGES[t]
      // JSON numbers beyond 15 digits lose precision in JavaScript: the mapper decides those
      const digits = type === 'json' ? 15 : 18
      const pattern = `^-?[0-9]{1,${digits}}$`
      const blank = `(${v} = '')`
      // at most 18 digits: always an Int64; int64 needs no range check and uint64 only its lower bound
      const n = `toInt64OrNull(${v})`
      value = `if(${v} IS NULL OR ${blank} OR NOT match(${v}, ${lit(pattern)}), NULL, ${n})`
      const range = t === 'int64' ? '' : t === 'uint64' ? ` OR ${x} < 0` : ` OR ${x} < ${lo} OR ${x} > ${hi}`
      bad = `(${v} IS NOT NULL AND NOT ${blank} AND (NOT match(${v}, ${lit(pattern)}) OR ${x} IS NULL${range}))`
    } else if (t === 'datetime' || t === 'epoch') {
      const unit = t === 'epoch' ? (dt.format ?? dt.resolution) : dt.resolution
      // strings in ISO 8601 are read directly only without a format or with an ISO-like one
      const iso = t === 'datetime' && (!dt.format || /^2006-01-02[T ]15:04/.test(String(dt.format)))
      if (t === 'datetime' && !iso) return null // Go layouts: the JavaScript parser
      const blank = `(${v} = '')`
      const n = `toFloat64OrZero(${v})`
      const factor = typeof unit === 'string' && EPOCH_FACTORS[unit] !== undefined ? EPOCH_FACTORS[unit] : undefined
      const numeric =
        factor !== undefined
          ? `${n} * ${num(factor)}`
          : `multiIf(abs(${n}) < 1e11, ${n} * 1000.0, abs(${n}) < 1e14, ${n}, abs(${n}) < 1e17, ${n} / 1000.0, ${n} / 1000000.0)`
      const g = `__hdx_g${i}`
      let isoMs = 'NULL'
      if (iso) {
        // Date.UTC over the matched fields (days from the civil date, Howard Hinnant's algorithm)
        const y = `toInt64OrZero(${g}[1])`
        const mo = `toInt64OrZero(${g}[2])`
        const d = `toInt64OrZero(${g}[3])`
        const yy = `(${y} - (${mo} <= 2))`
        const era = `intDiv(${yy}, 400)`
        const yoe = `(${yy} - ${era} * 400)`
        const doy = `(intDiv(153 * (${mo} + if(${mo} > 2, -3, 9)) + 2, 5) + ${d} - 1)`
        const days = `(${era} * 146097 + ${yoe} * 365 + intDiv(${yoe}, 4) - intDiv(${yoe}, 100) + ${doy} - 719468)`
        const tz = `${g}[8]`
        const offset =
          `if(${tz} IN ('', 'Z', 'z'), 0, if(startsWith(${tz}, '-'), -1, 1) * ` +
          `(toInt64OrZero(substring(${tz}, 2, 2)) * 60 + toInt64OrZero(right(${tz}, 2))) * 60000)`
        const ms =
          `(${days} * 86400000 + toInt64OrZero(${g}[4]) * 3600000 + toInt64OrZero(${g}[5]) * 60000 ` +
          `+ toInt64OrZero(${g}[6]) * 1000 + toInt64(floor(toFloat64OrZero(concat('0', ${g}[7])) * ` +
          `1000)) - ${offset})`
        const dim = `multiIf(${mo} = 2, if((${y} % 4 = 0 AND ${y} % 100 != 0) OR ${y} % 400 = 0, 29, 28), ${mo} IN (4, 6, 9, 11), 30, 31)`
        const valid =
          `(${mo} BETWEEN 1 AND 12 AND ${d} BETWEEN 1 AND ${dim} AND toInt64OrZero(${g}[4]) <= 23 ` +
          `AND toInt64OrZero(${g}[5]) <= 59 AND toInt64OrZero(${g}[6]) <= 59)`
        select.push(`extractGroups(ifNull(${v}, ''), ${lit(ISO)}) AS ${g}`)
        isoMs = `if(length(${g}) = 8 AND ${valid}, toFloat64(${ms}), NULL)`
      }
      const ms = `__hdx_ms${i}`
      select.push(
        `multiIf(${v} IS NULL OR ${blank}, NULL, match(${v}, ${lit(EPOCH_NUMBER)}), floor(${numeric} + 0.5), ${isoMs}) AS ${ms}`,
      )
      value =
        `if(${ms} IS NULL OR NOT isFinite(${ms}) OR ${ms} < ${MIN_MS} OR ${ms} > ${MAX_MS}, NULL, ` +
        `fromUnixTimestamp64Milli(toInt64(least(greatest(if(isFinite(ifNull(${ms}, 0.0)), ` +
        `ifNull(${ms}, 0.0), 0.0), ${num(MIN_MS)}), ${num(MAX_MS)}))))`
      bad = `(${v} IS NOT NULL AND NOT ${blank} AND ${x} IS NULL)`
    } else {
      return null // array, map, float32: the JavaScript mapper
    }
    select.push(`${value} AS ${x}`)
    if (dt.primary) bad = `(${bad} OR ${x} IS NULL)`
    if (bad !== '0') checks.push(bad)
    targets.push(ident(c.name))
    valueOf.set(c.name, x)
    i++
  }
  // the table's own order key, when the transform's primary column has another name
  const primary = columns.find((c) => c.datatype?.primary)
  if (
    options.tableOrderKey &&
    primary &&
    options.tableOrderKey !== primary.name &&
    !valueOf.has(options.tableOrderKey)
  ) {
    targets.push(ident(options.tableOrderKey))
    valueOf.set(options.tableOrderKey, valueOf.get(primary.name)!)
  }
  const outputs = targets.map((target) => {
    const name = target.slice(1, -1).replace(/\\`/g, '`').replace(/\\\\/g, '\\')
    const type = options.tableColumns.get(name)
    if (!type) return null
    return `CAST(${valueOf.get(name)} AS ${type})`
  })
  if (outputs.some((o) => o === null)) return null
  const input: Record<string, string | number> =
    type === 'csv'
      ? {
          input_format_csv_allow_variable_number_of_columns: 1,
          input_format_csv_trim_whitespaces: 0,
          input_format_csv_empty_as_default: 0,
          input_format_csv_detect_header: 0,
          format_csv_allow_single_quotes: 0,
          format_csv_allow_double_quotes: 1,
          format_csv_delimiter: csvOptions(settings.format_details).delimiter,
          input_format_csv_skip_first_lines: skipHead,
        }
      : {
          input_format_skip_unknown_fields: 1,
          input_format_json_read_numbers_as_strings: 1,
          input_format_json_read_bools_as_strings: 1,
          input_format_json_read_objects_as_strings: 1,
          input_format_json_read_arrays_as_strings: 1,
        }
  input.input_format_allow_errors_num = 0
  input.input_format_allow_errors_ratio = 0
  const mapSettings = [
    'precise_float_parsing = 1',
    // every branch is computed for every row (nothing in the mapping throws): short-circuit evaluation
    // recomputed the shared parts per branch and was several times slower
    "short_circuit_function_evaluation = 'disable'",
    // one block, so a refused row leaves nothing written
    'min_insert_block_size_rows = 1000000000',
    'min_insert_block_size_bytes = 100000000000',
    'max_insert_block_size = 1000000000',
  ]
  const where = checks.length ? ` WHERE throwIf(${checks.join(' OR ')}, 'a row does not fit the transform') = 0` : ''
  return {
    type,
    structure,
    format: type === 'csv' ? 'CSV' : 'JSONEachRow',
    input,
    insertFrom: (stage: string) =>
      `INSERT INTO ${qualified(options.database, options.table)} (${targets.join(', ')}) ` +
      `SELECT ${outputs.join(', ')} FROM ` +
      `(SELECT ${aliases ? aliases + ', ' : ''}${select.join(', ')} FROM ${stage}${where}) ` +
      `SETTINGS ${mapSettings.join(', ')}`,
    skipHead,
    delimiter: type === 'csv' ? csvOptions(settings.format_details).delimiter : ',',
  }
}

/**
 * The number of records the engine reads from this CSV body, when it reads the same records as the
 * JavaScript reader (parseCsv); -1 when it might not: carriage returns, blank lines or lines of one
 * empty quoted field (which the reader drops), `\N` (the engine's null), spaces or tabs starting a
 * line (the engine skips them), quotes in the skipped head lines, or a quoted field followed by more
 * text (the reader joins it, the engine skips spaces there or refuses).
 * A quote opens a quoted field only at the start of a field, in both readers.
 */
export function csvRecordCount(body: string, delimiter: string, skipHead: number): number {
  if (!body || body.includes('\r') || body.includes('\\N')) return -1
  if (body.startsWith('\n') || body.includes('\n\n')) return -1
  // the engine skips spaces and tabs at the start of a line
  if (body[0] === ' ' || body[0] === '\t' || body.includes('\n ') || body.includes('\n\t')) return -1
  if (body === '""' || body.startsWith('""\n') || body.includes('\n""\n') || body.endsWith('\n""')) return -1
  let lines = 0
  let at = 0
  const n = body.length
  while (at < n) {
    let nl = body.indexOf('\n', at)
    if (nl < 0) nl = n
    let q = body.indexOf('"', at)
    if (lines < skipHead && q >= 0 && q < nl) return -1
    // quoted fields in this line (a quoted newline moves the line's end)
    while (q >= 0 && q < nl) {
      if (q === at || body[q - 1] === delimiter || body[q - 1] === '\n') {
        // a quoted field: find its closing quote ("" is an escaped quote)
        let close = body.indexOf('"', q + 1)
        while (close >= 0 && body[close + 1] === '"') close = body.indexOf('"', close + 2)
        if (close < 0) return -1
        const after = body[close + 1]
        if (after !== undefined && after !== delimiter && after !== '\n') return -1
        if (close >= nl) {
          nl = body.indexOf('\n', close + 1)
          if (nl < 0) nl = n
        }
        q = body.indexOf('"', close + 1)
      } else q = body.indexOf('"', q + 1) // a quote inside an unquoted field is text
    }
    lines++
    at = nl + 1
  }
  return lines - skipHead
}
