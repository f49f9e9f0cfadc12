/**
 * Charts of a query result (decision 100): what a column can be on a chart, the chart the console
 * picks from the column types, the choice as it lives in the URL (`chart=line&x=…&y=…&split=…`), and
 * the series drawn from the rows. Pure and safe on both sides; the server builds the series (the
 * loader) and the SVG (chart-svg.server.ts), the browser draws the same series with Plotly.
 */
import { CHART_FIELDS, CHART_TAB } from './chart-values'

export { CHART_FIELDS, CHART_TAB }

export const CHART_KINDS = ['line', 'bar', 'scatter'] as const
export type ChartKind = (typeof CHART_KINDS)[number]
export const CHART_KIND_LABELS: Record<ChartKind, string> = { line: 'Line', bar: 'Bars', scatter: 'Scatter' }

/** What a column is on a chart: a time, a number, or a category (anything else, as text). */
export type ColumnKind = 'time' | 'number' | 'category'
export type ChartColumn = { name: string; type: string; kind: ColumnKind }

/**
 * The chart view a form carries along so a Run, a Save and the history keep it: `tab=chart` and the
 * URL's chart fields as given (an empty `split=` says "no split"); none when the chart is not shown.
 */
export function chartViewFields(params: URLSearchParams): [string, string][] {
  if (params.get('tab') !== CHART_TAB) return []
  return [
    ['tab', CHART_TAB],
    ...CHART_FIELDS.flatMap((name) =>
      params
        .getAll(name)
        .slice(0, MAX_SERIES)
        .map((value): [string, string] => [name, value.slice(0, 256)]),
    ),
  ]
}

