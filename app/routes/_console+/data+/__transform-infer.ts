/**
 * Infers a transform from sample rows (CSV with a header line, or JSON: one object, an array or JSON
 * lines): column names, types, the primary timestamp and its format. Pure: runs on the server (the
 * "Infer from sample" submit) and needs no browser. The result is a proposal the user edits.
 */

export type InferredColumn = {
  name: string
  type: string
  format?: string
  primary?: boolean
  index?: boolean
  elements?: string
  /** The column's other datatype keys (a virtual column's `virtual` and `script`). */
  extra?: Record<string, unknown>
}

export type Inference = {
  type: 'csv' | 'json'
  columns: InferredColumn[]
  /** JSON with nested objects: flattening is proposed, the columns are the dotted paths. */
  flattening: boolean
  /** CSV: the lines to skip (the header line). */
  skipHead?: number
  /** What was guessed and what the user should check. */
  notes: string[]
}

/** Datetime layouts (Go reference time) recognised in samples, most specific first. */
const DATETIME_LAYOUTS: [RegExp, string][] = [
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, '2006-01-02T15:04:05Z'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, '2006-01-02T15:04:05.000Z'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, '2006-01-02T15:04:05.000000Z'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/, '2006-01-02T15:04:05.999999999Z'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/, '2006-01-02T15:04:05-07:00'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/, '2006-01-02T15:04:05.000-07:00'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, '2006-01-02T15:04:05'],
  [/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, '2006-01-02 15:04:05'],
  [/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/, '2006-01-02 15:04:05.000'],
  [/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d$/, '2006/01/02 15:04:05'],
  [/^\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}$/, '02/Jan/2006:15:04:05 -0700'],
  [/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/, 'Mon, 02 Jan 2006 15:04:05 GMT'],
  [/^\d{4}-\d\d-\d\d$/, '2006-01-02'],
]

const TIME_NAME = /(^|[_.-])(timestamp|time|date|datetime|ts|event_time|@timestamp)$|^(timestamp|time|date|ts|_time)$/i

/** A small CSV reader (RFC 4180 quotes) for samples. */
export function readCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === delimiter) {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      if (row.some((value) => value !== '')) rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  row.push(field)
  if (row.some((value) => value !== '')) rows.push(row)
  return rows
}

