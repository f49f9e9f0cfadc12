import { describe, expect, it } from 'vitest'
import { engineTimeToIso, formatClock, formatEngineTime } from './engine-time'
import { formatDateTime } from './format-date'

/*
 * Issue 54, smaller point: a table page showed its details (Created, Latest row) in the user's zone
 * and its rows and arrival figures as the engine's UTC text, unlabelled, beside them. These format
 * the engine's texts in the user's zone, labelled, so every time of the page reads alike.
 */

describe('engine time texts in the user’s zone', () => {
  it('reads an engine UTC text (any fraction, or none) as an instant', () => {
    expect(engineTimeToIso('2026-12-02 19:25:44.498')).toBe('2026-12-02T19:25:44.498Z')
    expect(engineTimeToIso('2026-12-02 19:25:44')).toBe('2026-12-02T19:25:44.000Z')
    expect(engineTimeToIso('2026-12-02 19:25:44.123456789')).toBe('2026-12-02T19:25:44.123Z')
    expect(engineTimeToIso('not a time')).toBeNull()
    expect(engineTimeToIso(null)).toBeNull()
  })

  it('shows it in the zone, in the engine’s layout, its fraction kept and its zone named', () => {
    expect(formatEngineTime('2026-12-02 19:25:44.498', 'UTC')).toBe('2026-12-02 19:25:44.498 UTC')
    expect(formatEngineTime('2026-12-02 19:25:44.498', 'Europe/Paris')).toBe('2026-12-02 20:25:44.498 CET')
    expect(formatEngineTime('2026-07-02 19:25:44', 'Europe/Paris')).toBe('2026-07-02 21:25:44 CEST')
    // across midnight and the year, a fraction finer than a millisecond as written
    expect(formatEngineTime('2026-12-31 23:30:00.123456', 'Asia/Tokyo')).toBe('2027-01-01 08:30:00.123456 GMT+9')
    expect(formatEngineTime('2026-12-02 00:05:00', 'America/New_York')).toBe('2026-12-01 19:05:00 GMT-5')
    // not a time: as it is; an unknown zone: UTC, labelled
    expect(formatEngineTime('—', 'Europe/Paris')).toBe('—')
    expect(formatEngineTime('2026-12-02 19:25:44', 'Nowhere/Else')).toBe('2026-12-02 19:25:44 UTC')
  })

  it('names the same zone as the details beside it (formatDateTime)', () => {
    const zoneOf = (text: string) => text.split(' ').at(-1)
    for (const zone of ['UTC', 'Europe/Paris', 'Asia/Tokyo', 'America/New_York'])
      expect(zoneOf(formatEngineTime('2026-12-02 19:25:44', zone))).toBe(
        zoneOf(formatDateTime('2026-12-02T19:25:44Z', zone)),
      )
  })

  it('labels a chart’s clock in the zone, with the day when asked', () => {
    const ms = Date.parse('2026-12-02T23:05:00Z')
    expect(formatClock(ms, 'UTC')).toBe('23:05 UTC')
    expect(formatClock(ms, 'Europe/Paris')).toBe('00:05 CET')
    expect(formatClock(ms, 'Europe/Paris', true)).toBe('12-03 00:05 CET')
  })
})
