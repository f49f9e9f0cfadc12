/**
 * Mapping input rows (JSON records or CSV lines) through a transform's output columns into rows the
 * engine table accepts. Shared by /ingest/event, /validator and batch jobs.
 */
import { storedColumns, type Datatype, type OutputColumn } from './engine'
import type { Resource } from '../hooks'

export type Mapped = { ok: true; row: Record<string, unknown> } | { ok: false; error: string }

export interface CsvOptions {
  delimiter: string
  quote: string
  escape: string
  comment: string
  skip_head: number
  skip_comments: boolean
}

// ---------------------------------------------------------------------------------------------
// Parsing bodies

/** JSON body: one object, an array of objects, or newline-delimited objects. */
export function parseJsonRecords(text: string): { records: unknown[]; error?: string } {
  const trimmed = text.trim()
  if (!trimmed) return { records: [] }
  try {
    const parsed = JSON.parse(trimmed)
    return { records: Array.isArray(parsed) ? parsed : [parsed] }
  } catch {
    // newline-delimited JSON
  }
  const records: unknown[] = []
  const lines = trimmed.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (!line) continue
    try {
      records.push(JSON.parse(line))
    } catch (error) {
      return { records, error: `line ${i + 1}: invalid JSON (${(error as Error).message})` }
    }
  }
  return { records }
}

export function csvOptions(formatDetails: Record<string, unknown> | undefined): CsvOptions {
  const f = formatDetails ?? {}
  const str = (v: unknown, d: string) => (typeof v === 'string' && v.length > 0 ? v : d)
  return {
    delimiter: str(f.delimiter, ','),
    quote: str(f.quote, '"'),
    escape: str(f.escape, '"'),
    comment: typeof f.comment === 'string' ? f.comment : '#',
    skip_head: typeof f.skip_head === 'number' && f.skip_head > 0 ? Math.floor(f.skip_head) : 0,
    skip_comments: f.skip_comments === true,
  }
}

/** A small RFC-4180 CSV reader honouring the transform's delimiter, quote, escape and comments. */
export function parseCsv(text: string, options: CsvOptions): string[][] {
  const rows: string[][] = []
  const { delimiter, quote, escape } = options
  let field = ''
  let row: string[] = []
  let inQuotes = false
  let i = 0
  let fieldStarted = false
  const pushRow = () => {
    row.push(field)
    rows.push(row)
    row = []
    field = ''
    fieldStarted = false
  }
  while (i < text.length) {
    const c = text[i]
    if (inQuotes) {
      if (c === escape && escape !== quote && text[i + 1] === quote) {
        field += quote
        i += 2
        continue
      }
      if (c === quote) {
        if (escape === quote && text[i + 1] === quote) {
          field += quote
          i += 2
          continue
        }
        inQuotes = false
        i++
        continue
      }
      field += c
      i++
      continue
    }
    if (c === quote && !fieldStarted) {
      inQuotes = true
      fieldStarted = true
      i++
      continue
    }
    if (c === delimiter) {
      row.push(field)
      field = ''
      fieldStarted = false
      i++
      continue
    }
    if (c === '\r' && text[i + 1] === '\n') {
      i++
      continue
    }
    if (c === '\n') {
      pushRow()
      i++
      continue
    }
    field += c
    fieldStarted = true
    i++
  }
  if (field !== '' || row.length > 0) pushRow()
  let out = rows.filter((r) => !(r.length === 1 && r[0] === ''))
  if (options.skip_comments && options.comment) out = out.filter((r) => !r[0]?.startsWith(options.comment))
  return out.slice(options.skip_head)
}

/**
 * Whether a transform's `format_details.flattening` flattens: `active` given and not false (null, as a live cluster
 * may answer, is absent).
 */
export function isFlattening(flattening: Record<string, any> | null | undefined): flattening is Record<string, any> {
  return !!flattening && flattening.active !== false && flattening.active !== undefined && flattening.active !== null
}