/** The series colours (light theme, dark theme): the same list for the server's SVG and Plotly. */
export const CHART_COLORS = {
  light: ['#1d4ed8', '#c2410c', '#15803d', '#b91c1c', '#7e22ce', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569'],
  dark: ['#60a5fa', '#fb923c', '#4ade80', '#f87171', '#c084fc', '#22d3ee', '#facc15', '#f472b6', '#a3e635', '#94a3b8'],
} as const

/** A chart as asked for in the URL: anything may be missing or wrong; pickChart makes it whole. */
export type ChartView = { chart: string | null; x: string | null; y: string[]; split: string | null }

/** A chart the console can draw: x one column, y one or more numeric columns, split a column whose values name the series. */
export type ChartSpec = { kind: ChartKind; x: string; y: string[]; split: string | null }

/** How x is laid out: a time or number scale, or one band per distinct value. */
export type XScale = 'time' | 'number' | 'category'

export type ChartSeries = {
  name: string
  /** ms since the epoch (UTC wall clock) for a time scale, numbers for a number scale, text for categories. */
  x: (number | string)[]
  y: number[]
}

export type ChartData = {
  spec: ChartSpec
  title: string
  xScale: XScale
  series: ChartSeries[]
  /** Series left out (more than MAX_SERIES): the smallest by total. */
  hiddenSeries: number
  /** Rows read into the chart, and rows left out (a null or unreadable x or y). */
  rows: number
  skippedRows: number
  /** True when the result was cut at the UI's row cap: the chart covers its first rows only. */
  isCapped: boolean
}

/** The most series a chart draws (by total, largest first). */
export const MAX_SERIES = 10
/** The most values an integer column may take to be read as codes (a status) rather than a measure. */
const MAX_CODES = 20
/** The most y columns the console picks by itself. */
const MAX_PICKED_Y = 4

const unwrap = (type: string) => type.replace(/^(?:(?:Nullable|LowCardinality)\()+/, '')

/** A column type's kind: Date/DateTime types are times, integers, floats and decimals numbers, the rest categories. */
export function columnKind(type: string): ColumnKind {
  const inner = unwrap(type)
  if (/^(Date|Date32|DateTime|DateTime64)\b/.test(inner)) return 'time'
  if (/^(U?Int\d+|Float\d+|Decimal\d*|BFloat16)\b/.test(inner)) return 'number'
  return 'category'
}

const isInteger = (type: string) => /^U?Int\d+\b/.test(unwrap(type))

/** The chart choice a URL (or a form, or a saved query's options) holds. */
export function readChartView(params: URLSearchParams): ChartView {
  const text = (name: string) => {
    const value = params.get(name)
    return value && value.length <= 256 ? value : null
  }
  return {
    chart: text('chart'),
    x: text('x'),
    y: params
      .getAll('y')
      .filter((value) => value && value.length <= 256)
      .slice(0, MAX_SERIES),
    // present but empty (`split=`) is a choice: no split
    split: params.has('split') ? (text('split') ?? '') : null,
  }
}

/** The URL fields of a spec, in a stable order (`chart`, `x`, each `y`, `split`). */
export function chartFields(spec: ChartSpec): [string, string][] {
  return [
    ['chart', spec.kind],
    ['x', spec.x],
    ...spec.y.map((name): [string, string] => ['y', name]),
    ...(spec.split ? [['split', spec.split] as [string, string]] : []),
  ]
}

/** Whether a URL asks for anything about a chart. */
export function hasChartView(view: ChartView): boolean {
  return Boolean(view.chart || view.x || view.y.length || view.split)
}

/** The columns with their kinds. */
export function chartColumns(columns: readonly { name: string; type: string }[]): ChartColumn[] {
  return columns.map((column) => ({ ...column, kind: columnKind(column.type) }))
}

/**
 * The chart to draw for `columns` (and the first rows, to tell a status code from a measure): the
 * URL's choice where it names columns that exist and fit (y numeric, split another column), the
 * console's own pick for the rest. Null when the result has no number to draw.
 * - a time and numbers: a line over time, split by the first category (then one y);
 * - a category (or an integer column of few values, a status) and numbers: bars;
 * - two numbers: a scatter.
 */
export function pickChart(
  columns: readonly ChartColumn[],
  rows: readonly (readonly (string | null)[])[],
  view: ChartView = { chart: null, x: null, y: [], split: null },
): ChartSpec | null {
  const byName = new Map(columns.map((column) => [column.name, column]))
  const numbers = columns.filter((column) => column.kind === 'number')
  if (!numbers.length) return null
  const distinct = (column: ChartColumn) => {
    const index = columns.indexOf(column)
    const values = new Set<string | null>()
    for (const row of rows) {
      values.add(row[index] ?? null)
      if (values.size > MAX_CODES) break
    }
    return values.size
  }
  // integer columns before the last number with few values read as codes (status 200, 404, 500)
  const lastNumber = numbers[numbers.length - 1]!
  const codes = numbers.filter(
    (column) => column !== lastNumber && isInteger(column.type) && distinct(column) <= MAX_CODES,
  )
  const measures = numbers.filter((column) => !codes.includes(column))
  const times = columns.filter((column) => column.kind === 'time')
  const categories = [...columns.filter((column) => column.kind === 'category'), ...codes]

  let picked: ChartSpec | null = null
  if (times.length) {
    const split = categories[0]?.name ?? null
    picked = {
      kind: 'line',
      x: times[0]!.name,
      y: split ? [measures[0]!.name] : measures.slice(0, MAX_PICKED_Y).map((column) => column.name),
      split,
    }
  } else if (categories.length) {
    picked = {
      kind: 'bar',
      x: categories[0]!.name,
      y: measures.slice(0, MAX_PICKED_Y).map((column) => column.name),
      split: null,
    }
  } else if (numbers.length >= 2) {
    picked = { kind: 'scatter', x: numbers[0]!.name, y: [numbers[1]!.name], split: null }
  } else {
    // one number alone: bars of it by row, no; a line of it needs an x. Bars by itself make no sense.
    return null
  }

  const kind = (CHART_KINDS as readonly string[]).includes(view.chart ?? '') ? (view.chart as ChartKind) : picked.kind
  const x = view.x && byName.has(view.x) ? view.x : picked.x
  const askedY = view.y.filter(
    (name, index) => byName.get(name)?.kind === 'number' && name !== x && view.y.indexOf(name) === index,
  )
  let y = askedY.length ? askedY : picked.y.filter((name) => name !== x)
  if (!y.length)
    y = numbers
      .filter((column) => column.name !== x)
      .map((column) => column.name)
      .slice(0, 1)
  if (!y.length) return null
  // an explicit choice of split (even none: split=) wins; else the pick's when the URL kept its x
  const askedSplit = view.split !== null ? view.split : view.x && view.x !== picked.x ? null : picked.split
  const split = askedSplit && byName.has(askedSplit) && askedSplit !== x && !y.includes(askedSplit) ? askedSplit : null
  return { kind, x, y: split ? y.slice(0, 1) : y, split }
}

/** A UTC wall-clock time as the engine writes it (`2026-12-02`, `2026-12-02 06:15:00.123`), in ms; NaN when it is not one. */
export function parseTime(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z)?$/.exec(value)
  if (!match) return Number.NaN
  const [, year, month, day, hour, minute, second, fraction] = match
  return Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour ?? 0),
    Number(minute ?? 0),
    Number(second ?? 0),
    fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0,
  )
}

