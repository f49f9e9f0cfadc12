import { describe, expect, it } from 'vitest'
import { inNameOrder, type Pool } from './pools.server'

const pool = (name: string): Pool => ({ uuid: name, name })

describe('inNameOrder', () => {
  it('keeps an answer already in name order as it is, and sorts one that is not (a cluster that ignores ordering)', () => {
    const sorted = ['intake-head', 'merge-peer', 'merge-peer-ii', 'query-peer'].map(pool)
    expect(inNameOrder(sorted)).toBe(sorted)
    expect(inNameOrder(['query-peer', 'intake-head', 'Merge-peer', 'merge-a'].map(pool)).map((p) => p.name)).toEqual([
      'intake-head',
      'merge-a',
      'Merge-peer',
      'query-peer',
    ])
    expect(inNameOrder([])).toEqual([])
  })
})
