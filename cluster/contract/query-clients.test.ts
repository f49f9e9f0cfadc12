/** The query clients: grafana-datasource-plugin, mcp-hydrolix (clickhouse-connect), hdxcli's catalog and logs. */
import zlib from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../test-helpers'
import { c, createQueryEventsTable, org, raw, unwrapList, useContractCluster } from './helpers'

useContractCluster()

describe('query clients', () => {
  beforeAll(createQueryEventsTable)

  it('hdx_query_output_format=JSON, X-HDX-query-settings, the stats header as k=v pairs (grafana-datasource-plugin)', async () => {
    const r = await raw('POST', '/query?hdx_query_output_format=JSON', {
      headers: {
        Authorization: `Bearer ${c.token}`,
        'X-HDX-query-settings': 'hdx_query_max_result_rows=100 hdx_query_max_execution_time=30',
      },
      body: 'SELECT n FROM q.events ORDER BY n',
    })
    expect(r.status, r.text).toBe(200)
    expect(JSON.parse(r.text).data.length).toBe(10)
    // grafana: strings.Fields(header) -> strings.SplitN(kv, "=", 2)
    const stats = Object.fromEntries(
      (r.headers.get('x-hdx-query-stats') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((kv) => kv.split('=', 2)),
    )
    for (const key of [
      'exec_time',
      'rows_read',
      'bytes_read',
      'num_partitions',
      'num_peers',
      'query_attempts',
      'memory_usage',
    ]) {
      expect(Number.isFinite(Number(stats[key])), key).toBe(true)
    }
    expect(Number(stats.rows_read)).toBeGreaterThanOrEqual(10)
    expect(r.headers.get('x-clickhouse-format')).toBe('JSON')
    // the header's limit applies: more rows than hdx_query_max_result_rows is an engine error, 400 {"error"}
    const limited = await raw('POST', '/query', {
      headers: { Authorization: `Bearer ${c.token}`, 'X-HDX-query-settings': 'hdx_query_max_result_rows=5' },
      body: 'SELECT n FROM q.events',
    })
    expect(limited.status).toBe(400)
    expect(limited.body.error).toMatch(/^Code: \d+/)
  })

  it('grafana over HTTP: clickhouse-go settings as URL parameters, Native output, deflate bodies (pkg/plugin/driver.go)', async () => {
    const basic = `Basic ${Buffer.from(`${TEST_ADMIN_EMAIL}:${TEST_ADMIN_PASSWORD}`).toString('base64')}`
    const params =
      'default_format=Native&database=default&enable_http_compression=1&hdx_query_output_format=Native&query_id=grafana-1'
    // the connection handshake clickhouse-go runs, then a panel query; the settings ride on the URL
    for (const sql of [
      'SELECT displayName(), version(), revision(), timezone()',
      'SELECT n FROM q.events ORDER BY n',
    ]) {
      const r = await c.handler(
        new Request(`http://local-cluster/query?${params}`, {
          method: 'POST',
          headers: { Authorization: basic, 'Accept-Encoding': 'deflate' },
          body: sql,
        }),
      )
      const bytes = new Uint8Array(await r.arrayBuffer())
      expect(r.status, new TextDecoder().decode(bytes)).toBe(200)
      expect(r.headers.get('x-clickhouse-format')).toBe('Native')
      // Native: a block starts with varint column count, varint row count
      expect(bytes[0]).toBeGreaterThan(0)
      expect(r.headers.get('content-encoding')).toBeNull()
    }
    // ClickHouse's HTTP interface takes compressed request bodies (Content-Encoding gzip / deflate / br)
    for (const [encoding, body] of [
      ['gzip', zlib.gzipSync('SELECT count() FROM q.events')],
      ['deflate', zlib.deflateSync('SELECT count() FROM q.events')],
      ['br', zlib.brotliCompressSync('SELECT count() FROM q.events')],
    ] as const) {
      const r = await raw('POST', '/query', { headers: { Authorization: basic, 'Content-Encoding': encoding }, body })
      expect(r.text.trim(), encoding).toBe('10')
    }
    const broken = await raw('POST', '/query', {
      headers: { Authorization: basic, 'Content-Encoding': 'gzip' },
      body: 'not gzip at all',
    })
    expect(broken.status).toBe(400)
    expect(broken.body.error).toMatch(/^Code: \d+/)
  })

  it('grafana schema browsing: TurbineStorage tables of system.tables, columns, functions, DESCRIBE (metadataProvider.ts)', async () => {
    const run = async (sql: string) => {
      const r = await raw('POST', '/query?default_format=JSONCompact', {
        headers: { Authorization: `Bearer ${c.token}` },
        body: sql,
      })
      expect(r.status, `${sql}: ${r.text}`).toBe(200)
      return JSON.parse(r.text).data.map((row: unknown[]) => row[0])
    }
    // SCHEMA_SQL, TABLES_SQL, COLUMNS_SQL, FUNCTIONS_SQL, AD_HOC_KEY_QUERY as the plugin sends them
    expect(
      await run(
        "SELECT DISTINCT database as project FROM system.tables WHERE engine = 'TurbineStorage' " +
          "AND (project != 'sample_project' AND project != 'hdx' AND total_rows > 0)",
      ),
    ).toContain('q')
    expect(
      await run("SELECT name FROM system.tables WHERE engine = 'TurbineStorage' AND database = 'q' AND total_rows > 0"),
    ).toEqual(['events'])
    expect(await run("SELECT name FROM system.columns WHERE database='q' AND table ='events'")).toEqual(['ts', 'n'])
    expect((await run('SELECT name FROM  system.functions')).length).toBeGreaterThan(100)
    expect(await run('DESCRIBE q.events')).toEqual(['ts', 'n'])
    // the rename leaves string literals and other tables alone
    expect(
      await run("SELECT count() FROM system.tables AS t WHERE t.name = 'system.tables' AND engine != 'TurbineStorage'"),
    ).toEqual([0])
    expect(await run("SELECT engine FROM system.tables WHERE database = 'system' AND name = 'one'")).not.toContain(
      'TurbineStorage',
    )
  })

  it('mcp-hydrolix through clickhouse-connect: the engine interface at / on the query port, its session and settings', async () => {
    const basic = `Basic ${Buffer.from(`${TEST_ADMIN_EMAIL}:${TEST_ADMIN_PASSWORD}`).toString('base64')}`
    // get_client(host, port=8088, secure=False, username, password, database, client_name="mcp_hydrolix")
    const params = new URLSearchParams({
      session_id: 'f0c6a3f2-mcp',
      database: 'q',
      send_progress_in_http_headers: '1',
      http_headers_progress_interval_ms: '120000',
      enable_http_compression: '1',
      client_protocol_version: '54405',
      query_id: 'mcp-q-1',
    })
    for (const sql of [
      'SELECT version(), timezone() FORMAT TabSeparated',
      'SELECT name, value, changed, description, type, readonly FROM system.settings LIMIT 10000 FORMAT Native',
      'SELECT count() FROM q.events FORMAT Native',
    ]) {
      const r = await c.handler(
        new Request(`http://local-cluster/?${params}`, {
          method: 'POST',
          headers: {
            Authorization: basic,
            'Accept-Encoding': 'lz4, zstd, br, gzip, deflate',
            'User-Agent': 'clickhouse-connect/0.8 (mcp_hydrolix)',
          },
          body: sql,
        }),
      )
      expect(r.status, `${sql}: ${await r.clone().text()}`).toBe(200)
    }
    // ping and a bare GET answer as the engine does
    expect(await (await c.handler(new Request('http://local-cluster/ping'))).text()).toBe('Ok.\n')
    expect(await (await c.handler(new Request('http://local-cluster/'))).text()).toBe('Ok.\n')
    // a GET with ?query= at the root runs it; credentials are still required
    const get = await raw('GET', `/?query=${encodeURIComponent('SELECT 1')}`, { headers: { Authorization: basic } })
    expect(get.text.trim()).toBe('1')
    expect((await raw('POST', '/', { body: 'SELECT 1' })).status).toBe(401)
  })

  it('hdxcli migrate: a catalog download by project and table uuid parses as Partition rows (catalog_operations.py)', async () => {
    const projects = unwrapList((await c.api('GET', `/config/v1/orgs/${org}/projects/`)).body)
    const q = projects.find((p) => p.name === 'q')
    const t = unwrapList((await c.api('GET', `/config/v1/orgs/${org}/projects/${q.uuid}/tables/`)).body).find(
      (x) => x.name === 'events',
    )
    const r = await raw('GET', `/config/v1/orgs/${org}/catalog/download/?project=${q.uuid}&table=${t.uuid}`, {
      headers: { Authorization: `Bearer ${c.token}`, Accept: 'application/json' },
    })
    expect(r.status).toBe(200)
    // csv.reader: quoted fields may hold commas and doubled quotes
    const rows: string[][] = []
    let row: string[] = []
    let field = ''
    let quoted = false
    for (let i = 0; i < r.text.length; i++) {
      const ch = r.text[i]
      if (quoted) {
        if (ch === '"' && r.text[i + 1] === '"') {
          field += '"'
          i++
        } else if (ch === '"') quoted = false
        else field += ch
      } else if (ch === '"') quoted = true
      else if (ch === ',') {
        row.push(field)
        field = ''
      } else if (ch === '\n') {
        row.push(field)
        rows.push(row)
        row = []
        field = ''
      } else if (ch !== '\r') field += ch
    }
    const partitions = rows.slice(1) // reader.__next__(): the header
    expect(partitions.length).toBeGreaterThan(0)
    for (const p of partitions) {
      expect(p.length).toBe(16)
      const [, , minTs, maxTs, manifest, data, index, , , , rowsCount] = p
      for (const ts of [minTs, maxTs]) expect(ts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) // strptime("%Y-%m-%d %H:%M:%S")
      for (const n of [manifest, data, index, rowsCount]) expect(Number.isInteger(Number(n)), n).toBe(true)
      expect(JSON.parse(p[12].replace(/'/g, '"'))).toBeTypeOf('object') // _set_metadata
    }
    expect(partitions.reduce((s, p) => s + Number(p[10]), 0)).toBe(10)
  })

  it('hdxcli logs: clickhouse-connect on 8088, user "bearer" and the token as password, the hydro.logs query (query.py)', async () => {
    // _build_query with service, level and text filter, parameters bound client-side (%(x)s)
    const sql =
      'SELECT timestamp, level, `kubernetes.container_name` AS service, message, error FROM ' +
      "hydro.logs WHERE service = 'turbine-api' AND level IN ('info', 'INFO') AND (message LIKE " +
      "'%started%' OR error LIKE '%started%') ORDER BY timestamp DESC LIMIT 50 FORMAT Native"
    const r = await c.handler(
      new Request('http://local-cluster/?session_id=hdx-logs&send_progress_in_http_headers=1', {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`bearer:${c.token}`).toString('base64')}` },
        body: sql,
      }),
    )
    expect(r.status, await r.clone().text()).toBe(200)
    // the same rows as JSON, to see them: the startup line is there
    const json = await raw('POST', '/query?default_format=JSON', {
      headers: { Authorization: `Basic ${Buffer.from(`bearer:${c.token}`).toString('base64')}` },
      body: sql.replace(' FORMAT Native', ''),
    })
    expect(json.status, json.text).toBe(200)
    expect(JSON.parse(json.text).data.some((row: any) => /started/.test(row.message))).toBe(true)
    // the engine's other ways to pass a user: X-ClickHouse-User/Key headers, user/password parameters
    const viaHeaders = await raw('POST', '/', {
      headers: { 'X-ClickHouse-User': TEST_ADMIN_EMAIL, 'X-ClickHouse-Key': TEST_ADMIN_PASSWORD },
      body: 'SELECT 1',
    })
    expect(viaHeaders.text.trim()).toBe('1')
    const viaParams = await raw(
      'GET',
      `/query?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}&query=SELECT%202`,
    )
    expect(viaParams.text.trim()).toBe('2')
    expect(
      (await raw('GET', `/query?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=wrong&query=SELECT%202`)).status,
    ).toBe(401)
    // not on the config API
    expect(
      (
        await raw(
          'GET',
          `/config/v1/orgs/?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}`,
        )
      ).status,
    ).toBe(401)
  })

  it('mcp-hydrolix tools: SHOW DATABASES, list_tables, get_table_info, DESCRIBE with Identifier parameters (mcp_server.py)', async () => {
    const basic = `Basic ${Buffer.from(`${TEST_ADMIN_EMAIL}:${TEST_ADMIN_PASSWORD}`).toString('base64')}`
    // execute_query: settings ride as URL parameters (invalid_setting_action="send"), readonly=1 among them
    const settings = {
      readonly: '1',
      hdx_query_max_execution_time: '30',
      hdx_query_max_attempts: '1',
      hdx_query_max_result_rows: '100000',
      hdx_query_max_memory_usage: String(2 * 1024 * 1024 * 1024),
      hdx_query_admin_comment: 'User: mcp-hydrolix version: 0.4.0 transport: stdio',
    }
    const ask = async (sql: string, params: Record<string, string> = {}, withSettings = true) => {
      const qs = new URLSearchParams({
        ...(withSettings ? settings : {}),
        ...Object.fromEntries(Object.entries(params).map(([k, v]) => [`param_${k}`, v])),
      })
      const r = await raw('POST', `/?${qs}`, { headers: { Authorization: basic }, body: `${sql}\n FORMAT JSONCompact` })
      expect(r.status, `${sql}: ${r.text}`).toBe(200)
      return JSON.parse(r.text)
    }
    // list_databases: client.command("SHOW DATABASES")
    const dbs = await c.handler(
      new Request('http://local-cluster/', {
        method: 'POST',
        headers: { Authorization: basic },
        body: 'SHOW DATABASES',
      }),
    )
    expect((await dbs.text()).split('\n')).toContain('q')
    // list_tables / get_table_info: system.tables with {db:String} (and {table:String}) parameters
    const fields =
      'database, name, engine, sorting_key, primary_key, total_rows, total_bytes, ' +
      'total_bytes_uncompressed, parts, active_parts, total_marks, comment'
    const tables = await ask(`SELECT ${fields} FROM system.tables WHERE database = {db:String}`, { db: 'q' })
    expect(tables.data.map((row: unknown[]) => row[1])).toEqual(['events'])
    const info = await ask(
      `SELECT ${fields} FROM system.tables WHERE database = {db:String} AND name = {table:String}`,
      { db: 'q', table: 'events' },
    )
    expect(info.data[0][2]).toBe('TurbineStorage')
    expect(info.data[0][4]).toBe('ts')
    // _describe_columns: DESCRIBE TABLE {db:Identifier}.{table:Identifier}
    const described = await ask('DESCRIBE TABLE {db:Identifier}.{table:Identifier}', { db: 'q', table: 'events' })
    expect(described.data.map((row: unknown[]) => row[0])).toEqual(['ts', 'n'])
    // run_select_query under the same settings
    const rows = await ask('SELECT n FROM q.events WHERE ts > now() - INTERVAL 10 YEAR ORDER BY n LIMIT 3')
    expect(rows.data.map((row: unknown[]) => Number(row[0]))).toEqual([0, 1, 2])
    // the admin comment lands in hdx.active_queries
    const active = await ask(
      "SELECT admin_comment FROM hdx.active_queries WHERE admin_comment LIKE 'User: mcp-hydrolix%' LIMIT 1",
      {},
      false,
    )
    expect(active.data.length).toBe(1)
  })

  it('mcp-hydrolix: Basic user:password and __api_token__:token on the query endpoint, GET /version (credentials.py)', async () => {
    const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`
    // clickhouse-connect: POST with the SQL as body and settings as URL parameters
    const r = await raw('POST', '/query?default_format=JSONCompact&query_id=mcp-1&database=q', {
      headers: { Authorization: basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD) },
      body: 'SELECT count() FROM q.events',
    })
    expect(r.status, r.text).toBe(200)
    expect(Number(JSON.parse(r.text).data[0][0])).toBe(10)
    const sa = await c.api('POST', '/config/v1/service_accounts/', { name: 'mcp_sa', roles: ['reader'] })
    const tok = await c.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    const viaApiToken = await raw('POST', '/query', {
      headers: { Authorization: basic('__api_token__', tok.body.token) },
      body: 'SELECT count() FROM q.events',
    })
    expect(viaApiToken.status, viaApiToken.text).toBe(200)
    expect(viaApiToken.text.trim()).toBe('10')
    const bearer = await raw('GET', `/query?query=${encodeURIComponent('SELECT 1')}`, {
      headers: { Authorization: `Bearer ${tok.body.token}` },
    })
    expect(bearer.text.trim()).toBe('1')
    const version = await raw('GET', '/version', {
      headers: { Authorization: basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD) },
    })
    expect(version.status).toBe(200)
    expect(version.text).toMatch(/^v\d+\.\d+/)
    const wrong = await raw('POST', '/query', {
      headers: { Authorization: basic(TEST_ADMIN_EMAIL, 'nope') },
      body: 'SELECT 1',
    })
    expect(wrong.status).toBe(401)
  })
})
