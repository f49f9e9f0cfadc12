/*
 * Numbers as the console shows them, on the server and in the browser alike (a fixed locale, so the
 * server's HTML and the hydrated page agree). Missing or non-finite values read as a dash.
 */

const MISSING = '—'
const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB']

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

/** Returns "1,234,567" (en-US grouping; `maximumFractionDigits` defaults to Intl's 3), or "—" for no number. */
export function formatNumber(
  value: number | null | undefined,
  options: { maximumFractionDigits?: number } = {},
): string {
  if (!isNumber(value)) return MISSING
  return numberFormat(options.maximumFractionDigits).format(value)
}

// One formatter per precision: `toLocaleString` with a locale builds a new Intl.NumberFormat on every
// call (the first in a page also loads the locale data: tens of ms in the frame that shows a result).
const formats = new Map<number | undefined, Intl.NumberFormat>()
function numberFormat(maximumFractionDigits: number | undefined): Intl.NumberFormat {
  let format = formats.get(maximumFractionDigits)
  if (!format) {
    format = new Intl.NumberFormat('en-US', maximumFractionDigits === undefined ? {} : { maximumFractionDigits })
    formats.set(maximumFractionDigits, format)
  }
  return format
}

/** Returns "1.5 MB" (powers of 1024, as storage is usually reported, one decimal above bytes), or "—" for no number. */
export function formatBytes(bytes: number | null | undefined): string {
  if (!isNumber(bytes)) return MISSING
  let value = bytes
  let unit = 0
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${BYTE_UNITS[unit]}`
}

/** Returns "3.69×" (at most two decimals), or "—" for no number. */
export function formatRatio(value: number | null | undefined): string {
  if (!isNumber(value)) return MISSING
  return `${formatNumber(value, { maximumFractionDigits: 2 })}×`
}
