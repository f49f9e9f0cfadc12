import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { doubleFits, intFits, isIsoUtc, timeFits } from './ingest-direct'

// The CSV check reads numbers and times where they lie in the body (intFits, doubleFits, timeFits);
// each must agree with the regular expressions it stands for, on any text.
const INT_TEXT = /^-?\d{1,15}$/
const DOUBLE_TEXT = /^-?\d+(\.\d+)?$/

// text that is often close to a number or a timestamp, and sometimes anything at all
const near = (alphabet: string, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: 1, maxLength })
const stamp = fc
  .record({
    y: fc.integer({ min: 1890, max: 2310 }),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 25 }),
    mi: fc.integer({ min: 0, max: 61 }),
    s: fc.integer({ min: 0, max: 61 }),
    f: fc.constantFrom('', '.', '.1', '.12', '.123', '.1234', '.a'),
    z: fc.constantFrom('Z', 'z', '', '+00:00'),
  })
  .map(
    ({ y, mo, d, h, mi, s, f, z }) =>
      `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` +
      `T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}${f}${z}`,
  )

describe('CSV value checks in place', () => {
  test('intFits is INT_TEXT and the range', () => {
    const range = { lo: -2147483648, hi: 2147483647 }
    fc.assert(
      fc.property(fc.oneof(near('-0123456789', 17), fc.string({ minLength: 1 }), fc.integer().map(String)), (text) => {
        const expected = INT_TEXT.test(text) && Number(text) >= range.lo && Number(text) <= range.hi
        expect(intFits(`,${text},`, 1, text.length + 1, range)).toBe(expected)
      }),
      { numRuns: 5000 },
    )
  })

  test('doubleFits is DOUBLE_TEXT without a negative zero', () => {
    fc.assert(
      fc.property(
        fc.oneof(near('-0.0123456789', 12), fc.string({ minLength: 1 }), fc.double({ noNaN: true }).map(String)),
        (text) => {
          const expected = DOUBLE_TEXT.test(text) && !/^-0*(\.0*)?$/.test(text)
          expect(doubleFits(`,${text},`, 1, text.length + 1)).toBe(expected)
        },
      ),
      { numRuns: 5000 },
    )
  })

  test('timeFits is isIsoUtc', () => {
    fc.assert(
      fc.property(fc.oneof(stamp, near('0123456789-T:.Z', 24), fc.string({ minLength: 1 })), (text) => {
        expect(timeFits(`,${text},`, 1, text.length + 1)).toBe(isIsoUtc(text))
      }),
      { numRuns: 10000 },
    )
    // the days a month has, leap years included
    for (const [text, ok] of [
      ['2024-02-29T00:00:00Z', true],
      ['2023-02-29T00:00:00Z', false],
      ['2000-02-29T00:00:00.5Z', true],
      ['2100-02-29T00:00:00Z', false],
      ['2024-04-31T00:00:00Z', false],
      ['2024-12-31T23:59:59.999Z', true],
    ] as const) {
      expect(timeFits(text, 0, text.length)).toBe(ok)
      expect(isIsoUtc(text)).toBe(ok)
    }
  })
})
