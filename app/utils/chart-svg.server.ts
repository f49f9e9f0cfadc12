import { CHART_COLORS, CHART_KIND_LABELS, formatTime, type ChartData } from './chart-spec'
import { niceTicks, timeTicks, type TickScale } from './chart-ticks'

/**
 * The chart of a result as SVG, drawn on the server (decision 100): what a page without scripts
 * shows, and `/resources/query-chart` as an image of its own. Plotly needs a DOM to draw, so it
 * cannot render on the server; this draws the same series with the same colours: a title, axes with
 * ticks and their labels, a legend, and a text alternative (`<title>`, `<desc>`). Text is
 * `currentColor` and the series colours come from classes with a light and a dark set, so it follows
 * the page's theme. Every text written is escaped: a column named `<script>` is text.
 */

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

const WIDTH = 720
const LEFT = 72
const RIGHT = 20
const TOP = 44
const PLOT_HEIGHT = 250
const FONT = 12
/** The most points of a line drawn per series: beyond, each pixel column keeps its lowest and highest. */
const MAX_LINE_POINTS = 1200
/** The most bars and dots drawn: beyond, the note says how many were left out. */
const MAX_MARKS = 1000

export type ChartSvgOptions = {
  /** A prefix for the ids of the title and description (unique in a page). */
  id?: string
  /** An image of its own (`/resources/query-chart`): its own colours, and a link to the data as a table. */
  dataHref?: string
}

const plain = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 })
const fixed = (value: number) => (Math.round(value * 10) / 10).toString()
const truncate = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)
/** About how wide a text is at the chart's font size (no DOM to measure it). */
const textWidth = (text: string, size = FONT) => text.length * size * 0.6

function styleSheet(isStandalone: boolean): string {
  const light = CHART_COLORS.light.map((color, at) => `.qc-chart .qc-s${at}{--qc:${color}}`).join('')
  const dark = CHART_COLORS.dark.map((color, at) => `.qc-chart .qc-s${at}{--qc:${color}}`).join('')
  const darkScoped = CHART_COLORS.dark.map((color, at) => `.dark .qc-chart .qc-s${at}{--qc:${color}}`).join('')
  return [
    light,
    darkScoped,
    `@media (prefers-color-scheme: dark){${dark.replace(/\.qc-chart/g, ':root:not(.light) .qc-chart')}}`,
    '.qc-chart .qc-line{fill:none;stroke:var(--qc);stroke-width:2;stroke-linejoin:round}',
    '.qc-chart .qc-mark{fill:var(--qc)}',
    '.qc-chart .qc-grid{stroke:currentColor;stroke-opacity:.15}',
    '.qc-chart .qc-axis{stroke:currentColor;stroke-opacity:.6}',
    '.qc-chart text{fill:currentColor}',
    isStandalone
      ? ':root{color:#27272a;background:#fff;font-family:system-ui,sans-serif}@media ' +
        '(prefers-color-scheme: dark){:root{color:#e4e4e7;background:#18181b}}'
      : '',
  ].join('')
}

/** Distinct x values of category bands, in the order the series have them. */
function bandsOf(data: ChartData): string[] {
  const seen = new Set<string>()
  for (const series of data.series) for (const x of series.x) seen.add(String(x))
  return [...seen]
}

/** A line's points, at most MAX_LINE_POINTS: per pixel column its first, lowest, highest and last. */
function thinned(points: [number, number][]): [number, number][] {
  if (points.length <= MAX_LINE_POINTS) return points
  const kept: [number, number][] = []
  let column: [number, number][] = []
  const flush = () => {
    if (!column.length) return
    const low = column.reduce((a, b) => (b[1] > a[1] ? b : a))
    const high = column.reduce((a, b) => (b[1] < a[1] ? b : a))
    const picked = [column[0]!, low, high, column[column.length - 1]!]
    for (const point of picked.sort((a, b) => column.indexOf(a) - column.indexOf(b)))
      if (kept[kept.length - 1] !== point) kept.push(point)
    column = []
  }
  for (const point of points) {
    if (column.length && Math.round(column[0]![0]) !== Math.round(point[0])) flush()
    column.push(point)
  }
  flush()
  return kept
}