/** Flattens nested objects as the transform's `format_details.flattening` says (`a.b`, `a[0]`). */
export function flatten(
  record: Record<string, unknown>,
  flattening: Record<string, any> | null | undefined,
): Record<string, unknown> {
  if (!isFlattening(flattening)) return record
  const depth = typeof flattening.depth === 'number' ? flattening.depth : 10
  const mapL = flattening.map_flattening_strategy?.left ?? '.'
  const mapR = flattening.map_flattening_strategy?.right ?? ''
  const sliceL = flattening.slice_flattening_strategy?.left ?? '['
  const sliceR = flattening.slice_flattening_strategy?.right ?? ']'
  const out: Record<string, unknown> = {}
  const walk = (value: unknown, prefix: string, level: number) => {
    if (level < depth && value && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
      if (entries.length === 0) {
        out[prefix] = value
        return
      }
      for (const [k, v] of entries) {
        const key =
          prefix === '' ? k : Array.isArray(value) ? `${prefix}${sliceL}${k}${sliceR}` : `${prefix}${mapL}${k}${mapR}`
        walk(v, key, level + 1)
      }
      // keep the nested value too, so a column can take the whole object or array
      if (prefix !== '') out[prefix] = value
      return
    }
    out[prefix] = value
  }
  for (const [k, v] of Object.entries(record)) walk(v, k, 1)
  return out
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** Go reference-time layouts (`2006-01-02T15:04:05Z07:00`) compiled to a parser; null if it has no Go tokens. */
const layoutCache = new Map<string, ((s: string) => number | null) | null>()
export function goLayoutParser(layout: string): ((s: string) => number | null) | null {
  if (layoutCache.has(layout)) return layoutCache.get(layout)!
  const tokens: [string, string, string][] = [
    // [token, regex, field]
    ['January', '([A-Za-z]+)', 'monthName'],
    ['Monday', '[A-Za-z]+', ''],
    ['2006', '(\\d{4})', 'year'],
    ['Z07:00', '(Z|[+-]\\d\\d:\\d\\d)', 'tz'],
    ['Z0700', '(Z|[+-]\\d{4})', 'tz'],
    ['-07:00', '([+-]\\d\\d:\\d\\d)', 'tz'],
    ['-0700', '([+-]\\d{4})', 'tz'],
    ['-07', '([+-]\\d\\d)', 'tz'],
    ['Jan', '([A-Za-z]{3})', 'monthName'],
    ['Mon', '[A-Za-z]{3}', ''],
    ['MST', '[A-Z]{2,5}', ''],
    ['.000000000', '\\.(\\d{9})', 'frac'],
    ['.000000', '\\.(\\d{6})', 'frac'],
    ['.000', '\\.(\\d{3})', 'frac'],
    ['.999999999', '(?:\\.(\\d+))?', 'frac'],
    ['.999999', '(?:\\.(\\d+))?', 'frac'],
    ['.999', '(?:\\.(\\d+))?', 'frac'],
    ['01', '(\\d\\d)', 'month'],
    ['02', '(\\d\\d)', 'day'],
    ['_2', '\\s?(\\d{1,2})', 'day'],
    ['15', '(\\d\\d)', 'hour'],
    ['03', '(\\d\\d)', 'hour12'],
    ['04', '(\\d\\d)', 'minute'],
    ['05', '(\\d\\d)', 'second'],
    ['06', '(\\d\\d)', 'year2'],
    ['PM', '(AM|PM)', 'ampm'],
    ['pm', '(am|pm)', 'ampm'],
    ['1', '(\\d{1,2})', 'month'],
    ['2', '(\\d{1,2})', 'day'],
    ['3', '(\\d{1,2})', 'hour12'],
    ['4', '(\\d{1,2})', 'minute'],
    ['5', '(\\d{1,2})', 'second'],
  ]
  let regex = '^'
  const fields: string[] = []
  let i = 0
  let matchedAny = false
  outer: while (i < layout.length) {
    for (const [token, re, field] of tokens) {
      if (layout.startsWith(token, i)) {
        regex += re
        if (field) fields.push(field)
        i += token.length
        if (field === 'year' || field === 'month' || field === 'day' || field === 'hour') matchedAny = true
        continue outer
      }
    }
    regex += layout[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    i++
  }
  if (!matchedAny) {
    layoutCache.set(layout, null)
    return null
  }
  const compiled = new RegExp(regex + '$')
  const parser = (s: string): number | null => {
    const m = compiled.exec(s.trim())
    if (!m) return null
    const v: Record<string, string> = {}
    fields.forEach((f, k) => (v[f] = m[k + 1]))
    const year = v.year ? Number(v.year) : v.year2 ? 2000 + Number(v.year2) : 1970
    const month = v.month
      ? Number(v.month) - 1
      : v.monthName
        ? MONTHS.indexOf(v.monthName.slice(0, 3).toLowerCase())
        : 0
    let hour = v.hour ? Number(v.hour) : v.hour12 ? Number(v.hour12) % 12 : 0
    if (v.ampm && /pm/i.test(v.ampm)) hour += 12
    const ms = v.frac ? Math.floor(Number(`0.${v.frac}`) * 1000) : 0
    let t = Date.UTC(year, month, v.day ? Number(v.day) : 1, hour, Number(v.minute ?? 0), Number(v.second ?? 0), ms)
    if (v.tz && v.tz !== 'Z') {
      const tz = /([+-])(\d\d):?(\d\d)?/.exec(v.tz)
      if (tz) t -= (tz[1] === '-' ? -1 : 1) * (Number(tz[2]) * 60 + Number(tz[3] ?? 0)) * 60_000
    }
    return Number.isFinite(t) && month >= 0 ? t : null
  }
  layoutCache.set(layout, parser)
  return parser
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

function epochToMs(n: number, unit: string | undefined): number {
  if (unit && EPOCH_FACTORS[unit] !== undefined) return n * EPOCH_FACTORS[unit]
  // no unit: guess from the magnitude
  const a = Math.abs(n)
  if (a < 1e11) return n * 1000
  if (a < 1e14) return n
  if (a < 1e17) return n / 1000
  return n / 1e6
}

/** ISO 8601 / RFC 3339 (`2024-01-02T03:04:05.678Z`, space or T, zone optional = UTC): the common case, parsed without a layout. */
const ISO_RE = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|z|[+-]\d\d:?\d\d)?$/

/** Milliseconds since the epoch for a datetime/epoch value, or null when it cannot be read. */
export function parseTime(value: unknown, dt: Datatype): number | null {
  const type = String(dt.type ?? 'datetime').toLowerCase()
  if (typeof value === 'number') {
    return epochToMs(value, type === 'epoch' ? (dt.format ?? dt.resolution) : dt.resolution)
  }
  if (typeof value !== 'string') return null
  const s = value.trim()
  if (!s) return null
  if (/^-?\d+(\.\d+)?$/.test(s))
    return epochToMs(Number(s), type === 'epoch' ? (dt.format ?? dt.resolution) : dt.resolution)
  const iso = !dt.format || /^2006-01-02[T ]15:04/.test(dt.format) ? ISO_RE.exec(s) : null
  if (iso) {
    let t = Date.UTC(
      +iso[1],
      +iso[2] - 1,
      +iso[3],
      +iso[4],
      +iso[5],
      +(iso[6] ?? 0),
      iso[7] ? Math.floor(Number('0' + iso[7]) * 1000) : 0,
    )
    const tz = iso[8]
    if (tz && tz !== 'Z' && tz !== 'z')
      t -= (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(-2))) * 60_000
    return t
  }
  if (type === 'datetime' && typeof dt.format === 'string' && dt.format) {
    const parser = goLayoutParser(dt.format)
    if (parser) {
      const t = parser(s)
      if (t !== null) return t
    }
  }
  // best effort, as parseDateTime64BestEffort would: ISO with or without zone (UTC), RFC 2822...
  let candidate = s
  if (/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(s)) candidate = s.replace(' ', 'T') + 'Z'
  else if (/^\d{4}-\d\d-\d\d$/.test(s)) candidate = s + 'T00:00:00Z'
  else if (/^\d{4}\/\d\d\/\d\d[ T]\d\d:\d\d:\d\d$/.test(s)) candidate = s.replace(/\//g, '-').replace(' ', 'T') + 'Z'
  else if (/^\d\d\/[A-Za-z]{3}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}$/.test(s)) {
    // Apache common log: 10/Oct/2000:13:55:36 -0700
    const p = goLayoutParser('02/Jan/2006:15:04:05 -0700')!
    return p(s)
  }
  const t = Date.parse(candidate)
  return Number.isFinite(t) ? t : null
}

const pad2 = (n: number) => (n < 10 ? '0' + n : String(n))
const pad3 = (n: number) => (n < 10 ? '00' + n : n < 100 ? '0' + n : String(n))

/** `YYYY-MM-DD hh:mm:ss.mmm` (UTC), what a DateTime64(3) column takes. */
export function formatTime(ms: number): string {
  const d = new Date(Math.round(ms))
  const y = d.getUTCFullYear()
  if (y < 1000 || y > 9999) return d.toISOString().replace('T', ' ').replace('Z', '')
  const date = `${y}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`
  return `${date} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${pad3(d.getUTCMilliseconds())}`
}

// ---------------------------------------------------------------------------------------------
// Values

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int8: [-128n, 127n],
  uint8: [0n, 255n],
  int16: [-32768n, 32767n],
  uint16: [0n, 65535n],
  int32: [-2147483648n, 2147483647n],
  uint32: [0n, 4294967295n],
  int64: [-9223372036854775808n, 9223372036854775807n],
  uint64: [0n, 18446744073709551615n],
}

