/**
 * The engine-mapped ingest (engine-mapping.ts) against the JavaScript mapper: the same bodies go into
 * two tables with the same transform, one with the engine path on and one with it off; answers
 * (rows, errors) and stored rows must be identical, and clean bodies must take the engine path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'
import { setEngineMapping } from './engine-mapping'
import { ingestPaths } from './ingest'

let c: TestCluster
let project: { uuid: string }

beforeAll(async () => {
  setEngineMapping(true, { minRows: 1 }) // the bodies here are small
  c = await startTestCluster()
  project = (await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/`, { name: 'eq' })).body
})

afterAll(async () => {
  setEngineMapping(true, { minRows: 100 })
  await c?.close()
})

async function tablePair(suffix: string, transform: Record<string, unknown>) {
  for (const name of [`on_${suffix}`, `off_${suffix}`]) {
    const t = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${project.uuid}/tables/`, { name })
    expect(t.status).toBe(201)
    const r = await c.api(
      'POST',
      `/config/v1/orgs/${c.orgId}/projects/${project.uuid}/tables/${t.body.uuid}/transforms/`,
      transform,
    )
    expect(r.status, JSON.stringify(r.body)).toBe(201)
  }
}

async function both(suffix: string, body: string, headers: Record<string, string>) {
  const answers = []
  for (const on of [true, false]) {
    setEngineMapping(on, { minRows: 1 })
    const r = await c.api('POST', '/ingest/event', body, undefined, {
      ...headers,
      'x-hdx-table': `eq.${on ? 'on' : 'off'}_${suffix}`,
    })
    answers.push({ status: r.status, body: { ...r.body, table: undefined } })
  }
  setEngineMapping(true, { minRows: 1 })
  expect(answers[0], body.slice(0, 200)).toEqual(answers[1])
  return answers[0]
}

async function rows(table: string) {
  const r = await c.api('POST', '/query', `SELECT * FROM eq.${table} ORDER BY ALL FORMAT JSONEachRow`)
  expect(r.status).toBe(200)
  return String(r.body)
}

const JSON_TRANSFORM = {
  name: 'j',
  type: 'json',
  settings: {
    null_values: ['-', 'NA'],
    output_columns: [
      { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00' } },
      { name: 's', datatype: { type: 'string' } },
      { name: 'n', datatype: { type: 'int32' } },
      { name: 'u', datatype: { type: 'uint8' } },
      { name: 'big', datatype: { type: 'int64' } },
      { name: 'd', datatype: { type: 'double' } },
      { name: 'b', datatype: { type: 'boolean' } },
      { name: 'e', datatype: { type: 'epoch', format: 's' } },
      { name: 'dt', datatype: { type: 'datetime', format: '2006-01-02 15:04:05' } },
      { name: 'renamed', datatype: { type: 'string', source: { from_input_field: 'orig' } } },
      { name: 'withdefault', datatype: { type: 'uint32', default: 7 } },
      { name: 'virt', datatype: { type: 'string', virtual: true, default: 'v' } },
      { name: 'j', datatype: { type: 'json' } },
      { name: 'skipped', datatype: { type: 'string', ignore: true } },
    ],
  },
}

const CSV_TRANSFORM = {
  name: 'c',
  type: 'csv',
  settings: {
    null_values: ['-'],
    format_details: { delimiter: ';', skip_head: 1 },
    output_columns: [
      { name: 'ts', datatype: { type: 'epoch', primary: true, format: 'ms', source: { from_input_index: 1 } } },
      { name: 's', datatype: { type: 'string', source: { from_input_index: 0 } } },
      { name: 'n', datatype: { type: 'int16', source: { from_input_index: 2 } } },
      { name: 'd', datatype: { type: 'double', source: { from_input_index: 3 } } },
      { name: 'b', datatype: { type: 'bool', source: { from_input_index: 4 } } },
      {
        name: 'dt',
        datatype: { type: 'datetime', format: '2006-01-02T15:04:05Z07:00', source: { from_input_index: 5 } },
      },
      { name: 'big', datatype: { type: 'uint64', source: { from_input_index: 6 } } },
    ],
  },
}

/** a transform the engine's own parse can write directly (ingest-direct.ts): every field stored under its name */
const DIRECT_TRANSFORM = {
  name: 'd',
  type: 'json',
  settings: {
    null_values: ['-'],
    format_details: { flattening: { active: true, depth: 1 } },
    output_columns: [
      {
        name: 'ts',
        datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
      },
      { name: 's', datatype: { type: 'string' } },
      { name: 'n', datatype: { type: 'int32' } },
      { name: 'u', datatype: { type: 'uint8' } },
      { name: 'big', datatype: { type: 'uint64' } },
      { name: 'd', datatype: { type: 'double' } },
      { name: 'b', datatype: { type: 'boolean' } },
      { name: 'j', datatype: { type: 'json' } },
      { name: 'skipped', datatype: { type: 'string', ignore: true } },
    ],
  },
}