/** The chart of `data` as an SVG document (a string). */
export function renderChartSvg(data: ChartData, options: ChartSvgOptions = {}): string {
  const id = options.id ?? 'qc'
  const isStandalone = options.dataHref !== undefined
  const { spec, series } = data
  const plotLeft = LEFT
  const plotRight = WIDTH - RIGHT
  const plotWidth = plotRight - plotLeft
  const plotTop = TOP
  const plotBottom = TOP + PLOT_HEIGHT

  // y: every value; bars stand on zero
  const values = series.flatMap((one) => one.y)
  let low = Math.min(...values)
  let high = Math.max(...values)
  if (!values.length) [low, high] = [0, 1]
  if (spec.kind === 'bar') {
    low = Math.min(0, low)
    high = Math.max(0, high)
  }
  const yScale = niceTicks(low, high, 5)
  const yAt = (value: number) => plotBottom - ((value - yScale.min) / (yScale.max - yScale.min || 1)) * PLOT_HEIGHT

  // x: a time or number scale, or bands
  const bands = data.xScale === 'category' ? bandsOf(data) : []
  let xScale: TickScale | null = null
  if (data.xScale !== 'category') {
    const xs = series.flatMap((one) => one.x as number[])
    const xLow = xs.length ? Math.min(...xs) : 0
    const xHigh = xs.length ? Math.max(...xs) : 1
    xScale = data.xScale === 'time' ? timeTicks(xLow, xHigh, 6) : niceTicks(xLow, xHigh, 6)
  }
  // bars on a time or number scale: as wide as the closest two values allow
  let barSlot = 0
  if (spec.kind === 'bar' && xScale) {
    const xs = [...new Set(series.flatMap((one) => one.x as number[]))].sort((a, b) => a - b)
    let gap = Number.POSITIVE_INFINITY
    for (let at = 1; at < xs.length; at++) gap = Math.min(gap, xs[at]! - xs[at - 1]!)
    const span = xScale.max - xScale.min || 1
    barSlot = Number.isFinite(gap) ? Math.min(48, (gap / span) * plotWidth * 0.8) : 24
  }
  const inset = xScale && spec.kind === 'bar' ? barSlot / 2 + 2 : 0
  const xAt = (value: number | string): number => {
    if (!xScale) {
      const band = plotWidth / Math.max(1, bands.length)
      return plotLeft + (bands.indexOf(String(value)) + 0.5) * band
    }
    const span = xScale.max - xScale.min || 1
    return plotLeft + inset + (((value as number) - xScale.min) / span) * (plotWidth - inset * 2)
  }

  const parts: string[] = []
  // grid and y ticks
  for (const tick of yScale.ticks) {
    const y = fixed(yAt(tick.value))
    parts.push(`<line class="qc-grid" x1="${plotLeft}" x2="${plotRight}" y1="${y}" y2="${y}"/>`)
    parts.push(
      `<text x="${plotLeft - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${escapeXml(tick.label)}</text>`,
    )
  }
  // x ticks
  const xTicks: { x: number; label: string }[] = []
  if (xScale) for (const tick of xScale.ticks) xTicks.push({ x: xAt(tick.value), label: tick.label })
  else {
    const every = Math.max(1, Math.ceil(bands.length / Math.floor(plotWidth / 64)))
    bands.forEach((band, at) => {
      if (at % every === 0) xTicks.push({ x: xAt(band), label: truncate(band, 10) })
    })
  }
  for (const tick of xTicks) {
    const x = fixed(tick.x)
    parts.push(`<line class="qc-axis" x1="${x}" x2="${x}" y1="${plotBottom}" y2="${plotBottom + 4}"/>`)
    parts.push(`<text x="${x}" y="${plotBottom + 17}" text-anchor="middle">${escapeXml(tick.label)}</text>`)
  }
  parts.push(`<line class="qc-axis" x1="${plotLeft}" x2="${plotRight}" y1="${plotBottom}" y2="${plotBottom}"/>`)
  parts.push(`<line class="qc-axis" x1="${plotLeft}" x2="${plotLeft}" y1="${plotTop}" y2="${plotBottom}"/>`)
  // axis titles
  parts.push(
    `<text x="${plotLeft + plotWidth / 2}" y="${plotBottom + 36}" text-anchor="middle" ` +
      `font-weight="600">${escapeXml(truncate(spec.x, 60))}</text>`,
  )
  const yTitle = truncate(spec.y.join(', '), 40)
  parts.push(
    `<text transform="translate(16 ${plotTop + PLOT_HEIGHT / 2}) rotate(-90)" ` +
      `text-anchor="middle" font-weight="600">${escapeXml(yTitle)}</text>`,
  )

  // the marks, one group a series
  let marks = 0
  let leftOut = 0
  const zero = yAt(Math.max(yScale.min, Math.min(yScale.max, 0)))
  series.forEach((one, position) => {
    const shapes: string[] = []
    if (spec.kind === 'line') {
      const points = thinned(one.x.map((x, at): [number, number] => [xAt(x), yAt(one.y[at]!)]))
      if (points.length === 1)
        shapes.push(`<circle class="qc-mark" cx="${fixed(points[0]![0])}" cy="${fixed(points[0]![1])}" r="3"/>`)
      else if (points.length)
        shapes.push(`<path class="qc-line" d="M${points.map(([x, y]) => `${fixed(x)} ${fixed(y)}`).join('L')}"/>`)
    } else if (spec.kind === 'bar') {
      const slot = xScale ? barSlot : (plotWidth / Math.max(1, bands.length)) * 0.8
      const width = Math.max(1, slot / series.length)
      one.x.forEach((x, at) => {
        if (marks >= MAX_MARKS) return void leftOut++
        marks++
        const left = xAt(x) - slot / 2 + position * width
        const top = yAt(one.y[at]!)
        shapes.push(
          `<rect class="qc-mark" x="${fixed(left)}" y="${fixed(Math.min(top, zero))}" ` +
            `width="${fixed(Math.max(1, width - 1))}" ` +
            `height="${fixed(Math.max(0.5, Math.abs(zero - top)))}"/>`,
        )
      })
    } else {
      const seen = new Set<string>()
      one.x.forEach((x, at) => {
        const cx = fixed(xAt(x))
        const cy = fixed(yAt(one.y[at]!))
        if (seen.has(`${cx},${cy}`)) return
        seen.add(`${cx},${cy}`)
        if (marks >= MAX_MARKS) return void leftOut++
        marks++
        shapes.push(`<circle class="qc-mark" cx="${cx}" cy="${cy}" r="3"/>`)
      })
    }
    parts.push(`<g class="qc-s${position}">${shapes.join('')}</g>`)
  })

  // the legend, under the x axis title, in rows
  const legend: string[] = []
  let legendX = plotLeft
  let legendY = plotBottom + 60
  for (const [position, one] of series.entries()) {
    const label = truncate(one.name || '(empty)', 32)
    const width = 18 + textWidth(label) + 18
    if (legendX + width > WIDTH - RIGHT && legendX > plotLeft) {
      legendX = plotLeft
      legendY += 20
    }
    legend.push(
      `<g class="qc-s${position}"><rect class="qc-mark" x="${fixed(legendX)}" ` +
        `y="${legendY - 9}" width="12" height="12" rx="2"/><text x="${fixed(legendX + 18)}" ` +
        `y="${legendY}" dominant-baseline="middle">${escapeXml(label)}</text></g>`,
    )
    legendX += width
  }
  let bottom = legendY + 16
  const notes: string[] = []
  if (data.isCapped)
    notes.push(`Only the first ${data.rows.toLocaleString('en-US')} rows: the result was cut at the query UI's limit.`)
  if (data.hiddenSeries) notes.push(`${data.hiddenSeries} smaller series not shown.`)
  if (leftOut) notes.push(`${leftOut.toLocaleString('en-US')} marks not drawn here.`)
  for (const note of notes) {
    bottom += 4
    parts.push(`<text x="${plotLeft}" y="${bottom}" font-size="11">${escapeXml(note)}</text>`)
    bottom += 14
  }
  if (isStandalone) {
    bottom += 6
    parts.push(
      `<a href="${escapeXml(options.dataHref!)}"><text x="${plotLeft}" y="${bottom}" ` +
        `text-decoration="underline">The data as a table</text></a>`,
    )
    bottom += 10
  }
  const height = Math.ceil(bottom + 8)

  const title = `${CHART_KIND_LABELS[spec.kind]} chart: ${data.title}`
  const description = describe(data, yScale)
  const labelled = `aria-labelledby="${id}-title" aria-describedby="${id}-desc"`
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="qc-chart" viewBox="0 0 ${WIDTH} ${height}" ` +
      `width="${isStandalone ? WIDTH : '100%'}"${isStandalone ? ` height="${height}"` : ''} ` +
      `${isStandalone ? '' : 'role="img" '}${labelled} ` +
      `font-size="${FONT}" font-family="system-ui, sans-serif" data-chart-kind="${spec.kind}">`,
    `<title id="${id}-title">${escapeXml(title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(description)}</desc>`,
    `<style>${styleSheet(isStandalone)}</style>`,
    `<text x="${plotLeft}" y="24" font-size="14" font-weight="600">${escapeXml(truncate(data.title, 90))}</text>`,
    ...parts,
    ...legend,
    '</svg>',
  ].join('')
}

/** The chart in a few sentences: kind, series, points, and the ranges of both axes. */
function describe(data: ChartData, yScale: TickScale): string {
  const { spec, series } = data
  const points = series.reduce((sum, one) => sum + one.x.length, 0)
  const names = series.map((one) => one.name || '(empty)')
  const xs = series.flatMap((one) => one.x)
  const sentences = [
    `${CHART_KIND_LABELS[spec.kind]} chart of ${data.title}.`,
    `${series.length} ${series.length === 1 ? 'series' : 'series'}` +
      `${names.length ? ` (${truncate(names.join(', '), 200)})` : ''}, ${points.toLocaleString('en-US')} points.`,
  ]
  if (xs.length) {
    if (data.xScale === 'category') sentences.push(`${spec.x}: ${new Set(xs.map(String)).size} values.`)
    else {
      const numbers = xs as number[]
      const show = (value: number) => (data.xScale === 'time' ? formatTime(value) : plain(value))
      sentences.push(`${spec.x} from ${show(Math.min(...numbers))} to ${show(Math.max(...numbers))}.`)
    }
    const values = series.flatMap((one) => one.y)
    sentences.push(
      `${spec.y.join(', ')} from ${plain(Math.min(...values))} to ${plain(Math.max(...values))} ` +
        `(axis ${yScale.ticks[0]!.label} to ${yScale.ticks[yScale.ticks.length - 1]!.label}).`,
    )
  }
  if (data.isCapped) sentences.push(`Only the first ${data.rows.toLocaleString('en-US')} rows of the result.`)
  if (data.hiddenSeries) sentences.push(`${data.hiddenSeries} smaller series not shown.`)
  return sentences.join(' ')
}