const NUM_RANGES: Record<string, [number, number]> = Object.fromEntries(
  Object.entries(INT_RANGES).map(([k, [lo, hi]]) => [k, [Number(lo), Number(hi)]]),
)

class ValueError extends Error {}

/** Converts one input value to what the engine column accepts in JSONEachRow; throws ValueError. */
export function convertValue(value: unknown, dt: Datatype): unknown {
  if (value === null || value === undefined) return null
  const type = dt.__type ?? String(dt.type ?? 'string').toLowerCase()
  switch (type) {
    case 'string':
    case 'ip':
    case 'uuid':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value)
    case 'boolean':
    case 'bool': {
      if (typeof value === 'boolean') return value
      const s = String(value).trim().toLowerCase()
      if (['true', '1', 't', 'yes', 'y'].includes(s)) return true
      if (['false', '0', 'f', 'no', 'n', ''].includes(s)) return false
      // a number (JSON 2 or "2") is true unless it is zero, as a real intake head reads it
      if (/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(s)) return Number(s) !== 0
      throw new ValueError(`"${value}" is not a boolean`)
    }
    case 'double':
    case 'float':
    case 'float32':
    case 'float64': {
      if (typeof value === 'string' && value.trim() === '') return null
      const n = typeof value === 'number' ? value : Number(value)
      if (!Number.isFinite(n)) throw new ValueError(`"${value}" is not a number`)
      return n
    }
    case 'datetime':
    case 'epoch': {
      if (typeof value === 'string' && value.trim() === '') return null
      const t = parseTime(value, dt)
      if (t === null) throw new ValueError(`"${value}" is not a ${type}${dt.format ? ` in format "${dt.format}"` : ''}`)
      return formatTime(t)
    }
    case 'array': {
      let arr = value
      if (typeof arr === 'string') {
        try {
          arr = JSON.parse(arr)
        } catch {
          throw new ValueError(`"${value}" is not an array`)
        }
      }
      if (!Array.isArray(arr)) throw new ValueError(`${JSON.stringify(value)} is not an array`)
      const el = dt.elements?.[0] ?? { type: 'string' }
      return arr.map((v) => convertValue(v, el))
    }
    case 'map': {
      let obj = value
      if (typeof obj === 'string') {
        try {
          obj = JSON.parse(obj)
        } catch {
          throw new ValueError(`"${value}" is not a map`)
        }
      }
      if (!obj || typeof obj !== 'object' || Array.isArray(obj))
        throw new ValueError(`${JSON.stringify(value)} is not a map`)
      const el = dt.elements?.[1] ?? { type: 'string' }
      return Object.fromEntries(
        Object.entries(obj as Record<string, unknown>).map(([k, v]) => [k, convertValue(v, el)]),
      )
    }
    default: {
      const range = INT_RANGES[type]
      if (!range) return typeof value === 'string' ? value : JSON.stringify(value)
      if (typeof value === 'number' && Number.isSafeInteger(value)) {
        const [lo, hi] = NUM_RANGES[type]
        if (value < lo || value > hi) throw new ValueError(`${value} is out of range for ${type}`)
        return value
      }
      if (typeof value === 'string' && value.trim() === '') return null
      let big: bigint
      try {
        if (typeof value === 'number') {
          if (!Number.isInteger(value)) throw new Error()
          big = BigInt(value)
        } else if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) big = BigInt(value.trim())
        else if (typeof value === 'boolean') big = value ? 1n : 0n
        else throw new Error()
      } catch {
        throw new ValueError(`"${value}" is not an integer`)
      }
      if (big < range[0] || big > range[1]) throw new ValueError(`${big} is out of range for ${type}`)
      return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big.toString()
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scripts

/** A compiled column script: the row's values and literals it joins with `+`. */
export type Script =
  { ok: true; terms: ({ ref: string } | { literal: string | number })[] } | { ok: false; error: string }

const SCRIPT_TERM =
  /^\s*(?:row\[\s*'((?:[^'\\]|\\.)*)'\s*\]|row\[\s*"((?:[^"\\]|\\.)*)"\s*\]|row\.([A-Za-z_$][\w$]*)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?))\s*/
