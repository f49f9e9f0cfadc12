/**
 * Axis ticks for the server's chart SVG (decision 100): "nice" steps for numbers (1, 2 or 5 times a
 * power of ten) and for times (seconds to years, on UTC boundaries), each with its label.
 */

export type Tick = { value: number; label: string }
export type TickScale = { min: number; max: number; ticks: Tick[] }

const numberFormats = new Map<number, Intl.NumberFormat>()
function formatFixed(value: number, decimals: number): string {
  let format = numberFormats.get(decimals)
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
    numberFormats.set(decimals, format)
  }
  return format.format(value)
}

const decimalsOf = (step: number) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9))

/** A number as an axis label, to the precision of the axis' step: grouped digits, `1.5M`, `2G`, `3T` from a million up. */
export function numberLabel(value: number, step: number): string {
  const size = Math.abs(value)
  for (const [unit, scale] of [
    ['T', 1e12],
    ['G', 1e9],
    ['M', 1e6],
  ] as const) {
    if (size >= scale) return `${formatFixed(value / scale, decimalsOf(step / scale))}${unit}`
  }
  return formatFixed(value, decimalsOf(step))
}

/**
 * About `count` ticks covering [min, max] at a step of 1, 2 or 5 times a power of ten; the scale
 * is widened to the outer ticks. An empty or single-value range is widened around its value.
 */
export function niceTicks(min: number, max: number, count = 5): TickScale {
  let low = Number.isFinite(min) ? min : 0
  let high = Number.isFinite(max) ? max : 1
  if (low > high) [low, high] = [high, low]
  if (low === high) {
    const pad = low === 0 ? 1 : Math.abs(low) * 0.1
    low -= pad
    high += pad
  }
  const raw = (high - low) / Math.max(1, count)
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const norm = raw / magnitude
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude
  const decimals = decimalsOf(step)
  const first = Math.floor(low / step + 1e-9) * step
  const last = Math.ceil(high / step - 1e-9) * step
  const ticks: Tick[] = []
  for (let at = 0; first + at * step <= last + step / 2 && at < 100; at++) {
    const value = Number((first + at * step).toFixed(decimals))
    ticks.push({ value: Object.is(value, -0) ? 0 : value, label: numberLabel(value, step) })
  }
  return { min: ticks[0]!.value, max: ticks[ticks.length - 1]!.value, ticks }
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Steps of a time axis: fixed ones in ms, then months and years (calendar steps). */
const TIME_STEPS: ({ ms: number } | { months: number })[] = [
  ...[1, 2, 5, 10, 15, 30].map((s) => ({ ms: s * SECOND })),
  ...[1, 2, 5, 10, 15, 30].map((m) => ({ ms: m * MINUTE })),
  ...[1, 2, 3, 6, 12].map((h) => ({ ms: h * HOUR })),
  ...[1, 2, 7, 14].map((d) => ({ ms: d * DAY })),
  ...[1, 3, 6, 12, 24, 60, 120].map((months) => ({ months })),
]

const pad = (value: number) => String(value).padStart(2, '0')

function timeLabel(ms: number, step: { ms: number } | { months: number }, previous: number | null): string {
  const date = new Date(ms)
  const ymd = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
  if ('months' in step) return step.months >= 12 ? String(date.getUTCFullYear()) : ymd.slice(0, 7)
  if (step.ms >= DAY) return ymd
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}${step.ms < MINUTE ? `:${pad(date.getUTCSeconds())}` : ''}`
  // the date where the day changes (and on the first tick)
  const isNewDay = previous === null || Math.floor(previous / DAY) !== Math.floor(ms / DAY)
  return isNewDay ? `${ymd.slice(5)} ${time}` : time
}

/**
 * Ticks of a time axis over [min, max] (ms, UTC wall clock), at most about `count`, on the
 * boundaries of the step (a whole minute, hour, day, month): `06:15`, `12-02 00:00`, `2026-12-02`,
 * `2026-12`, `2026`. The scale is the data's range (a time axis is not widened to its ticks).
 */
export function timeTicks(min: number, max: number, count = 6): TickScale {
  let low = min
  let high = max
  if (!(high > low)) {
    low -= MINUTE
    high += MINUTE
  }
  const span = high - low
  const step =
    TIME_STEPS.find((one) => ('ms' in one ? span / one.ms : span / (one.months * 30.4 * DAY)) <= count) ??
    TIME_STEPS[TIME_STEPS.length - 1]!
  const values: number[] = []
  if ('ms' in step) {
    for (let value = Math.ceil(low / step.ms) * step.ms; value <= high && values.length < 100; value += step.ms)
      values.push(value)
  } else {
    const start = new Date(low)
    let year = start.getUTCFullYear()
    let month =
      Math.ceil((start.getUTCMonth() + (start.getTime() > Date.UTC(year, start.getUTCMonth()) ? 1 : 0)) / step.months) *
      step.months
    for (;;) {
      const value = Date.UTC(year, month)
      if (value > high || values.length >= 100) break
      if (value >= low) values.push(value)
      month += step.months
      if (month >= 12) {
        year += Math.floor(month / 12)
        month %= 12
      }
    }
  }
  const ticks = values.map((value, at) => ({ value, label: timeLabel(value, step, at ? values[at - 1]! : null) }))
  return { min: low, max: high, ticks }
}