const base = { ts: '2024-05-06T07:08:09.123Z' }

describe('ingest mapped by the engine', () => {
  it('JSON: clean bodies take the engine path and store what the JavaScript mapper stores', async () => {
    await tablePair('json', JSON_TRANSFORM)
    const before = ingestPaths.engine
    const clean = [
      {
        ...base,
        s: 'hello',
        n: -5,
        u: 200,
        big: 123456789012345,
        d: 1.25,
        b: true,
        e: 1700000000,
        dt: '2024-01-01 10:00',
        orig: 'o',
        j: 'text',
        extra: { nested: [1, 2] },
      },
      {
        ts: '2024-02-29T23:59:59+05:30',
        s: 'x',
        n: '42',
        u: '7',
        big: '-9',
        d: '2.5e3',
        b: 'Yes',
        e: '1700000000.5',
        dt: '2024-01-01T10:00:00.1234Z',
        orig: null,
        j: null,
      },
      { ts: '2024-12-31T23:59:59.999-08:00', s: '-', n: '', u: null, d: '', b: '', e: '', dt: 'NA', withdefault: null },
      { ts: '2024-03-01 00:00:00', s: 'ünïcødé "q" \\ \n', b: 'n', d: -0.001, n: 0, big: 0, e: 1700000001 },
      { ts: 1700000000, s: 12, d: 3, b: 0, u: 0, withdefault: 9 },
      { ts: '1700000000000', s: true, b: 'F', d: '', n: '' },
    ]
    expect(await both('json', JSON.stringify(clean), { 'content-type': 'application/json' })).toEqual({
      status: 200,
      body: { code: 200, message: 'success', rows: 6, transform: 'j' },
    })
    expect(
      await both('json', clean.map((r) => JSON.stringify(r)).join('\n') + '\n', { 'content-type': 'application/json' }),
    ).toMatchObject({ status: 200 })
    expect(await both('json', JSON.stringify(clean[0]), { 'content-type': 'application/json' })).toMatchObject({
      status: 200,
      body: { rows: 1 },
    })
    expect(ingestPaths.engine - before).toBe(3)
    expect(await rows('on_json')).toBe(await rows('off_json'))
  })

  it(
    'JSON: values the SQL cannot vouch for go through the JavaScript mapper, with the same result',
    { timeout: 300_000 },
    async () => {
      const doubtful = [
        { ...base, s: 1.5 }, // canonical number: engine
        { ...base, s: 1.5 },
        { ...base, s: '1.50' }, // a string that reads as a non-canonical number
        { ...base, s: 12345678901234567890 },
        { ...base, s: { a: 1, b: [1, 2] } },
        { ...base, j: { a: 1 } },
        { ...base, n: 5.0 },
        { ...base, n: true },
        { ...base, big: 9007199254740993 },
        { ...base, big: '0000000000000000012' },
        { ...base, d: 'Infinity' },
        { ...base, d: '0x10' },
        { ...base, d: ' 12 ' },
        { ...base, b: ' TRUE ' },
        { ...base, d: ' ', n: ' \t', e: ' ' }, // whitespace only: null for the mapper
        { ...base, b: '\ttrue' },
        { ...base, ts: '2024-02-30T00:00:00Z' }, // the JavaScript mapper rolls it over to March 1
        { ...base, ts: ' 2024-01-01T00:00:00Z' },
        { ...base, ts: '2024-01-01T00:00:00.5Z ' },
        { ...base, ts: 1.7e9 },
        { ...base, e: -1e12 },
        { ...base, e: 1700000000123 }, // seconds far in the future: the engine refuses the JavaScript path's text too
        { ...base, s: -0 },
      ]
      for (const row of doubtful) await both('json', JSON.stringify([row]), { 'content-type': 'application/json' })
      expect(await rows('on_json')).toBe(await rows('off_json'))
    },
  )

  it('JSON: rows that break a rule are refused whole with the JavaScript messages', { timeout: 300_000 }, async () => {
    const broken = [
      [{ ...base, n: 'abc' }],
      [
        { ...base, u: 256 },
        { ...base, u: -1 },
        { ...base, n: 2147483648 },
      ],
      [{ ...base, b: 'maybe' }],
      [{ ...base, d: 'abc' }],
      [{ s: 'no time' }],
      [{ ...base }, { ts: '' }],
      [{ ...base, ts: 'yesterday-ish' }],
      [{ ...base, e: 'soon' }],
      [{ ...base }, 5],
      [{ ...base }, [1]],
    ]
    for (const body of broken) {
      const answer = await both('json', JSON.stringify(body), { 'content-type': 'application/json' })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.message).toMatch(/rows could not be mapped through transform "j"/)
    }
    expect(
      (
        await both('json', '{"ts": "2024-01-01T00:00:00Z"} {"ts": "2024-01-01T00:00:00Z"}', {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(400)
    expect((await both('json', '[]', { 'content-type': 'application/json' })).body.message).toBe('The body has no rows')
    expect(await rows('on_json')).toBe(await rows('off_json'))
  })

  it(
    'JSON: clean bodies of a plain transform go to the engine as they are and store what the JavaScript mapper stores',
    { timeout: 300_000 },
    async () => {
      await tablePair('direct', DIRECT_TRANSFORM)
      // a second transform gives the tables a column the first one does not store
      for (const name of ['on_direct', 'off_direct']) {
        const tables = (await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/${project.uuid}/tables/?name=${name}`))
          .body.results
        const r = await c.api(
          'POST',
          `/config/v1/orgs/${c.orgId}/projects/${project.uuid}/tables/${tables[0].uuid}/transforms/`,
          {
            name: 'other',
            type: 'json',
            settings: {
              output_columns: [
                { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z07:00' } },
                { name: 'other', datatype: { type: 'string' } },
              ],
            },
          },
        )
        expect(r.status, JSON.stringify(r.body)).toBe(201)
      }
      const headers = { 'content-type': 'application/json', 'x-hdx-transform': 'd' }
      const before = { ...ingestPaths }
      const clean = [
        {
          ts: '2024-05-06T07:08:09.123Z',
          s: 'hello "q" \\ ünï \n',
          n: -5,
          u: 200,
          big: 9007199254740991,
          d: 1.25,
          b: true,
          j: '{"a":1}',
          extra: { nested: [1, 2] },
        },
        { ts: '2024-02-29T23:59:59Z', s: '', n: 2147483647, u: 0, big: 0, d: 0.1, b: false, j: null },
        { ts: '1900-01-01T00:00:00.5Z', s: null, d: 1e300, skipped: 'not stored' },
        { ts: '2299-12-31T23:59:59.99Z', n: null, u: null, big: null, d: null, b: null },
      ]
      expect(await both('direct', JSON.stringify(clean), headers)).toEqual({
        status: 200,
        body: { code: 200, message: 'success', rows: 4, transform: 'd' },
      })
      expect(await both('direct', clean.map((r) => JSON.stringify(r)).join('\n'), headers)).toMatchObject({
        status: 200,
        body: { rows: 4 },
      })
      expect(await both('direct', JSON.stringify(clean[0]), headers)).toMatchObject({ status: 200, body: { rows: 1 } })
      expect(ingestPaths.direct - before.direct).toBe(3)
      expect(ingestPaths.engine - before.engine).toBe(3)
      // values the raw insert would store differently (or the mapper refuses): the mapping or the JavaScript mapper decides
      const doubtful = [
        { ...base, s: '-' }, // a null value
        { ...base, other: 'x' }, // a column of the table this transform does not store
        { ...base, ts: '2024-02-30T00:00:00Z' },
        { ...base, ts: '2024-01-01T00:00:00.1234Z' },
        { ...base, ts: '2024-01-01 00:00:00Z' },
        { ...base, ts: '2024-01-01T00:00:00+02:00' },
        { ...base, ts: '1899-12-31T23:59:59Z' },
        { ...base, ts: 1700000000 },
        { ...base, n: '42' },
        { ...base, n: 1.5 },
        { ...base, u: 256 },
        { ...base, big: -1 },
        { ...base, big: 9007199254740993 },
        { ...base, d: '2.5' },
        { ...base, b: 'yes' },
        { ...base, s: 12 },
        { ...base, j: { a: 1 } },
        { s: 'no time' },
      ]
      for (const row of doubtful) {
        const direct = ingestPaths.direct
        await both('direct', JSON.stringify([row, ...clean]), headers)
        expect(ingestPaths.direct, JSON.stringify(row)).toBe(direct)
      }
      // -0 (JSON.stringify writes it as 0): the mapper stores 0
      expect(await both('direct', '[{"ts": "2024-05-06T07:08:09.123Z", "d": -0.0, "n": -0}]', headers)).toMatchObject({
        status: 200,
      })
      expect(ingestPaths.direct - before.direct).toBe(3)
      expect(await both('direct', '{"ts": "2024-01-01T00:00:00Z", "s": "first", "s": "last"}', headers)).toMatchObject({
        status: 200,
      })
      expect(await rows('on_direct')).toBe(await rows('off_direct'))
    },
  )

  it(
    'CSV: clean bodies of a plain transform go to the engine as they are and store what the JavaScript mapper stores',
    { timeout: 300_000 },
    async () => {
      await tablePair('direct_csv', {
        name: 'dc',
        type: 'csv',
        settings: {
          null_values: ['-'],
          format_details: { delimiter: ',', skip_head: 1 },
          output_columns: DIRECT_TRANSFORM.settings.output_columns.filter((col) => !col.datatype.ignore),
        },
      })
      const headers = { 'content-type': 'text/csv' }
      const before = { ...ingestPaths }
      const head = 'ts,s,n,u,big,d,b,j\n'
      const clean = [
        '2024-05-06T07:08:09.123Z,hello,-5,200,123456789012345,1.25,true,"{""a"":1}"',
        '2024-02-29T23:59:59Z,"with, comma and ""quotes""",2147483647,0,0,0.1,false,',
        '2024-01-01T00:00:00.5Z,"multi\nline",1,2,3,1,true,x',
        '2024-01-01T00:00:01Z,,0,0,0,0,false,"NULL"',
        '2024-01-01T00:00:02Z,  spaced  ,007,1,1,-2.5,true,""',
      ]
      for (const body of [head + clean.join('\n') + '\n', head + clean.join('\n')]) {
        expect(await both('direct_csv', body, headers)).toEqual({
          status: 200,
          body: { code: 200, message: 'success', rows: clean.length, transform: 'dc' },
        })
      }
      expect(ingestPaths.direct - before.direct).toBe(2)
      const doubtful = [
        '2024-05-06T07:08:09Z,-,1,1,1,1,true,x', // a null value
        '2024-05-06T07:08:09Z,NULL,1,1,1,1,true,x', // the engine's null word, unquoted
        '2024-05-06T07:08:09Z,s,,1,1,1,true,x', // empty integer: null for the mapper
        '2024-05-06T07:08:09Z,s,1,1,1,-0,true,x',
        '2024-05-06T07:08:09Z,s,1.0,1,1,1,true,x',
        '2024-05-06T07:08:09Z,s,+1,1,1,1,true,x',
        '2024-05-06T07:08:09Z,s,1,1,1,1,yes,x',
        '2024-05-06T07:08:09Z,s,1,1,1, 1,true,x',
        '2024-05-06 07:08:09,s,1,1,1,1,true,x',
        '1700000000000,s,1,1,1,1,true,x',
        '2024-05-06T07:08:09Z,s,1,1,1,1,true',
        '2024-05-06T07:08:09Z,s,1,1,1,1,true,x,extra',
        '2024-05-06T07:08:09Z,s,1,256,1,1,true,x',
        ',s,1,1,1,1,true,x',
      ]
      for (const line of doubtful) {
        const direct = ingestPaths.direct
        await both('direct_csv', head + clean.join('\n') + '\n' + line + '\n', headers)
        expect(ingestPaths.direct, line).toBe(direct)
      }
      expect(await rows('on_direct_csv')).toBe(await rows('off_direct_csv'))
    },
  )

  it('CSV: the engine reads the same records as the JavaScript reader', { timeout: 300_000 }, async () => {
    await tablePair('csv', CSV_TRANSFORM)
    const before = ingestPaths.engine
    const head = 's;ts;n;d;b;dt;big\n'
    const clean = [
      'plain;1700000000123;1;1.5;true;2024-01-01T00:00:00Z;18446744073709551',
      '"quoted; with ""quotes""";1700000000124;-32768;-2.25e-3;0;2024-01-01 10:00:00.5;0',
      '"multi\nline";1700000000125;;;;;',
      'spaced  ;1700000000126;32767;;no;-;',
      'a"b;1700000000127;5;6;y;2024-06-01T00:00:00+02:00;7',
      'short;1700000000128',
      'long;1700000000129;1;2;t;2024-06-01T00:00:00Z;3;extra;fields',
      '-;1700000000130;-;-;-;-;-',
    ]
    expect(await both('csv', head + clean.join('\n') + '\n', { 'content-type': 'text/csv' })).toEqual({
      status: 200,
      body: { code: 200, message: 'success', rows: clean.length, transform: 'c' },
    })
    expect(await both('csv', head + clean.join('\n'), { 'content-type': 'text/csv' })).toMatchObject({
      status: 200,
      body: { rows: clean.length },
    })
    expect(ingestPaths.engine - before).toBe(2)
    // bodies the engine would read differently: the JavaScript reader decides
    for (const body of [
      head + ' x;1700000000137\n',
      head + 'x;1700000000138\n\ty;1700000000139\n',
      head + '"q" ;1700000000140\n',
      head + 'x;1700000000131\r\ny;1700000000132\r\n',
      head + '\n\nx;1700000000133\n',
      head + 'x;1700000000134\n""\n',
      head + '\\N;1700000000135\n',
      head + '"a"b;1700000000136\n',
    ]) {
      expect((await both('csv', body, { 'content-type': 'text/csv' })).status, body).toBe(200)
    }
    expect(await rows('on_csv')).toBe(await rows('off_csv'))
  })

  it('CSV: rows that break a rule are refused whole with the JavaScript messages', { timeout: 300_000 }, async () => {
    const head = 's;ts;n;d;b;dt;big\n'
    for (const body of [
      head + 'a;1700000000123;40000\n',
      head + 'a;;1\n',
      head + 'a;1700000000123;1;x\n',
      head + 'a;1700000000123;1;1;perhaps\n',
      head + 'a;1700000000123;1;1;1;not a date\n',
      head + 'a;1700000000123;1;1;1;;-1\n',
      head,
    ]) {
      const answer = await both('csv', body, { 'content-type': 'text/csv' })
      expect(answer.status, body).toBe(400)
    }
    expect(await rows('on_csv')).toBe(await rows('off_csv'))
  })
})