/** A time in ms as the engine would write it (`2026-12-02 06:15:00`, with ms when it has them). */
export function formatTime(ms: number): string {
  const text = new Date(ms).toISOString().replace('T', ' ').replace('Z', '')
  return text.endsWith('.000') ? text.slice(0, 19) : text
}

/** How the x of a spec is laid out: bars of numbers are bands (one per status), not a number line. */
export function xScaleOf(spec: ChartSpec, columns: readonly ChartColumn[]): XScale {
  const kind = columns.find((column) => column.name === spec.x)?.kind ?? 'category'
  if (kind === 'time') return 'time'
  if (kind === 'number') return spec.kind === 'bar' ? 'category' : 'number'
  return 'category'
}

/** The chart's title: `requests by minute, per status`. */
export function chartTitle(spec: ChartSpec): string {
  return `${spec.y.join(', ')} by ${spec.x}${spec.split ? `, per ${spec.split}` : ''}`
}

/**
 * The series of `spec` over `rows` (the whole result up to the cap): one per y column, or one per
 * value of the split column; points with a null or unreadable x or y are left out (and counted).
 * A line's points are in x order. At most MAX_SERIES series, the largest by total.
 */
export function chartData(
  columns: readonly ChartColumn[],
  rows: readonly (readonly (string | null)[])[],
  spec: ChartSpec,
  isCapped: boolean,
): ChartData {
  const index = (name: string) => columns.findIndex((column) => column.name === name)
  const xAt = index(spec.x)
  const yAt = spec.y.map(index)
  const splitAt = spec.split ? index(spec.split) : -1
  const xScale = xScaleOf(spec, columns)
  const byName = new Map<string, ChartSeries>()
  const seriesOf = (name: string) => {
    let series = byName.get(name)
    if (!series) byName.set(name, (series = { name, x: [], y: [] }))
    return series
  }
  let skippedRows = 0
  for (const row of rows) {
    const cell = row[xAt] ?? null
    let x: number | string
    if (cell === null) {
      skippedRows++
      continue
    }
    if (xScale === 'time') x = parseTime(cell)
    else if (xScale === 'number') x = Number(cell)
    else x = cell
    if (typeof x === 'number' && !Number.isFinite(x)) {
      skippedRows++
      continue
    }
    let isUsed = false
    yAt.forEach((at, position) => {
      const value = row[at]
      const y = value === null || value === undefined || value === '' ? Number.NaN : Number(value)
      if (!Number.isFinite(y)) return
      const name = splitAt >= 0 ? (row[splitAt] ?? 'NULL') : spec.y[position]!
      const series = seriesOf(name)
      series.x.push(x)
      series.y.push(y)
      isUsed = true
    })
    if (!isUsed) skippedRows++
  }
  let series = [...byName.values()]
  const xKind = columns[xAt]?.kind
  // points in x order: times and numbers on their scale, and bands of numbers (status 200, 404, 500)
  if (xScale !== 'category' || xKind === 'number') {
    for (const one of series) {
      const order = one.x.map((_, at) => at).sort((a, b) => Number(one.x[a]) - Number(one.x[b]))
      one.x = order.map((at) => one.x[at]!)
      one.y = order.map((at) => one.y[at]!)
    }
  }
  let hiddenSeries = 0
  if (series.length > MAX_SERIES) {
    const total = (one: ChartSeries) => one.y.reduce((sum, value) => sum + Math.abs(value), 0)
    const kept = new Set([...series].sort((a, b) => total(b) - total(a)).slice(0, MAX_SERIES))
    hiddenSeries = series.length - MAX_SERIES
    series = series.filter((one) => kept.has(one))
  }
  return { spec, title: chartTitle(spec), xScale, series, hiddenSeries, rows: rows.length, skippedRows, isCapped }
}
