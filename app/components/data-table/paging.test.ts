import { describe, expect, it } from 'vitest'
import { DEFAULT_PAGE_SIZE, pageOf, parsePaging } from './paging'

describe('paging', () => {
  it('reads page, page size and filter from the URL, falling back on bad values', () => {
    expect(parsePaging('http://x/data/tables?page=3&pageSize=10&q=%20logs%20')).toEqual({
      page: 3,
      pageSize: 10,
      q: 'logs',
    })
    expect(parsePaging('http://x/data/tables?page=-1&pageSize=7')).toEqual({
      page: 1,
      pageSize: DEFAULT_PAGE_SIZE,
      q: '',
    })
    expect(parsePaging('http://x/data/tables?page=abc&pageSize=1000000')).toEqual({
      page: 1,
      pageSize: DEFAULT_PAGE_SIZE,
      q: '',
    })
  })

  it('slices a page and clamps a page past the end to the last one', () => {
    const items = Array.from({ length: 23 }, (_, i) => i)
    expect(pageOf(items, { page: 2, pageSize: 10, q: '' })).toEqual({
      items: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      page: 2,
      pageCount: 3,
      total: 23,
    })
    expect(pageOf(items, { page: 9, pageSize: 10, q: '' })).toMatchObject({ items: [20, 21, 22], page: 3 })
    expect(pageOf([], { page: 1, pageSize: 10, q: '' })).toEqual({ items: [], page: 1, pageCount: 1, total: 0 })
  })
})
