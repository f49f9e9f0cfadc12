import { describe, expect, it } from 'vitest'
import { isChangingStatement, isNumericType, sqlName, tableRef } from './sql'

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

describe('isChangingStatement', () => {
  it('tells reads from changes, whatever comments, case and parentheses come first', () => {
    for (const sql of [
      'SELECT 1',
      '  with x as (select 1) select * from x',
      '(SELECT 1) UNION ALL (SELECT 2)',
      'SHOW TABLES',
      'DESCRIBE sample.web_logs',
      'EXPLAIN ALTER TABLE t DELETE WHERE 1',
      '-- note\nselect 1',
      '/* c */ SELECT 1',
      '',
      '-- only a comment',
    ]) {
      expect(isChangingStatement(sql), sql).toBe(false)
    }
    for (const sql of [
      'ALTER TABLE sample.web_logs DELETE WHERE status = 500',
      'alter table t update x = 1 where 1',
      '/* hi */ DELETE FROM t WHERE 1',
      '-- x\nINSERT INTO t VALUES (1)',
      'DROP TABLE t',
      'TRUNCATE TABLE t',
      'OPTIMIZE TABLE t',
      'CREATE TABLE t (x UInt8) ENGINE = Memory',
      'SYSTEM FLUSH LOGS',
      'KILL QUERY WHERE 1',
      // the console cannot tell: a change unless confirmed (decision 095)
      'SELEC typo FROM',
      '-- /*\nALTER TABLE t DELETE WHERE 1',
    ]) {
      expect(isChangingStatement(sql), sql).toBe(true)
    }
  })
})

describe('isNumericType', () => {
  it('knows numbers, wrapped or not, from everything else', () => {
    for (const type of [
      'UInt64',
      'Int8',
      'Float64',
      'Decimal(10, 2)',
      'Decimal64(3)',
      'Nullable(UInt32)',
      'LowCardinality(Nullable(Int16))',
    ])
      expect(isNumericType(type), type).toBe(true)
    for (const type of [
      'String',
      'DateTime64(3)',
      'Array(UInt8)',
      'Map(String, UInt64)',
      'Nullable(String)',
      'IPv4',
      'UUID',
    ])
      expect(isNumericType(type), type).toBe(false)
  })
})
