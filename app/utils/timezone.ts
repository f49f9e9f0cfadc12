/**
 * The timezone preference (spec section 1), safe to import on both sides: "Local" (the browser's
 * zone), "UTC", or an IANA zone name chosen in Settings (issue 35: a browser without scripts has no
 * other way to show local time).
 */
export type Timezone = string

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/

/** Whether `zone` is an IANA zone this runtime knows. */
export function isZoneName(zone: string): boolean {
  if (!ZONE_NAME.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** Whether `value` is a preference the console keeps: Local, UTC or a known zone. */
export function isTimezone(value: unknown): value is Timezone {
  return typeof value === 'string' && (value === 'Local' || value === 'UTC' || isZoneName(value))
}

/**
 * The zone a time is shown in. An explicit preference is itself. "Local" is the browser's zone:
 * before scripts run (and without them) the zone the browser reported before (`remembered`), else
 * UTC, labelled; once scripts run, the browser's own (`detected`). With the zone remembered the
 * server's text and the browser's are the same, so a page does not change as it hydrates.
 */
export function displayZone(
  preference: Timezone,
  remembered: string | null | undefined,
  detected: string | null | undefined,
): string {
  if (preference !== 'Local') return preference
  return detected || remembered || 'UTC'
}

/** The browser's own zone (undefined on the server or where Intl does not say). */
export function browserZone(): string | undefined {
  if (typeof window === 'undefined') return undefined
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    return zone && isZoneName(zone) ? zone : undefined
  } catch {
    return undefined
  }
}
