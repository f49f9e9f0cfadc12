import { describe, expect, it } from 'vitest'
import { defaultTransformOf, transformChoicesOf, transformForTable, type TableTransformOption } from './table-transform'

const tables: TableTransformOption[] = [
  {
    value: 'p.a',
    transforms: [
      { value: 'p.a:one', name: 'one', type: 'json', isDefault: false },
      { value: 'p.a:two', name: 'two', type: 'csv', isDefault: true },
    ],
  },
  { value: 'p.b', transforms: [{ value: 'p.b:first', name: 'first', type: 'json', isDefault: false }] },
  { value: 'p.c', transforms: [] },
  { value: 'p.d', transforms: null },
]

describe('transformForTable', () => {
  it("keeps a transform of the new table, else picks the table's default, else its first", () => {
    expect(transformForTable(tables, 'p.a', 'p.a:one')).toBe('p.a:one')
    expect(transformForTable(tables, 'p.a', 'p.b:first')).toBe('p.a:two')
    expect(transformForTable(tables, 'p.a', '')).toBe('p.a:two')
    expect(transformForTable(tables, 'p.b', 'p.a:two')).toBe('p.b:first')
  })
  it('is empty for a table without transforms or an unknown table', () => {
    expect(transformForTable(tables, 'p.c', 'p.a:one')).toBe('')
    expect(transformForTable(tables, '', 'p.a:one')).toBe('')
    expect(transformForTable(tables, 'p.zz', '')).toBe('')
  })
})

describe('defaultTransformOf', () => {
  it("is the table's default transform, else its first, else ''", () => {
    expect(defaultTransformOf(tables[0])).toBe('p.a:two')
    expect(defaultTransformOf(tables[1])).toBe('p.b:first')
    expect(defaultTransformOf(tables[2])).toBe('')
    expect(defaultTransformOf(undefined)).toBe('')
  })
})

describe('a table whose transforms were not read (decision 085)', () => {
  it("offers its default transform's option, which a change of table selects", () => {
    expect(transformChoicesOf(tables[3]!)).toEqual([{ value: 'p.d:*', label: 'Its default transform' }])
    expect(transformChoicesOf(tables[0]!).map((choice) => choice.label)).toEqual(['one (json)', 'two (csv) · default'])
    expect(defaultTransformOf(tables[3])).toBe('p.d:*')
    expect(transformForTable(tables, 'p.d', 'p.a:one')).toBe('p.d:*')
    expect(transformForTable(tables, 'p.d', 'p.d:*')).toBe('p.d:*')
    expect(transformForTable(tables, 'p.a', 'p.d:*')).toBe('p.a:two')
  })
})