/** A column name the cluster accepts: no spaces or quotes. */
function cleanName(name: string, index: number): string {
  const cleaned = name.trim().replace(/[\s`'"\\]+/g, '_')
  return cleaned || `column_${index + 1}`
}

function layoutOf(values: string[]): string | undefined {
  for (const [pattern, layout] of DATETIME_LAYOUTS) if (values.every((value) => pattern.test(value))) return layout
  return undefined
}

/** The type of a column from its non-empty text values (CSV cells, or JSON scalars as text). */
function scalarType(values: string[], name: string): Pick<InferredColumn, 'type' | 'format'> {
  if (!values.length) return { type: 'string' }
  if (values.every((value) => /^(true|false)$/i.test(value))) return { type: 'boolean' }
  if (values.every((value) => /^-?\d+$/.test(value))) {
    if (TIME_NAME.test(name) || /epoch|_at$/i.test(name)) {
      if (values.every((value) => /^\d{10}$/.test(value))) return { type: 'epoch', format: 's' }
      if (values.every((value) => /^\d{13}$/.test(value))) return { type: 'epoch', format: 'ms' }
      if (values.every((value) => /^\d{16}$/.test(value))) return { type: 'epoch', format: 'us' }
      if (values.every((value) => /^\d{19}$/.test(value))) return { type: 'epoch', format: 'ns' }
    }
    return { type: values.some((value) => value.startsWith('-')) ? 'int64' : 'uint64' }
  }
  if (values.every((value) => /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value))) return { type: 'double' }
  if (values.every((value) => /^\d{10}\.\d{1,6}$/.test(value)) && TIME_NAME.test(name))
    return { type: 'epoch', format: 's' }
  const layout = layoutOf(values)
  if (layout) return { type: 'datetime', format: layout }
  return { type: 'string' }
}

function scalarText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'object') return null
  return String(value)
}

/** The type of JSON values (objects flattened before this; arrays and maps here). */
function jsonType(values: unknown[], name: string): Pick<InferredColumn, 'type' | 'format' | 'elements'> {
  const present = values.filter((value) => value !== null && value !== undefined && value !== '')
  if (present.length && present.every(Array.isArray)) {
    const items = (present as unknown[][]).flat()
    const inner = items.every((item) => typeof item !== 'object' || item === null)
      ? scalarType(
          items.map(scalarText).filter((v): v is string => v !== null),
          '',
        )
      : { type: 'string' }
    return { type: 'array', elements: TIME_ELEMENT(inner.type) }
  }
  if (present.length && present.every((value) => typeof value === 'object' && !Array.isArray(value))) {
    const items = (present as Record<string, unknown>[]).flatMap((value) => Object.values(value))
    const inner = scalarType(
      items.map(scalarText).filter((v): v is string => v !== null),
      '',
    )
    return { type: 'map', elements: `string, ${TIME_ELEMENT(inner.type)}` }
  }
  if (present.length && present.every((value) => typeof value === 'boolean')) return { type: 'boolean' }
  if (present.length && present.every((value) => typeof value === 'number')) {
    const numbers = present as number[]
    if (numbers.every(Number.isInteger)) return scalarType(numbers.map(String), name)
    return { type: 'double' }
  }
  return scalarType(
    present.map(scalarText).filter((v): v is string => v !== null),
    name,
  )
}

/** Datetime elements are kept as strings (an element has no format of its own here). */
const TIME_ELEMENT = (type: string) => (type === 'datetime' || type === 'epoch' ? 'string' : type)

/**
 * Flattens nested objects into dotted paths, except objects whose keys vary from row to row with
 * values of one kind (those stay maps): `{"http":{"status":200}}` → `http.status`.
 */
function flattenRecords(records: Record<string, unknown>[]): { rows: Record<string, unknown>[]; flattened: boolean } {
  const mapKeys = new Set<string>()
  const keysByField = new Map<string, Set<string>[]>()
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const list = keysByField.get(key) ?? []
        list.push(new Set(Object.keys(value)))
        keysByField.set(key, list)
      }
    }
  }
  for (const [key, sets] of keysByField) {
    const all = new Set(sets.flatMap((set) => [...set]))
    const varies = sets.some((set) => set.size !== all.size)
    const values = records.flatMap((record) => Object.values((record[key] as Record<string, unknown>) ?? {}))
    const scalar = values.every((value) => value === null || typeof value !== 'object')
    if (varies && scalar) mapKeys.add(key)
  }
  let flattened = false
  const flatten = (value: Record<string, unknown>, prefix: string, out: Record<string, unknown>, depth: number) => {
    for (const [key, inner] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key
      if (
        inner &&
        typeof inner === 'object' &&
        !Array.isArray(inner) &&
        !(depth === 0 && mapKeys.has(key)) &&
        depth < 10
      ) {
        flattened = true
        flatten(inner as Record<string, unknown>, path, out, depth + 1)
      } else out[path] = inner
    }
    return out
  }
  return { rows: records.map((record) => flatten(record, '', {}, 0)), flattened }
}

function parseJsonSample(text: string): Record<string, unknown>[] | null {
  const trimmed = text.trim()
  const objects = (value: unknown) =>
    (Array.isArray(value) ? value : [value]).filter(
      (item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object' && !Array.isArray(item),
    )
  try {
    return objects(JSON.parse(trimmed))
  } catch {
    try {
      return trimmed
        .split(/\r?\n/)
        .filter((line) => line.trim())
        .flatMap((line) => objects(JSON.parse(line)))
    } catch {
      return null
    }
  }
}

const TIME_OF_DAY: [RegExp, string][] = [
  [/^\d\d:\d\d:\d\d$/, '15:04:05'],
  [/^\d\d:\d\d:\d\d\.\d{3}$/, '15:04:05.000'],
  [/^\d\d:\d\d:\d\d\.\d+$/, '15:04:05.999999999'],
]

/** A name for a new column that none of `columns` has. */
function freeName(columns: InferredColumn[], name: string): string {
  let candidate = name
  for (let i = 1; columns.some((column) => column.name === candidate); i++) candidate = `${name}_${i}`
  return candidate
}

/**
 * A date column (`2006-01-02`) beside a time-of-day column (`15:04:05`), as in CloudFront logs: the
 * primary timestamp is a virtual column whose script joins them (decision 066), so a row keeps its
 * time of day; the two stay as text. Returns the new column's name, or undefined without such a pair
 * or with a full timestamp in the row.
 */
function joinDateAndTime(columns: InferredColumn[], values: (name: string) => string[]): string | undefined {
  const date = columns.find((column) => column.type === 'datetime' && column.format === '2006-01-02')
  // a full timestamp elsewhere in the row is the primary already
  const full = columns.some((c) => c.type === 'epoch' || (c.type === 'datetime' && /15|04/.test(c.format ?? '')))
  if (!date || full) return undefined
  const times = columns.filter((column) => column.type === 'string' && TIME_NAME.test(column.name))
  for (const time of times) {
    const texts = values(time.name)
    const layout = texts.length ? TIME_OF_DAY.find(([pattern]) => texts.every((text) => pattern.test(text))) : undefined
    if (!layout) continue
    date.type = 'string'
    delete date.format
    const name = freeName(columns, 'timestamp')
    const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
    columns.unshift({
      name,
      type: 'datetime',
      format: `2006-01-02 ${layout[1]}`,
      index: true,
      extra: { virtual: true, script: `row[${quote(date.name)}] + ' ' + row[${quote(time.name)}]` },
    })
    return name
  }
  return undefined
}

/** Picks the primary column: a datetime/epoch named like a timestamp first, else the first one. */
function pickPrimary(columns: InferredColumn[], notes: string[]) {
  const times = columns.filter((column) => column.type === 'datetime' || column.type === 'epoch')
  // a full timestamp before a date alone, a timestamp-like name before any other
  const score = (column: InferredColumn) =>
    (column.type === 'epoch' || /15|04/.test(column.format ?? '') ? 4 : 0) +
    (TIME_NAME.test(column.name) ? 2 : 0) +
    (/timestamp/i.test(column.name) ? 1 : 0)
  const primary = [...times].sort((a, b) => score(b) - score(a))[0]
  if (primary?.extra?.script) {
    primary.primary = true
    notes.push(
      `Primary timestamp: ${primary.name}, a virtual column joining the date and time columns ` +
        `(script ${String(primary.extra.script)}, format ${primary.format}), so each row keeps ` +
        `its time of day.`,
    )
  } else if (primary) {
    primary.primary = true
    notes.push(`Primary timestamp: ${primary.name} (${primary.type}, format ${primary.format}).`)
  } else {
    notes.push('No timestamp column was recognised: pick a datetime or epoch column and mark it primary.')
  }
}

/**
 * Infers the transform from `sample`; `type` forces CSV or JSON, else it is read from the sample. Returns null when
 * nothing can be read.
 */
export function inferTransform(sample: string, type?: 'csv' | 'json', delimiter = ','): Inference | null {
  const trimmed = sample.trim()
  if (!trimmed) return null
  const kind = type ?? (/^[[{]/.test(trimmed) ? 'json' : 'csv')
  const notes: string[] = []
  if (kind === 'json') {
    const records = parseJsonSample(trimmed)
    if (!records || !records.length) return null
    const { rows, flattened } = flattenRecords(records)
    const names: string[] = []
    for (const row of rows) for (const key of Object.keys(row)) if (!names.includes(key)) names.push(key)
    const columns = names.map((name, index) => {
      const column: InferredColumn = {
        name: cleanName(name, index),
        ...jsonType(
          rows.map((row) => row[name]),
          name,
        ),
      }
      column.index = column.type !== 'double'
      return column
    })
    if (flattened) notes.push('Nested objects are flattened into dotted names (flattening on, "." between levels).')
    const byName = new Map(names.map((name, index) => [cleanName(name, index), name]))
    joinDateAndTime(columns, (name) =>
      rows.map((row) => scalarText(row[byName.get(name) ?? name])).filter((v): v is string => v !== null),
    )
    pickPrimary(columns, notes)
    notes.push(`Read ${records.length} JSON ${records.length === 1 ? 'record' : 'records'}.`)
    return { type: 'json', columns, flattening: flattened, notes }
  }
  const rows = readCsv(trimmed, delimiter)
  if (rows.length < 1) return null
  const [header, ...body] = rows
  const columns = header!.map((name, index) => {
    const values = body.map((row) => row[index] ?? '').filter((value) => value !== '' && value !== '-')
    const column: InferredColumn = { name: cleanName(name, index), ...scalarType(values, name) }
    column.index = column.type !== 'double'
    return column
  })
  const names = columns.map((column) => column.name)
  joinDateAndTime(columns, (name) =>
    body.map((row) => row[names.indexOf(name)] ?? '').filter((value) => value !== '' && value !== '-'),
  )
  pickPrimary(columns, notes)
  const rowKind = delimiter === '\t' ? 'TSV' : 'CSV'
  notes.push(
    `Read a header and ${body.length} ${rowKind} ${body.length === 1 ? 'row' : 'rows'}; Skip head is 1 so the header line is not ingested.`,
  )
  return { type: 'csv', columns, flattening: false, skipHead: 1, notes }
}

/**
 * The transform form's hidden field saying its columns were filled from the sample (Infer, or the
 * server in place of the untouched defaults: issue 54, point 3).
 */
export const COLUMNS_INFERRED_FIELD = 'columnsInferred'
