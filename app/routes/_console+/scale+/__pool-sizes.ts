import { formatNumber } from '~/utils/format-number'

/* The pool pages' size texts, apart from the list (and its table components) so a pool's page loads only these. */

type Range = { min: number; max: number }

/** "3" or "2–6" for a range of counts. */
export function rangeText(
  range: Range | null,
  format: (value: number) => string = (value) => formatNumber(value),
): string {
  if (!range) return '—'
  return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`
}

/** Cores with at most two decimals: "10", "0.5". */
export const cores = (value: number) => formatNumber(value, { maximumFractionDigits: 2 })

const SIZE_UNITS = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi'] as const

/** Bytes in the binary units pools are sized in ("136Gi", "512Mi", "1.5Ti"), so totals read like the sizes typed. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${formatNumber(value, { maximumFractionDigits: 1 })}${SIZE_UNITS[unit]}`
}
