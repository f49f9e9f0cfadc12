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
  return new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZone: timezone === 'UTC' ? 'UTC' : undefined,
    timeZoneName: timezone === 'UTC' ? 'short' : undefined,
  }).format(date)
}
