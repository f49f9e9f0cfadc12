import { describe, expect, it } from 'vitest'
import { formatDateTime } from './format-date'
import { displayZone, isTimezone, isZoneName } from './timezone'

describe('formatDateTime', () => {
  it('shows UTC when asked, with the zone name', () => {
    expect(formatDateTime('2026-01-02T03:04:05Z', 'UTC')).toBe('02 Jan 2026, 03:04:05 UTC')
  })
  it('shows a chosen zone, labelled (issue 35)', () => {
    expect(formatDateTime('2026-01-02T03:04:05Z', 'Asia/Tokyo')).toBe('02 Jan 2026, 12:04:05 GMT+9')
    expect(formatDateTime('2026-07-02T03:04:05Z', 'America/New_York')).toBe('01 Jul 2026, 23:04:05 GMT-4')
  })
  it('shows an unknown zone as UTC, labelled, rather than failing', () => {
    expect(formatDateTime('2026-01-02T03:04:05Z', 'Mars/Olympus')).toBe('02 Jan 2026, 03:04:05 UTC')
  })
  it('shows a dash for nothing and the raw value for garbage', () => {
    expect(formatDateTime(null)).toBe('—')
    expect(formatDateTime('not a date')).toBe('not a date')
  })
})

describe('the timezone preference', () => {
  it('is Local, UTC or a zone the runtime knows', () => {
    for (const value of ['Local', 'UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'])
      expect(isTimezone(value), value).toBe(true)
    for (const value of ['Mars', 'local', '', 'Europe/Paris;x', '../etc', 'a'.repeat(80), 7, null])
      expect(isTimezone(value), String(value)).toBe(false)
    expect(isZoneName('Local')).toBe(false)
  })
  it('shows Local in the zone the browser said, else UTC until scripts run; a chosen zone always', () => {
    expect(displayZone('Local', null, undefined)).toBe('UTC')
    expect(displayZone('Local', 'Europe/Paris', undefined)).toBe('Europe/Paris')
    expect(displayZone('Local', 'Europe/Paris', 'Asia/Tokyo')).toBe('Asia/Tokyo')
    expect(displayZone('Asia/Tokyo', 'Europe/Paris', 'Europe/Paris')).toBe('Asia/Tokyo')
    expect(displayZone('UTC', 'Europe/Paris', 'Europe/Paris')).toBe('UTC')
  })
})