const unescape = (text: string) => text.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c))

const scriptCache = new Map<string, Script>()

/**
 * Compiles a column's `script` (a JavaScript expression on a real cluster, decision 066). The local
 * cluster runs no code it is sent: it reads the expressions that join the row's values and literals
 * with `+` (`row['date'] + ' ' + row['time']`), and refuses any other with a message that says so.
 */
export function compileScript(source: string): Script {
  const kept = scriptCache.get(source)
  if (kept) return kept
  const terms: ({ ref: string } | { literal: string | number })[] = []
  let rest = source
  let script: Script | null = null
  for (;;) {
    const match = SCRIPT_TERM.exec(rest)
    if (!match) break
    const [whole, single, double, dotted, singleText, doubleText, number] = match
    if (single !== undefined || double !== undefined || dotted !== undefined)
      terms.push({ ref: dotted ?? unescape(single ?? double!) })
    else if (number !== undefined) terms.push({ literal: Number(number) })
    else terms.push({ literal: unescape(singleText ?? doubleText!) })
    rest = rest.slice(whole.length)
    if (!rest.trim()) {
      script = { ok: true, terms }
      break
    }
    if (!rest.startsWith('+')) break
    rest = rest.slice(1)
  }
  script ??= {
    ok: false,
    error:
      `the local cluster runs only scripts that join row values and text with + (row['date'] + ` +
      `' ' + row['time']), not ${JSON.stringify(source)}`,
  }
  scriptCache.set(source, script)
  return script
}

