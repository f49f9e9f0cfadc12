/**
 * System Health's time ranges (spec section 9): presets relative to now, or a custom from/to in UTC
 * limited to 6 hours and aggregated in 10-minute intervals. Without zod (decision 077): the filter
 * schemas are in `__range-schemas.ts`, which the forms load after hydration.
 */
export const RANGE_PRESETS = [
  { value: '15m', label: 'Last 15 minutes', ms: 15 * 60_000, stepSeconds: 30 },
  { value: '1h', label: 'Last hour', ms: 3_600_000, stepSeconds: 60 },
  { value: '6h', label: 'Last 6 hours', ms: 6 * 3_600_000, stepSeconds: 300 },
] as const
export type RangePreset = (typeof RANGE_PRESETS)[number]['value']
export const CUSTOM_RANGE = 'custom' as const
export const DEFAULT_RANGE: RangePreset = '1h'
export const RANGE_OPTIONS = [
  ...RANGE_PRESETS.map(({ value, label }) => ({ value, label })),
  { value: CUSTOM_RANGE, label: 'Custom range (UTC)' },
]

/** Spec section 9: custom ranges are at most 6 hours, aggregated in 10-minute intervals. */
export const MAX_CUSTOM_MS = 6 * 3_600_000
export const CUSTOM_STEP_SECONDS = 600

export const RANGE_MESSAGES = {
  fromRequired: 'Enter the start of the custom range',
  toRequired: 'Enter the end of the custom range',
  invalid: 'Enter a date and time as YYYY-MM-DDTHH:MM (UTC)',
  order: 'The end must be after the start',
  tooShort: 'A custom range must be at least 10 minutes',
  tooLong: 'Custom time ranges are limited to 6 hours',
} as const

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/

/** A `datetime-local` value read as UTC (ms), or NaN. */
export function parseUtcInput(value: string | undefined): number {
  if (!value || !LOCAL_DATE_TIME.test(value)) return Number.NaN
  return Date.parse(`${value}Z`)
}

/** A time (ms) as a `datetime-local` value in UTC, to the minute. */
export function toUtcInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16)
}

/** A range as the filter forms post it. */
export type RangeValue = { range: string; from?: string; to?: string }

export type ResolvedRange = {
  /** The first and last instants covered (ms). */
  start: number
  end: number
  /** The aggregation interval in seconds. */
  stepSeconds: number
  label: string
  isCustom: boolean
}

/**
 * The instants a (valid) range covers at `now`. Preset ends snap to the cluster's 10-second
 * buckets so every point of a series is a whole number of buckets.
 */
export function resolveRange(value: RangeValue, now = Date.now()): ResolvedRange {
  if (value.range === CUSTOM_RANGE) {
    const start = parseUtcInput(value.from)
    const end = parseUtcInput(value.to)
    return {
      start,
      end,
      stepSeconds: CUSTOM_STEP_SECONDS,
      label: `${formatUtc(start)} – ${formatUtc(end)}`,
      isCustom: true,
    }
  }
  const preset =
    RANGE_PRESETS.find((candidate) => candidate.value === value.range) ??
    RANGE_PRESETS.find((p) => p.value === DEFAULT_RANGE)!
  const end = Math.floor(now / 10_000) * 10_000
  return { start: end - preset.ms, end, stepSeconds: preset.stepSeconds, label: preset.label, isCustom: false }
}

/** "2026-11-22 00:14:08 UTC": System Health shows every time in UTC (spec section 9). */
export function formatUtc(ms: number, withSeconds = true): string {
  if (!Number.isFinite(ms)) return '—'
  const iso = new Date(ms).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, withSeconds ? 19 : 16)} UTC`
}
