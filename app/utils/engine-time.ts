/**
 * The engine's time texts (`2026-12-02 19:25:44.498`, a DateTime or DateTime64 without a zone of its
 * own: the cluster's, UTC) shown in the user's zone and labelled (issue 54: a table page showed its
 * details in the user's zone and its rows and arrival figures in UTC, unlabelled beside them). Safe
 * on both sides; the zone comes from `displayZone` (./timezone), as every time the console formats.
 */

const ENGINE_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?$/

/** An engine UTC time text as an ISO instant (milliseconds), or null when it is not one. */
export function engineTimeToIso(text: string | null | undefined): string | null {
  const match = ENGINE_TIME.exec(text?.trim() ?? '')
  if (!match) return null
  const [, day, time, fraction = ''] = match
  const iso = `${day}T${time}.${(fraction + '000').slice(0, 3)}Z`
  return Number.isNaN(Date.parse(iso)) ? null : iso
}

// one formatter per zone, made once (a page formats a row of times per table row)
const parts = new Map<string, Intl.DateTimeFormat>()

function partsIn(zone: string): Intl.DateTimeFormat {
  let formatter = parts.get(zone)
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-GB', {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZone: zone,
        timeZoneName: 'short',
      })
    } catch {
      // an unknown zone: UTC, labelled, rather than a page that fails
      return partsIn('UTC')
    }
    if (parts.size < 64) parts.set(zone, formatter)
  }
  return formatter
}

/** An instant's wall clock in `zone`: `{ day: '2026-12-02', time: '20:25:44', zoneName: 'CET' }`. */
function wallClock(ms: number, zone: string) {
  const got: Record<string, string> = {}
  for (const part of partsIn(zone).formatToParts(new Date(ms))) got[part.type] = part.value
  return {
    day: `${got.year}-${got.month}-${got.day}`,
    time: `${got.hour}:${got.minute}:${got.second}`,
    zoneName: got.timeZoneName ?? zone,
  }
}

/**
 * An engine UTC time text in `zone`, laid out as the engine lays it out (so a column of them still
 * sorts by eye) and labelled: `2026-12-02 20:25:44.498 CET`. The fraction is kept as written (a
 * zone moves the clock by whole minutes). A text that is not an engine time is returned as it is.
 */
export function formatEngineTime(text: string, zone: string): string {
  const iso = engineTimeToIso(text)
  if (!iso) return text
  const fraction = ENGINE_TIME.exec(text.trim())![3]
  const { day, time, zoneName } = wallClock(Date.parse(iso), zone)
  return `${day} ${time}${fraction ? `.${fraction}` : ''} ${zoneName}`
}

/** A chart label's clock in `zone`, labelled: `20:25 CET`, or with the day `12-02 20:25 CET`. */
export function formatClock(ms: number, zone: string, withDay = false): string {
  const { day, time, zoneName } = wallClock(ms, zone)
  return `${withDay ? `${day.slice(5)} ` : ''}${time.slice(0, 5)} ${zoneName}`
}
