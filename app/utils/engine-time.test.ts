import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { engineTimeToIso, formatClock, formatEngineTime, wallClock, wallClockOfIntl } from './engine-time'
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

/*
 * Issue 52: the wall clock is worked out from a zone's offset kept per quarter hour, not by Intl for
 * every time of a page. It must agree with Intl everywhere: across transitions (an hour, Lord Howe's
 * half hour), in zones a quarter hour off (Kathmandu, Chatham), before 1900 (local mean times).
 */
describe('the wall clock from kept offsets', () => {
  const ZONES = [
    'UTC',
    'Europe/Paris',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'America/Sao_Paulo',
    'Africa/Casablanca',
    'Europe/Dublin',
    'Asia/Kolkata',
    'Nowhere/Else',
  ]

  it('agrees with Intl at each second around the 2026 transitions', () => {
    // a minute either side of each transition of the year, second by second
    const transitions = [
      Date.UTC(2026, 2, 29, 1), // Europe/Paris, Dublin: spring
      Date.UTC(2026, 9, 25, 1), // autumn
      Date.UTC(2026, 2, 8, 7), // America/New_York: spring
      Date.UTC(2026, 10, 1, 6), // autumn
      Date.UTC(2026, 3, 4, 15), // Australia/Lord_Howe: half an hour back (02:00 local)
      Date.UTC(2026, 9, 3, 15, 30), // and forward
      Date.UTC(2026, 3, 4, 14), // Pacific/Chatham
    ]
    for (const zone of ZONES)
      for (const at of transitions)
        for (let ms = at - 60_000; ms <= at + 60_000; ms += 1000)
          expect(wallClock(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toEqual(wallClockOfIntl(ms, zone))
  })

  it('agrees with Intl around changes of offset off the quarter hour (local mean times, 1919 and 1985)', () => {
    const changes: [string, number][] = [
      ['Asia/Kathmandu', Date.UTC(1919, 11, 31, 18, 18, 44)], // LMT +5:41:16 to +5:30
      ['Asia/Kathmandu', Date.UTC(1985, 11, 31, 18, 30)], // +5:30 to +5:45
      ['Europe/Dublin', Date.UTC(1916, 4, 21, 2, 25, 21)], // Dublin Mean Time to summer time
    ]
    for (const [zone, at] of changes)
      for (let ms = at - 30 * 60_000; ms <= at + 30 * 60_000; ms += 7000)
        expect(wallClock(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toEqual(wallClockOfIntl(ms, zone))
  })

  it('agrees with Intl at any instant from 1800 to 2300, to the millisecond', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1800, 0, 1), max: Date.UTC(2300, 0, 1) }),
        (zone, ms) => {
          expect(wallClock(ms, zone)).toEqual(wallClockOfIntl(ms, zone))
        },
      ),
      { numRuns: 3000 },
    )
  })
})
