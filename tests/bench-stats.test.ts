import { describe, expect, it } from 'vitest'
import { percentile } from '../bench/stats'

describe('bench percentile (nearest rank)', () => {
  const thousand = Array.from({ length: 1000 }, (_, i) => i + 1)

  it('p99 of 1,000 calls has ten calls slower than it, p50 is the 500th', () => {
    expect(percentile(thousand, 99)).toBe(990)
    expect(percentile(thousand, 50)).toBe(500)
    expect(percentile(thousand, 100)).toBe(1000)
    expect(percentile(thousand, 0)).toBe(1)
  })

  it('the median and quartiles of 45 reads are the 23rd, 12th and 34th', () => {
    const reads = Array.from({ length: 45 }, (_, i) => i + 1)
    expect([percentile(reads, 25), percentile(reads, 50), percentile(reads, 75)]).toEqual([12, 23, 34])
  })

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN()
  })
})
