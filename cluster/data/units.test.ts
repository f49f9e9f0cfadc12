// Pure units of the data plane (no cluster): SQL splitting, settings layering, type mapping, row mapping.
import { describe, expect, it } from 'vitest'
import { columnType } from './engine'
import { parseSettingsHeader, resolveSettings } from './query'
import { parseAlter, splitQuery } from './sql'
import { goLayoutParser, makeMapper, parseCsv, csvOptions, parseTime } from './transform'

describe('splitQuery', () => {
  it('takes trailing SETTINGS and FORMAT in either order, not those inside strings or subqueries', () => {
    expect(splitQuery("SELECT 'SETTINGS x=1' FROM t SETTINGS a = 1, b = 'x y' FORMAT JSON;")).toMatchObject({
      body: "SELECT 'SETTINGS x=1' FROM t",
      settings: { a: 1, b: 'x y' },
      format: 'JSON',
      firstWord: 'SELECT',
      multi: false,
    })
    expect(splitQuery('SELECT 1 FORMAT CSVWithNames SETTINGS max_threads=2')).toMatchObject({
      body: 'SELECT 1',
      format: 'CSVWithNames',
      settings: { max_threads: 2 },
    })
    expect(splitQuery('SELECT * FROM (SELECT 1 SETTINGS max_threads=1)')).toMatchObject({
      settings: {},
      format: undefined,
    })
    expect(splitQuery('SELECT format FROM t').format).toBeUndefined()
    expect(splitQuery('SELECT 1; SELECT 2').multi).toBe(true)
    expect(splitQuery("SELECT * FROM file('/etc/passwd')").outsideFunctions).toEqual(['file'])
    expect(splitQuery('SELECT 1 SETTINGS x = -5').settings).toEqual({ x: -5 })
  })

  it('parses alter statements', () => {
    expect(parseAlter("ALTER TABLE p.t UPDATE a = 'x, y', b = 2 WHERE c = 'WHERE' AND d > 1")).toEqual({
      table: 'p.t',
      kind: 'update',
      assignments: "a = 'x, y', b = 2",
      where: "c = 'WHERE' AND d > 1",
    })
    expect(parseAlter('alter table `my-p`.`t` delete where x in (select 1 where 1)')).toEqual({
      table: '`my-p`.`t`',
      kind: 'delete',
      assignments: '',
      where: 'x in (select 1 where 1)',
    })
    expect(parseAlter('DELETE FROM p.t WHERE a = 1')).toMatchObject({ kind: 'delete', where: 'a = 1' })
    expect(parseAlter('ALTER TABLE p.t ADD COLUMN x Int8')).toBeNull()
  })
})

describe('settings', () => {
  it('layers later over earlier and maps hdx options onto engine limits', () => {
    const r = resolveSettings(
      [
        { hdx_query_max_result_rows: 10, hdx_query_timerange_required: true },
        parseSettingsHeader('hdx_query_max_execution_time=5 hdx_query_output_format=JSON'),
        { hdx_query_max_result_rows: '20', max_block_size: '100' },
        { hdx_query_max_streams: 2 },
      ],
      undefined,
    )
    expect(r.engine).toEqual({ max_result_rows: 20, max_execution_time: 5, max_block_size: '100', max_threads: 2 })
    expect(r.format).toBe('JSON')
    expect(r.hdx.hdx_query_timerange_required).toBe(true)
    expect(resolveSettings([{ hdx_query_output_format: 'JSON' }], 'TSV').format).toBe('TSV')
  })
})

describe('types and rows', () => {
  it('maps transform datatypes to engine types', () => {
    expect(columnType({ type: 'datetime', primary: true })).toBe('DateTime64(3)')
    expect(columnType({ type: 'epoch' })).toBe('Nullable(DateTime64(3))')
    expect(columnType({ type: 'uint64' })).toBe('Nullable(UInt64)')
    expect(columnType({ type: 'boolean' })).toBe('Nullable(Bool)')
    expect(columnType({ type: 'array', elements: [{ type: 'double' }] })).toBe('Array(Nullable(Float64))')
    expect(columnType({ type: 'map', elements: [{ type: 'string' }, { type: 'int32' }] })).toBe(
      'Map(String, Nullable(Int32))',
    )
    expect(columnType({ type: 'json' })).toBe('Nullable(String)')
  })

  it('parses Go layouts, epochs and best-effort dates', () => {
    const p = goLayoutParser('02/Jan/2006:15:04:05 -0700')!
    expect(new Date(p('10/Oct/2000:13:55:36 -0700')!).toISOString()).toBe('2000-10-10T20:55:36.000Z')
    expect(
      new Date(parseTime('Jan 2 2024 3:04PM', { type: 'datetime', format: 'Jan 2 2006 3:04PM' })!).toISOString(),
    ).toBe('2024-01-02T15:04:00.000Z')
    expect(parseTime(1700000000, { type: 'epoch', format: 's' })).toBe(1700000000000)
    expect(parseTime('1700000000123456', { type: 'epoch', format: 'us' })).toBe(1700000000123.456)
    expect(parseTime('2024-01-02 03:04:05', { type: 'datetime' })).toBe(Date.UTC(2024, 0, 2, 3, 4, 5))
    expect(parseTime('not a date', { type: 'datetime' })).toBeNull()
  })

  it('maps JSON with flattening, sources, defaults and null values', () => {
    const m = makeMapper({
      uuid: '',
      name: 't',
      type: 'json',
      settings: {
        null_values: ['-'],
        format_details: {
          flattening: {
            active: true,
            depth: 3,
            map_flattening_strategy: { left: '.', right: '' },
            slice_flattening_strategy: { left: '[', right: ']' },
          },
        },
        output_columns: [
          {
            name: 'ts',
            datatype: { type: 'epoch', primary: true, format: 'ms', source: { from_input_field: 'time' } },
          },
          { name: 'user.name', datatype: { type: 'string' } },
          { name: 'tags[0]', datatype: { type: 'string' } },
          { name: 'region', datatype: { type: 'string', default: 'eu' } },
          { name: 'env', datatype: { type: 'string', virtual: true, default: 'prod' } },
          { name: 'skip', datatype: { type: 'string', ignore: true } },
        ],
      },
    })
    expect(m.map({ time: 1700000000000, user: { name: 'ann' }, tags: ['a', 'b'], region: '-', skip: 'x' }, 0)).toEqual({
      ok: true,
      row: { ts: '2023-11-14 22:13:20.000', 'user.name': 'ann', 'tags[0]': 'a', region: 'eu', env: 'prod' },
    })
    expect(m.map({ user: {} }, 4)).toEqual({ ok: false, error: 'row 5: primary column "ts" is missing or empty' })
  })

  it('reads CSV with quotes, escapes, other delimiters and header skipping', () => {
    expect(parseCsv('a,b\n"x, ""y""",2\r\n\n3,"multi\nline"\n', csvOptions({ skip_head: 1 }))).toEqual([
      ['x, "y"', '2'],
      ['3', 'multi\nline'],
    ])
    expect(
      parseCsv("1|'a\\'b'\n# note\n2|c", csvOptions({ delimiter: '|', quote: "'", escape: '\\', skip_comments: true })),
    ).toEqual([
      ['1', "a'b"],
      ['2', 'c'],
    ])
  })
})
