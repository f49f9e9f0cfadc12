/**
 * Formats an ISO timestamp for display in a zone: UTC or an IANA zone name (`displayZone` in
 * ./timezone picks it from the user's preference), always labelled with the zone's short name, so
 * a time is never shown in a zone the reader cannot see. "Local" (the runtime's own zone,
 * unlabelled) is kept for callers outside a page.
 */
export function formatDateTime(value: string | number | Date | null | undefined, zone: string = 'Local'): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return formatterFor(zone).format(date)
}

// Creating an Intl.DateTimeFormat costs about a millisecond (a list of times made one per row):
// one per zone, made once (a few zones per process: bounded by the zones users choose).
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (!formatter) {
    const isLocal = zone === 'Local'
    try {
      formatter = new Intl.DateTimeFormat('en-GB', {
        year: 'numeric',
        month: 'short',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hour12: false,
        timeZone: isLocal ? undefined : zone,
        timeZoneName: isLocal ? undefined : 'short',
      })
    } catch {
      // an unknown zone: UTC, labelled, rather than a page that fails
      return formatterFor('UTC')
    }
    if (formatters.size < 64) formatters.set(zone, formatter)
  }
  return formatter
}
