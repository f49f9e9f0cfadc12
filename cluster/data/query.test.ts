import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'
import { WEB_LOG_COLUMNS } from './seed'
import { Engine, QUERY_THREAD_PRIORITY } from './engine'
import { FIGURES_MS } from './index'

let c: TestCluster
let projectId: string
let tableId: string

const poll = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

beforeAll(async () => {
  c = await startTestCluster()
  const p = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/`, { name: 'shop' })
  expect(p.status).toBe(201)
  projectId = p.body.uuid
  const t = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/`, { name: 'logs' })
  expect(t.status).toBe(201)
  tableId = t.body.uuid
  const tr = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/transforms/`, {
    name: 'json',
    type: 'json',
    settings: { is_default: true, output_columns: WEB_LOG_COLUMNS },
  })
  expect(tr.status, JSON.stringify(tr.body)).toBe(201)
  const csv = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/transforms/`, {
    name: 'csv',
    type: 'csv',
    settings: {
      is_default: false,
      format_details: { delimiter: ',', skip_head: 1 },
      output_columns: [
        { name: 'timestamp', datatype: { type: 'epoch', primary: true, format: 's', source: { from_input_index: 0 } } },
        { name: 'path', datatype: { type: 'string', source: { from_input_index: 1 } } },
        { name: 'status', datatype: { type: 'uint32', source: { from_input_index: 2 } } },
      ],
    },
  })
  expect(csv.status, JSON.stringify(csv.body)).toBe(201)
})

afterAll(async () => {
  await c?.close()
})

const ingest = (body: string, headers: Record<string, string> = {}) =>
  c.api('POST', '/ingest/event', body, undefined, {
    'x-hdx-table': 'shop.logs',
    'content-type': 'application/json',
    ...headers,
  })

const query = (sql: string, headers: Record<string, string> = {}, qs = '') =>
  c.api('POST', `/query${qs}`, sql, undefined, headers)