/** The value of a compiled script on `row`: as JavaScript's `+` gives it; null when a value it reads is missing. */
export function runScript(script: Extract<Script, { ok: true }>, row: Record<string, unknown>): unknown {
  const values: unknown[] = []
  for (const term of script.terms) {
    const value = 'ref' in term ? row[term.ref] : term.literal
    if (value === null || value === undefined) return null
    values.push(value)
  }
  return values.slice(1).reduce((sum: any, value: any) => sum + value, values[0])
}

// ---------------------------------------------------------------------------------------------
// Row mapping

function withTypeCache(dt: Datatype): Datatype {
  const out: Datatype = { ...dt, __type: String(dt.type ?? 'string').toLowerCase() }
  if (Array.isArray(dt.elements))
    out.elements = dt.elements.map((e) => (e && typeof e === 'object' ? withTypeCache(e) : e))
  return out
}

/** Whether a column computes its value with a script (a blank or null script is none). */
export function hasScript(dt: Datatype | undefined): dt is Datatype & { script: string } {
  return typeof dt?.script === 'string' && dt.script.trim() !== ''
}

export interface Mapper {
  columns: OutputColumn[]
  type: 'json' | 'csv'
  /** Maps one record (object for JSON, string[] for CSV). */
  map(record: unknown, index: number): Mapped
}

export function transformType(transform: Resource): 'json' | 'csv' {
  return String(transform?.type ?? 'json').toLowerCase() === 'csv' ? 'csv' : 'json'
}

