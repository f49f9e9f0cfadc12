import { describe, expect, it } from 'vitest'
import { sqlName, tableRef } from './sql'

describe('sqlName', () => {
  it('leaves plain identifiers alone and backticks the rest, escaping what would end the quote', () => {
    expect(sqlName('web_logs')).toBe('web_logs')
    expect(sqlName('My Table')).toBe('`My Table`')
    expect(sqlName("x'; drop")).toBe("`x'; drop`")
    expect(sqlName('a`b')).toBe('`a\\`b`')
    expect(sqlName('a\\`; DROP TABLE t; --')).toBe('`a\\\\\\`; DROP TABLE t; --`')
    expect(sqlName('ünïcode')).toBe('`ünïcode`')
    expect(sqlName('1abc')).toBe('`1abc`')
  })

  it('quotes each part of project.table on its own', () => {
    expect(tableRef('sample', 'web_logs')).toBe('sample.web_logs')
    expect(tableRef('my-proj', 'a.b')).toBe('`my-proj`.`a.b`')
  })
})