describe('ingest then query', () => {
  it('ingests JSON (object, array, NDJSON) and CSV rows through the transforms', async () => {
    const one = await ingest(
      JSON.stringify({
        timestamp: '2024-05-01T10:00:00.000Z',
        method: 'GET',
        path: '/a',
        status: 200,
        bytes: 10,
        duration_ms: 1.5,
        country: 'US',
      }),
    )
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    const arr = await ingest(
      JSON.stringify([
        { timestamp: '2024-05-01T10:00:01.000Z', method: 'POST', path: '/b', status: 201 },
        { timestamp: '2024-05-02T10:00:01.000Z', method: 'GET', path: '/c', status: 404 },
      ]),
    )
    expect(arr.status).toBe(200)
    expect(arr.body.rows).toBe(2)
    const nd = await ingest(
      '{"timestamp":"2024-05-03T00:00:00Z","path":"/d","status":500}\n{"timestamp":"2024-05-03T00:00:01Z","path":"/e","status":200}\n',
    )
    expect(nd.status).toBe(200)
    const csv = await ingest('ts,path,status\n1714600000,/csv1,200\n1714600001,"/csv,2",302\n', {
      'content-type': 'text/csv',
      'x-hdx-transform': 'csv',
    })
    expect(csv.status, JSON.stringify(csv.body)).toBe(200)
    expect(csv.body.rows).toBe(2)
    const r = await query("SELECT path, status FROM shop.logs WHERE path LIKE '/csv%' ORDER BY path FORMAT JSONEachRow")
    expect(r.status).toBe(200)
    expect(
      String(r.body)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { path: '/csv,2', status: 302 },
      { path: '/csv1', status: 200 },
    ])
    const count = await query("SELECT count() FROM shop.logs WHERE path NOT LIKE '/group-%'")
    expect(count.body.trim()).toBe('7')
  })

  it('answers 400 with a clear message for bad rows, unknown tables and missing headers', async () => {
    const badRow = await ingest(
      JSON.stringify([
        { timestamp: 'not a date', path: '/x' },
        { timestamp: '2024-05-01T00:00:00Z', status: 'abc' },
      ]),
    )
    expect(badRow.status).toBe(400)
    expect(badRow.body.message).toMatch(/2 of 2 rows/)
    expect(badRow.body.errors[0]).toMatch(/row 1: column "timestamp"/)
    expect(badRow.body.errors[1]).toMatch(/row 2: column "status": "abc" is not an integer/)
    const noTable = await ingest('{}', { 'x-hdx-table': 'shop.nope' })
    expect(noTable.status).toBe(404)
    const noHeader = await c.api('POST', '/ingest/event', '{}', undefined, {})
    expect(noHeader.status).toBe(400)
    const badJson = await ingest('{"timestamp": ')
    expect(badJson.status).toBe(400)
    expect(badJson.body.message).toMatch(/parse/i)
  })

  it('groups concurrent ingests into shared writes, each answered for its own rows', async () => {
    const body = (k: number) =>
      JSON.stringify(
        Array.from({ length: 100 }, (_, i) => ({
          timestamp: `2024-07-01T00:${String(k).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
          path: `/group-${k}`,
          status: 200,
        })),
      )
    const answers = await Promise.all(Array.from({ length: 12 }, (_, k) => ingest(body(k))))
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200))
    const r = await query("SELECT count() FROM shop.logs WHERE path LIKE '/group-%'")
    expect(r.body).toBe('1200\n')
  })

  it('requires the table stream token when the table has one', async () => {
    const url = `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}`
    const patched = await c.api('PATCH', url, { settings: { stream: { token_list: ['s3cret'] } } })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const row = JSON.stringify({ timestamp: '2024-08-01T00:00:00Z', path: '/token', status: 200 })
    expect((await ingest(row)).status).toBe(401)
    expect((await ingest(row, { 'x-hdx-token': 'nope' })).status).toBe(401)
    const ok = await c.api('POST', '/ingest/event', row, null, {
      'x-hdx-table': 'shop.logs',
      'content-type': 'application/json',
      'x-hdx-token': 's3cret',
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    await c.api('PATCH', url, { settings: { stream: { token_list: [] } } })
    const anonymous = await c.api('POST', '/ingest/event', row, null, {
      'x-hdx-table': 'shop.logs',
      'content-type': 'application/json',
    })
    expect(anonymous.status).toBe(401)
    expect((await query("SELECT count() FROM shop.logs WHERE path = '/token'")).body).toBe('1\n')
  })

  it('counts ingested rows in the intake-head metrics', () => {
    const series = c.handler.state.metrics.select('rows_ingested_total', { service: 'intake-head' })
    const total = series.reduce((acc, s) => acc + [...s.buckets.values()].reduce((a, b) => a + b, 0), 0)
    expect(total).toBeGreaterThanOrEqual(7)
  })
})

describe('/query', () => {
  it('answers CSV by default with the stats and ClickHouse headers', async () => {
    const r = await query('SELECT 1 AS a, 2 AS b')
    expect(r.status).toBe(200)
    expect(r.body).toBe('1,2\n')
    expect(r.headers.get('x-clickhouse-format')).toBe('CSV')
    expect(r.headers.get('x-clickhouse-query-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.headers.get('x-clickhouse-timezone')).toBe('UTC')
    expect(r.headers.get('x-hdx-query-stats')).toMatch(
      /^exec_time=\d+ rows_read=\d+ bytes_read=\d+ num_partitions=\d+ num_peers=1 query_attempts=1 memory_usage=\d+$/,
    )
  })

  it('counts partitions of the tables a query reads', async () => {
    const r = await query('SELECT count() FROM shop.logs')
    expect(r.headers.get('x-hdx-query-stats')).toMatch(/num_partitions=[1-9]/)
  })

  it('takes GET ?query=, FORMAT in SQL and hdx_query_output_format', async () => {
    const get = await c.api('GET', `/query?query=${encodeURIComponent('SELECT 41 + 1 AS x')}`)
    expect(get.body).toBe('42\n')
    const fmt = await query('SELECT 1 AS x FORMAT JSON')
    expect(fmt.headers.get('content-type')).toMatch(/json/)
    expect(fmt.body.data).toEqual([{ x: 1 }])
    const opt = await query('SELECT 1 AS x', {}, '?hdx_query_output_format=JSONCompact')
    expect(opt.headers.get('x-clickhouse-format')).toBe('JSONCompact')
    expect(opt.body.data).toEqual([[1]])
    const hdr = await query('SELECT 1 AS x', { 'x-hdx-query-settings': 'hdx_query_output_format=CSVWithNames' })
    expect(hdr.body).toBe('"x"\n1\n')
  })

  it('layers options: table defaults < header < URL < SQL SETTINGS', async () => {
    const sql = 'SELECT number FROM system.numbers LIMIT 50'
    // header max_result_rows=10 → error; URL overrides to 100 → ok; SQL back to 5 → error
    const h = await query(sql, { 'x-hdx-query-settings': 'hdx_query_max_result_rows=10' })
    expect(h.status).toBe(400)
    expect(h.body.error).toMatch(/^Code: 396\. DB::Exception: .*max rows/i)
    const u = await query(
      sql,
      { 'x-hdx-query-settings': 'hdx_query_max_result_rows=10' },
      '?hdx_query_max_result_rows=100',
    )
    expect(u.status).toBe(200)
    const s = await query(
      `${sql} SETTINGS hdx_query_max_result_rows=5`,
      { 'x-hdx-query-settings': 'hdx_query_max_result_rows=10' },
      '?hdx_query_max_result_rows=100',
    )
    expect(s.status).toBe(400)
    // hdx options become engine limits
    const slow = await query('SELECT sleep(2) SETTINGS hdx_query_max_execution_time = 1')
    expect(slow.status).toBe(400)
    expect(slow.body.error).toMatch(/^Code: 159\./)
    // a table's default_query_options apply to queries naming it
    const patched = await c.api('PATCH', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}`, {
      settings: { default_query_options: { hdx_query_max_rows: 2 } },
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const limited = await query('SELECT * FROM shop.logs')
    expect(limited.status).toBe(400)
    expect(limited.body.error).toMatch(/Code: 158/)
    const lifted = await query('SELECT count() FROM shop.logs SETTINGS hdx_query_max_rows=0')
    expect(lifted.status).toBe(200)
    await c.api('PATCH', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}`, {
      settings: { default_query_options: { hdx_query_max_rows: 0 } },
    })
  })

  it('answers engine errors as 400 {"error","query"} and refuses writes', async () => {
    const r = await query('SELEC 1')
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/^Code: 62\. DB::Exception:/)
    expect(r.body.query).toBe('SELEC 1')
    const missing = await query('SELECT * FROM nope.nothing')
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatch(/Code: (60|81)\./)
    const write = await query('DROP TABLE shop.logs')
    expect(write.status).toBe(400)
    expect(write.body.error).toMatch(/READONLY/)
    const multi = await query('SELECT 1; DROP TABLE shop.logs')
    expect(multi.status).toBe(400)
    expect(multi.body.error).toMatch(/Multi-statements/)
    const sneaky = await query('SELECT 1 SETTINGS readonly = 0')
    expect(sneaky.status).toBe(400)
    expect(sneaky.body.error).toMatch(/Code: 164/)
    const raised = await query('SELECT 1 SETTINGS os_thread_priority = -20')
    expect(raised.status).toBe(400)
    expect(raised.body.error).toMatch(/Code: 452\..*os_thread_priority/)
    const fromUrl = await query('SELECT 1', {}, '?os_thread_priority=0')
    expect(fromUrl.status).toBe(400)
    const file = await query("SELECT * FROM file('/etc/passwd', 'LineAsString')")
    expect(file.status).toBe(400)
    expect(file.body.error).toMatch(/Code: 497\..*file\(\)/)
    const empty = await query('')
    expect(empty.status).toBe(400)
    const unauth = await c.api('POST', '/query', 'SELECT 1', null)
    expect(unauth.status).toBe(401)
  })

  it("runs user queries at the query lane's lower OS priority", async () => {
    const r = await query("SELECT getSetting('os_thread_priority') AS p FORMAT CSV")
    expect(r.status).toBe(200)
    expect(r.body).toBe(`${QUERY_THREAD_PRIORITY}\n`)
  })

  it('a query that fails after writing output leaves nothing behind for the next one', async () => {
    const over = await query('SELECT number FROM numbers(100) FORMAT JSONCompact', {}, '?hdx_query_max_result_rows=50')
    expect(over.status).toBe(400)
    expect(over.body.error).toMatch(/Code: 396\./)
    const next = await query('SELECT 7 AS n FORMAT CSV')
    expect(next.body).toBe('7\n')
  })

  it('accepts HTTP Basic credentials', async () => {
    const basic = Buffer.from(`${c.handler.admin.email}:${c.handler.admin.password}`).toString('base64')
    const r = await c.api('POST', '/query', 'SELECT 7', null, { authorization: `Basic ${basic}` })
    expect(r.status).toBe(200)
    expect(r.body).toBe('7\n')
  })

  it('serves the cluster logs as hydro.logs and recent queries as hdx.active_queries', async () => {
    c.handler.state.log({ level: 'warning', service: 'query-head', component: 'test', message: 'hello from the test' })
    const r = await query(
      'SELECT level, `kubernetes.container_name` AS service, message FROM hydro.logs WHERE ' +
        "message = 'hello from the test' FORMAT JSONEachRow",
    )
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(typeof r.body === 'string' ? JSON.parse(r.body) : r.body).toEqual({
      level: 'warning',
      service: 'query-head',
      message: 'hello from the test',
    })
    const q = await query("SELECT count() FROM hdx.active_queries WHERE query LIKE '%41 + 1%'")
    expect(Number(q.body.trim())).toBeGreaterThanOrEqual(1)
  })

  it('names a query by its query_id, reports the rows read while it runs, stops it in the engine when its client leaves', async () => {
    const heavy = 'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) % 7 = 1'
    const controller = new AbortController()
    const started = Date.now()
    const running = c.handler(
      new Request(`http://local-cluster/query?query_id=cancel-me-1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.token}` },
        body: heavy,
        signal: controller.signal,
      }),
    )
    type Row = { active: number; rows_read: string; error: string }
    const activeRow = async () =>
      (
        await query(
          "SELECT active, rows_read, error FROM hdx.active_queries WHERE query_id = 'cancel-me-1' FORMAT JSONEachRow",
        )
      ).body as Row | undefined
    const progress = (await poll(activeRow, (r) => r?.active === 1 && Number(r.rows_read) > 0))!
    expect(progress.active).toBe(1)
    expect(Number(progress.rows_read)).toBeGreaterThan(0)
    // a second query under the same name is refused while the first runs
    const twin = await c.api('POST', '/query?query_id=cancel-me-1', 'SELECT 1')
    expect(twin.status).toBe(400)
    expect(String(twin.body.error)).toContain('QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING')
    controller.abort()
    await running.catch(() => undefined)
    const row = (await poll(activeRow, (r) => r?.active === 0))!
    expect(row.active).toBe(0)
    expect(row.error).toContain('QUERY_WAS_CANCELLED')
    // the statement would take minutes; it ended within seconds of the abort
    expect(Date.now() - started).toBeLessThan(20_000)
  }, 60_000)

  it('does not stall config calls while long queries run', async () => {
    const started = Date.now()
    const heavy =
      'SELECT count() FROM numbers(5000000000) WHERE sipHash64(number) % 3 = 0 SETTINGS ' +
      "max_execution_time = 3, timeout_overflow_mode = 'break'"
    const slow = [query('SELECT sleep(3)'), query(heavy), query('SELECT sleep(3)'), query('SELECT sleep(3)')]
    let finished = false
    void Promise.all(slow).then(() => (finished = true))
    await new Promise((r) => setTimeout(r, 200))
    const t0 = Date.now()
    const cfg = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}`)
    const elapsed = Date.now() - t0
    expect(cfg.status).toBe(200)
    expect(finished).toBe(false)
    // and an ingest still goes through (internal lane)
    const ing = await ingest(JSON.stringify({ timestamp: '2024-06-01T00:00:00Z', path: '/during', status: 200 }))
    expect(ing.status).toBe(200)
    expect(finished).toBe(false)
    const results = await Promise.all(slow)
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
    expect(elapsed).toBeLessThan(3000)
  })
})

describe('/validator', () => {
  it('parses sample JSON with the given transform and reports row errors', async () => {
    const r = await c.api(
      'POST',
      '/validator',
      {
        transform: {
          type: 'json',
          settings: {
            output_columns: [
              { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
              { name: 'n', datatype: { type: 'int8' } },
              { name: 'tags', datatype: { type: 'array', elements: [{ type: 'string' }] } },
            ],
          },
        },
        data: [
          { ts: '2024-01-02 03:04:05', n: 5, tags: ['a'] },
          { ts: '2024-01-02', n: 500 },
          { ts: 'yesterday', n: 1 },
        ],
      },
      undefined,
      { 'x-hdx-table': 'shop.logs', 'x-hdx-test': 'true' },
    )
    expect(r.status).toBe(200)
    expect(r.body.code).toBe(200)
    expect(r.body.rows[0]).toEqual({ ts: '2024-01-02 03:04:05.000', n: 5, tags: ['a'] })
    expect(r.body.num_errors).toBe(2)
    expect(r.body.errors[0]).toEqual({ row: 2, message: expect.stringMatching(/"n": 500 is out of range for int8/) })
    expect(r.body.errors[1].message).toMatch(/"ts": "yesterday" is not a datetime/)
  })

  it('parses sample CSV with format details', async () => {
    const r = await c.api('POST', '/validator', {
      transform: {
        type: 'csv',
        settings: {
          format_details: { delimiter: ';', skip_head: 1 },
          output_columns: [
            { name: 'ts', datatype: { type: 'epoch', primary: true, format: 'ms', source: { from_input_index: 1 } } },
            { name: 'ok', datatype: { type: 'boolean', source: { from_input_index: 0 } } },
          ],
        },
      },
      data: 'ok;ts\ntrue;1700000000000\nmaybe;1700000000000\n',
    })
    expect(r.status).toBe(200)
    expect(r.body.rows).toEqual([{ ts: '2023-11-14 22:13:20.000', ok: true }])
    expect(r.body.errors).toEqual([{ row: 2, message: expect.stringMatching(/"ok": "maybe" is not a boolean/) }])
  })

  it('uses the table transform when only headers are given', async () => {
    const r = await c.api('POST', '/validator', '{"timestamp":"2024-01-01T00:00:00Z","status":200}', undefined, {
      'x-hdx-table': 'shop.logs',
    })
    expect(r.status).toBe(200)
    expect(r.body.num_valid).toBe(1)
  })
})

describe('table stats and engine hooks', () => {
  it('reports real figures', async () => {
    const r = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/stats`)
    expect(r.status).toBe(200)
    expect(r.body.total_rows).toBeGreaterThanOrEqual(7)
    expect(r.body.total_partitions).toBeGreaterThanOrEqual(3)
    expect(r.body.raw_data_size).toBeGreaterThan(0)
    expect(r.body.oldest_timestamp).toMatch(/^2024-05-01T10:00:00/)
  })

  it("keeps a table's figures for a moment (views in a row read the engine once), and an ingest forgets them at once", async () => {
    const url = `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/stats`
    const first = await c.api('GET', url)
    const engineReads = vi.spyOn(Engine.prototype, 'rows')
    try {
      const again = await c.api('GET', url)
      expect(again.body).toEqual(first.body)
      expect(engineReads).not.toHaveBeenCalled()
      const one = await ingest(
        JSON.stringify({ timestamp: '2024-05-03T10:00:00.000Z', method: 'GET', path: '/figures', status: 200 }),
      )
      expect(one.status, JSON.stringify(one.body)).toBe(200)
      const after = await c.api('GET', url)
      expect(after.body.total_rows).toBe(first.body.total_rows + 1)
    } finally {
      engineReads.mockRestore()
    }
  })

  it('after FIGURES_MS gives the figures kept while one read replaces them; after twice that, waits for a fresh read', async () => {
    const url = `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/stats`
    const first = await c.api('GET', url)
    const realNow = performance.now.bind(performance)
    let offset = 0
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + offset)
    // the engine's reads wait until released: an answer that comes meanwhile did not wait for them
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const original = Engine.prototype.rows
    const engineReads = vi.spyOn(Engine.prototype, 'rows').mockImplementation(async function (
      this: Engine,
      ...args: Parameters<Engine['rows']>
    ) {
      await held
      return original.apply(this, args)
    } as Engine['rows'])
    try {
      offset = FIGURES_MS + 1
      const stale = await c.api('GET', url)
      expect(stale.body).toEqual(first.body)
      expect(engineReads).toHaveBeenCalled()
      release()
      await vi.waitFor(async () => expect((await c.api('GET', url)).status).toBe(200))
      engineReads.mockClear()
      offset += 3 * FIGURES_MS
      const fresh = await c.api('GET', url)
      expect(engineReads).toHaveBeenCalled()
      expect(fresh.body.total_rows).toBe(first.body.total_rows)
    } finally {
      clock.mockRestore()
      engineReads.mockRestore()
    }
  })

  it('adds columns from later transforms', async () => {
    const tr = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/transforms/`, {
      name: 'v2',
      type: 'json',
      settings: {
        is_default: false,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z07:00' } },
          { name: 'region', datatype: { type: 'string' } },
          { name: 'labels', datatype: { type: 'map', elements: [{ type: 'string' }, { type: 'string' }] } },
        ],
      },
    })
    expect(tr.status, JSON.stringify(tr.body)).toBe(201)
    const ing = await ingest(JSON.stringify({ timestamp: '2024-05-05T00:00:00Z', region: 'eu', labels: { a: 'b' } }), {
      'x-hdx-transform': 'v2',
    })
    expect(ing.status, JSON.stringify(ing.body)).toBe(200)
    const r = await query("SELECT region, labels['a'] FROM shop.logs WHERE region = 'eu'")
    expect(r.body).toBe('"eu","b"\n')
  })

  it('reads a view as project.`table#view`', async () => {
    const v = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/${tableId}/views/`, {
      name: 'slim',
      settings: {
        is_default: false,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z07:00' } },
          { name: 'path', datatype: { type: 'string' } },
        ],
      },
    })
    expect(v.status, JSON.stringify(v.body)).toBe(201)
    const r = await query("SELECT * FROM shop.`logs#slim` WHERE path = '/a' FORMAT JSONEachRow")
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toEqual({ timestamp: '2024-05-01 10:00:00.000', path: '/a' })
  })

  it('serves a summary table as a view over its SQL', async () => {
    const t = await c.api('POST', `/config/v1/orgs/${c.orgId}/projects/${projectId}/tables/`, {
      name: 'by_status',
      type: 'summary',
      settings: {
        summary: {
          sql: "SELECT status, count() AS n FROM shop.logs GROUP BY status SETTINGS hdx_primary_key='status'",
        },
      },
    })
    expect(t.status, JSON.stringify(t.body)).toBe(201)
    const r = await query('SELECT n FROM shop.by_status WHERE status = 201')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toBe('1\n')
  })

  it('alter job: pending until commit, then done', async () => {
    const before = await query('SELECT count() FROM shop.logs WHERE status = 404')
    expect(Number(before.body)).toBeGreaterThan(0)
    const r = await query('ALTER TABLE shop.logs DELETE WHERE status = 404')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const id = r.body.job_id
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const show = (jid: string) => c.api('GET', `/config/v1/orgs/${c.orgId}/jobs/alter/${jid}`)
    const pending = await poll(
      () => show(id),
      (x) => x.body.status === 'pending',
    )
    expect(pending.body.status).toBe('pending')
    expect(pending.body.progress.rows_to_alter).toBe(Number(before.body))
    // data unchanged while pending
    expect((await query('SELECT count() FROM shop.logs WHERE status = 404')).body).toBe(before.body)
    const list = await c.api('GET', `/config/v1/orgs/${c.orgId}/jobs/alter/`)
    expect(list.body.count).toBe(1)
    const commit = await c.api('POST', `/config/v1/orgs/${c.orgId}/jobs/alter/${id}/commit`)
    expect(commit.status).toBe(200)
    const done = await poll(
      () => show(id),
      (x) => x.body.status === 'done',
    )
    expect(done.body.status).toBe('done')
    expect((await query('SELECT count() FROM shop.logs WHERE status = 404')).body).toBe('0\n')
    const verify = await c.api('GET', `/config/v1/orgs/${c.orgId}/jobs/alter/${id}/verify/`)
    expect(verify.body.results[0].verified).toBe(true)
    // cancel path
    const u = await query("ALTER TABLE shop.logs UPDATE path = '/changed' WHERE status = 200")
    const uid = u.body.job_id
    await poll(
      () => show(uid),
      (x) => x.body.status === 'pending',
    )
    const cancel = await c.api('POST', `/config/v1/orgs/${c.orgId}/jobs/alter/${uid}/cancel/`)
    expect(cancel.body.status).toBe('canceled')
    expect((await query("SELECT count() FROM shop.logs WHERE path = '/changed'")).body).toBe('0\n')
    // an update through to done
    const u2 = await query("ALTER TABLE shop.logs UPDATE country = 'XX' WHERE path = '/a'")
    await poll(
      () => show(u2.body.job_id),
      (x) => x.body.status === 'pending',
    )
    expect((await query("SELECT count() FROM shop.logs WHERE country = 'XX'")).body).toBe('0\n')
    await c.api('POST', `/config/v1/orgs/${c.orgId}/jobs/alter/${u2.body.job_id}/commit`)
    expect(
      (
        await poll(
          () => show(u2.body.job_id),
          (x) => x.body.status === 'done',
        )
      ).body.status,
    ).toBe('done')
    expect((await query("SELECT count() FROM shop.logs WHERE country = 'XX'")).body).toBe('1\n')
    const commitCanceled = await c.api('POST', `/config/v1/orgs/${c.orgId}/jobs/alter/${uid}/commit`)
    expect(commitCanceled.status).toBe(400)
    expect((await c.api('DELETE', `/config/v1/orgs/${c.orgId}/jobs/alter/${uid}/`)).status).toBe(204)
    const bad = await query('ALTER TABLE shop.logs DELETE WHERE nope = 1')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/Code: 47/)
  })
})

