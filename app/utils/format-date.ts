import type { Timezone } from './timezone'

/**
 * Formats an ISO timestamp for display in the user's timezone preference: UTC, or the browser's
 * own zone ("Local"). On the server "Local" is the server's zone until the page hydrates, so pages
 * that show times pass `suppressHydrationWarning` on the element.
 */
export function formatDateTime(value: string | number | Date | null | undefined, timezone: Timezone = 'Local'): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return formatterFor(timezone).format(date)
}

// Creating an Intl.DateTimeFormat costs about a millisecond (a list of times made one per row):
// one per timezone setting, made once.
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timezone: Timezone): Intl.DateTimeFormat {
  const key = timezone === 'UTC' ? 'UTC' : 'Local'
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
      timeZone: key === 'UTC' ? 'UTC' : undefined,
      timeZoneName: key === 'UTC' ? 'short' : undefined,
    })
    formatters.set(key, formatter)
  }
  return formatter
}
