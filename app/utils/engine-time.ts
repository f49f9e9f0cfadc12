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

/** An instant's wall clock in `zone` as Intl gives it: the reference `wallClock` must agree with. */
export function wallClockOfIntl(ms: number, zone: string) {
  const got: Record<string, string> = {}
  for (const part of partsIn(zone).formatToParts(new Date(ms))) got[part.type] = part.value
  return {
    day: `${got.year}-${got.month}-${got.day}`,
    time: `${got.hour}:${got.minute}:${got.second}`,
    zoneName: got.timeZoneName ?? zone,
  }
}

/**
 * A zone's offset from UTC and its short name over a quarter hour (`BUCKET_MS`), by zone and
 * quarter: `formatToParts` costs ~5 µs a call, and a table page formats a time per row and a chart
 * per tick (~0.8 ms of a table page's render, issue 52), while a zone changes its offset only at a
 * transition. Every offset in use is a whole number of quarter hours, so a transition falls on a
 * quarter hour of UTC; a quarter whose start and end disagree (an old local-mean-time offset, a
 * renamed abbreviation) is `null`, and its instants go to Intl one by one.
 */
const BUCKET_MS = 15 * 60_000
const MAX_BUCKETS = 4096
const buckets = new Map<string, { offsetMs: number; zoneName: string } | null>()

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function offsetAt(ms: number, zone: string): { offsetMs: number; zoneName: string } {
  const clock = wallClockOfIntl(ms, zone)
  const [year, month, day] = clock.day.split('-').map(Number) as [number, number, number]
  const [hour, minute, second] = clock.time.split(':').map(Number) as [number, number, number]
  const wall = Date.UTC(year, month - 1, day, hour, minute, second)
  return { offsetMs: wall - Math.floor(ms / 1000) * 1000, zoneName: clock.zoneName }
}

function bucketOf(ms: number, zone: string) {
  const start = Math.floor(ms / BUCKET_MS) * BUCKET_MS
  const key = `${zone}\u0000${start}`
  let bucket = buckets.get(key)
  if (bucket === undefined) {
    const first = offsetAt(start, zone)
    const last = offsetAt(start + BUCKET_MS - 1000, zone)
    bucket = first.offsetMs === last.offsetMs && first.zoneName === last.zoneName ? first : null
    if (buckets.size >= MAX_BUCKETS) buckets.clear()
    buckets.set(key, bucket)
  }
  return bucket
}

/** An instant's wall clock in `zone`: `{ day: '2026-12-02', time: '20:25:44', zoneName: 'CET' }`. */
export function wallClock(ms: number, zone: string) {
  const year = new Date(ms).getUTCFullYear()
  // years Intl writes other than as four digits go to Intl as they are
  const bucket = year >= 1000 && year <= 9999 ? bucketOf(ms, zone) : null
  if (!bucket) return wallClockOfIntl(ms, zone)
  const local = new Date(ms + bucket.offsetMs)
  return {
    day: `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`,
    time: `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`,
    zoneName: bucket.zoneName,
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