describe('prometheus', () => {
  it('answers query_range over the cluster counters', async () => {
    const now = Math.floor(Date.now() / 1000)
    const rate = encodeURIComponent('sum by (service) (rate(http_requests_total[5m]))')
    const r = await c.api('GET', `/prometheus/api/v1/query_range?query=${rate}&start=${now - 600}&end=${now}&step=60`)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('success')
    expect(r.body.data.resultType).toBe('matrix')
    const services = r.body.data.result.map((s: { metric: { service: string } }) => s.metric.service)
    expect(services).toContain('query-head')
    expect(r.body.data.result[0].values).toHaveLength(11)
    const ingested = encodeURIComponent('rows_ingested_total{service="intake-head"}')
    const sel = await c.api(
      'GET',
      `/prometheus/api/v1/query_range?query=${ingested}&start=${now - 60}&end=${now + 10}&step=10`,
    )
    expect(sel.body.data.result).toHaveLength(1)
    const last = sel.body.data.result[0].values.at(-1)
    expect(Number(last[1])).toBeGreaterThanOrEqual(7)
    const up = await c.api('GET', `/prometheus/api/v1/query?query=${encodeURIComponent('up{service="query-head"}')}`)
    expect(up.body.data.result).toEqual([
      { metric: { __name__: 'up', service: 'query-head' }, value: [expect.any(Number), '1'] },
    ])
    const bad = await c.api(
      'GET',
      `/prometheus/api/v1/query_range?query=${encodeURIComponent('histogram_quantile(0.9, x)')}`,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.status).toBe('error')
    const unauth = await c.api('GET', `/prometheus/api/v1/query_range?query=up`, undefined, null)
    expect(unauth.status).toBe(401)
  })
})