/** Builds the row mapper for a transform. `extraPrimary` also fills the table's own order key. */
export function makeMapper(transform: Resource, options: { tableOrderKey?: string } = {}): Mapper {
  // datatypes with the lowercased type cached (convertValue reads `__type`)
  const columns = storedColumns(transform).map((c) => ({ ...c, datatype: withTypeCache(c.datatype ?? {}) }))
  const type = transformType(transform)
  const nullValues = new Set<string>(
    Array.isArray(transform?.settings?.null_values) ? transform.settings.null_values.map(String) : [],
  )
  const flattening = transform?.settings?.format_details?.flattening
  const primary = columns.find((c) => c.datatype?.primary)
  const scripts = new Map<OutputColumn, Script>()
  for (const c of columns) if (hasScript(c.datatype)) scripts.set(c, compileScript(c.datatype.script))
  const csvIndex = new Map<OutputColumn, number>()
  let position = 0
  for (const c of columns) {
    if (c.datatype?.virtual) continue
    const idx = c.datatype?.source?.from_input_index
    csvIndex.set(c, typeof idx === 'number' ? idx : position)
    position++
  }
  return {
    columns,
    type,
    map(record: unknown, index: number): Mapped {
      let input: Record<string, unknown> | string[]
      if (type === 'csv') {
        if (!Array.isArray(record)) return { ok: false, error: `row ${index + 1}: expected a CSV line` }
        input = record as string[]
      } else {
        if (!record || typeof record !== 'object' || Array.isArray(record))
          return {
            ok: false,
            error: `row ${index + 1}: expected a JSON object, got ${Array.isArray(record) ? 'an array' : typeof record}`,
          }
        input = flatten(record as Record<string, unknown>, flattening)
      }
      const row: Record<string, unknown> = {}
      for (const c of columns) {
        const dt = c.datatype ?? {}
        // scripted columns run after every other value is in the row, in their order (as a real cluster)
        if (scripts.has(c)) continue
        let raw: unknown
        if (dt.virtual) raw = undefined
        else if (Array.isArray(input)) raw = input[csvIndex.get(c)!]
        else {
          const field = typeof dt.source?.from_input_field === 'string' ? dt.source.from_input_field : c.name
          raw = (input as Record<string, unknown>)[field]
        }
        if (typeof raw === 'string' && nullValues.has(raw)) raw = null
        if ((raw === undefined || raw === null) && dt.default !== undefined && dt.default !== null) raw = dt.default
        let value: unknown
        try {
          value = convertValue(raw, dt)
        } catch (error) {
          return { ok: false, error: `row ${index + 1}: column "${c.name}": ${(error as Error).message}` }
        }
        if (value === null && dt.primary)
          return { ok: false, error: `row ${index + 1}: primary column "${c.name}" is missing or empty` }
        if (value === null && (String(dt.type).toLowerCase() === 'array' || String(dt.type).toLowerCase() === 'map')) {
          value = String(dt.type).toLowerCase() === 'array' ? [] : {}
        }
        row[c.name] = value
      }
      for (const [c, script] of scripts) {
        const dt = c.datatype ?? {}
        if (!script.ok) return { ok: false, error: `row ${index + 1}: column "${c.name}": ${script.error}` }
        let value: unknown
        try {
          value = convertValue(runScript(script, row), dt)
        } catch (error) {
          return { ok: false, error: `row ${index + 1}: column "${c.name}": ${(error as Error).message}` }
        }
        if (value === null && dt.primary)
          return { ok: false, error: `row ${index + 1}: primary column "${c.name}" is missing or empty` }
        row[c.name] = value
      }
      if (
        options.tableOrderKey &&
        primary &&
        options.tableOrderKey !== primary.name &&
        row[options.tableOrderKey] === undefined
      ) {
        row[options.tableOrderKey] = row[primary.name]
      }
      return { ok: true, row }
    },
  }
}

/** Splits a body into records for the transform type (JSON objects or CSV field arrays). */
export function recordsOf(
  text: string,
  type: 'json' | 'csv',
  formatDetails?: Record<string, unknown>,
): { records: unknown[]; error?: string } {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1) // a UTF-8 byte order mark
  if (type === 'csv') return { records: parseCsv(text, csvOptions(formatDetails)) }
  return parseJsonRecords(text)
}

/** JSONEachRow bytes of mapped rows (64-bit integers beyond 2^53 are kept as strings). */
export function toJsonEachRow(rows: Record<string, unknown>[]): Buffer {
  return Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
}
