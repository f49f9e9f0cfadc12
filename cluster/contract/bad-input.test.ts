/** Never a 500: wrong types, odd requests and bad action bodies answer 4xx with JSON; no token answers 401. */
import { beforeAll, describe, expect, it } from 'vitest'
import { apiFor } from '../test-helpers'
import { c, createQueryEventsTable, org, useContractCluster } from './helpers'

useContractCluster()

// the data endpoints' checks send to q.events
beforeAll(createQueryEventsTable)

describe('never a 500 for bad input', () => {
  const bodies: [string, unknown][] = [
    ['number for name', { name: 12345678901234567890 }],
    ['array body', [{ name: 'x' }]],
    ['string body', 'just text'],
    ['null settings', { name: 'fuzz_null', settings: null }],
    ['array settings', { name: 'fuzz_arr', settings: [1, 2] }],
    ['huge name', { name: 'x'.repeat(10_000) }],
    ['unicode name', { name: 'ünïcødé-名前-🙂' }],
    ['object name', { name: { a: 1 } }],
    [
      'nested wrong types',
      {
        name: 'fuzz_types',
        description: ['a'],
        type: 7,
        settings: { stream: 'x', merge: { enabled: 'maybe' }, output_columns: 'nope', k8s_deployment: [] },
      },
    ],
    ['empty', {}],
  ]
  let collections: string[]
  let items: string[]

  beforeAll(async () => {
    const o = `/config/v1/orgs/${org}`
    const p = await c.api('POST', `${o}/projects/`, { name: 'fuzz' })
    const t = await c.api('POST', `${o}/projects/${p.body.uuid}/tables/`, { name: 'fuzz_t' })
    const pt = `${o}/projects/${p.body.uuid}/tables/${t.body.uuid}`
    collections = [
      `${o}/projects/`,
      `${o}/projects/${p.body.uuid}/tables/`,
      `${pt}/transforms/`,
      `${pt}/views/`,
      `${pt}/columns/`,
      `${pt}/rowpolicies/`,
      `${pt}/sources/kafka/`,
      `${pt}/sources/kinesis/`,
      `${pt}/sources/siem/`,
      `${pt}/sources/summary/`,
      `${o}/projects/${p.body.uuid}/dictionaries/`,
      `${o}/projects/${p.body.uuid}/dictionaries/files/`,
      `${o}/projects/${p.body.uuid}/functions/`,
      `${o}/storages/`,
      `${o}/credentials/`,
      `${o}/jobs/batch/`,
      `${o}/query_options/`,
      '/config/v1/pools/',
      '/config/v1/users/',
      '/config/v1/service_accounts/',
      '/config/v1/invites/',
      '/config/v1/roles/',
      '/config/v1/login',
      '/config/v1/reset_password',
      '/config/v1/password_reset_confirm/',
      '/validator',
    ]
    items = [
      `${o}/projects/not-a-uuid`,
      `${o}/projects/00000000-0000-0000-0000-000000000000/tables/`,
      `${o}/projects/${p.body.uuid}/tables/%E2%9C%93`,
      `/config/v1/orgs/not-an-org/projects/`,
      '/config/v1/roles/abc/',
      '/config/v1/roles/99999999999999999999999/',
      '/config/v1/invites/-1/',
      '/config/v1/users/%00/',
      `${o}/jobs/batch/nope/cancel`,
      `${o}/jobs/alter/nope/commit`,
      `${o}/projects/${p.body.uuid}/dictionaries/files/..%2F..%2Fsecret.key`,
    ]
  })

  it('POSTs wrong types to every collection: 400 with a JSON message', async () => {
    const failures: string[] = []
    for (const url of collections) {
      for (const [label, body] of bodies) {
        const r = await c.api('POST', url, body)
        const ok = r.status >= 400 && r.status < 500 && typeof r.body === 'object' && r.body !== null
        // empty bodies are valid on a few endpoints (reset_password answers 200 always; query_options takes {})
        if (
          !ok &&
          !(
            r.status < 300 &&
            ['empty', 'array settings', 'null settings', 'unicode name', 'number for name'].includes(label)
          )
        )
          failures.push(`${url} ${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
        if (r.status >= 500) failures.push(`${url} ${label}: ${r.status}`)
      }
    }
    expect(failures).toEqual([])
  })

  it('PUT and PATCH wrong types on items, and bad ids in paths: 4xx with JSON, never 500', async () => {
    const failures: string[] = []
    const o = `/config/v1/orgs/${org}`
    const p = await c.api('POST', `${o}/projects/`, { name: 'fuzz_items' })
    const t = await c.api('POST', `${o}/projects/${p.body.uuid}/tables/`, { name: 'fuzz_items_t' })
    const pool = await c.api('POST', '/config/v1/pools/', {
      name: 'fuzz-pool',
      settings: { k8s_deployment: { service: 'query-peer' } },
    })
    const role = await c.api('POST', '/config/v1/roles/', { name: 'fuzz_role', policies: [] })
    const targets = [
      `${o}/projects/${p.body.uuid}`,
      `${o}/projects/${p.body.uuid}/tables/${t.body.uuid}`,
      `/config/v1/pools/${pool.body.uuid}`,
      `/config/v1/roles/${role.body.id}`,
      `${o}/query_options/`,
    ]
    for (const url of targets) {
      for (const method of ['PUT', 'PATCH']) {
        for (const [label, body] of bodies) {
          const r = await c.api(method, url, body)
          if (r.status >= 500) failures.push(`${method} ${url} ${label}: ${r.status}`)
          if (r.status >= 400 && (typeof r.body !== 'object' || r.body === null))
            failures.push(`${method} ${url} ${label}: not JSON`)
        }
      }
    }
    for (const url of items) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'POST']) {
        const r = await c.api(method, url, ['GET', 'DELETE'].includes(method) ? undefined : { name: 'x' })
        if (r.status >= 500 || r.status < 400) failures.push(`${method} ${url}: ${r.status}`)
        else if (typeof r.body !== 'object' || r.body === null) failures.push(`${method} ${url}: not JSON (${r.body})`)
      }
    }
    // malformed JSON
    const broken = await c.api('POST', `${o}/projects/`, '{"name": ', undefined, { 'content-type': 'application/json' })
    expect(broken.status).toBe(400)
    expect(broken.body.detail).toMatch(/JSON parse error/)
    expect(failures).toEqual([])
  })
})

describe('never a 500: every item kind, odd requests, the data endpoints', () => {
  it('PUT/PATCH wrong types on one item of every kind', async () => {
    const o = `/config/v1/orgs/${org}`
    const mk = async (url: string, body: unknown) => {
      const r = await c.api('POST', url, body)
      expect(r.status, `${url} ${JSON.stringify(r.body)}`).toBe(201)
      return r.body
    }
    /** The made object's URL: `url` and its id. */
    const made = async (url: string, body: unknown, id = 'uuid') => `${url}${(await mk(url, body))[id]}`
    const p = await mk(`${o}/projects/`, { name: 'fz_all' })
    const t = await mk(`${o}/projects/${p.uuid}/tables/`, { name: 'fz_t' })
    const pt = `${o}/projects/${p.uuid}/tables/${t.uuid}`
    const cols = [
      { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
      { name: 'v', datatype: { type: 'string' } },
    ]
    const tr = await mk(`${pt}/transforms/`, { name: 'fz_tr', type: 'json', settings: { output_columns: cols } })
    const form = new FormData()
    form.append('name', 'fz.csv')
    form.append('file', new Blob(['k,v\n1,a\n']), 'fz.csv')
    expect((await c.api('POST', `${o}/projects/${p.uuid}/dictionaries/files/`, form)).status).toBe(201)
    const items = [
      `${o}/projects/${p.uuid}/tables/${t.uuid}/transforms/${tr.uuid}`,
      `${pt}/views/${(await mk(`${pt}/views/`, { name: 'fz_v', settings: { output_columns: cols } })).uuid}`,
      `${pt}/columns/${(await mk(`${pt}/columns/`, { name: 'fz_c', expression: 'length(v)' })).uuid}`,
      `${pt}/rowpolicies/${(await mk(`${pt}/rowpolicies/`, { name: 'fz_rp', filter: '1' })).uuid}`,
      await made(`${pt}/sources/kafka/`, {
        name: 'fz_k',
        transform: 'fz_tr',
        settings: { bootstrap_servers: ['h:9092'], topics: ['t'] },
      }),
      `${o}/projects/${p.uuid}/functions/${(await mk(`${o}/projects/${p.uuid}/functions/`, { name: 'fz_fn', sql: '(x) -> x' })).uuid}`,
      `${o}/projects/${p.uuid}/dictionaries/${
        (
          await mk(`${o}/projects/${p.uuid}/dictionaries/`, {
            name: 'fz_d',
            settings: {
              filename: 'fz.csv',
              format: 'CSVWithNames',
              layout: 'complex_key_hashed',
              lifetime_seconds: 60,
              primary_key: ['k'],
              output_columns: [
                { name: 'k', datatype: { type: 'string' } },
                { name: 'v', datatype: { type: 'string' } },
              ],
            },
          })
        ).uuid
      }`,
      `${o}/storages/${(await mk(`${o}/storages/`, { name: 'fz-s', settings: { bucket_name: 'b', region: 'r', cloud: 'aws' } })).uuid}`,
      await made(`${o}/credentials/`, {
        name: 'fz_cred',
        type: 'aws_access_keys',
        details: { access_key_id: 'a', secret_access_key: 's' },
      }),
      await made('/config/v1/users/', { email: 'fz@example.com', password: 'a-long-password-1', roles: ['reader'] }),
      `/config/v1/service_accounts/${(await mk('/config/v1/service_accounts/', { name: 'fz_sa' })).uuid}`,
      `/config/v1/invites/${(await mk('/config/v1/invites/', { email: 'fz-invite@example.com', roles: ['reader'] })).id}`,
      await made(`${o}/jobs/batch/`, {
        name: 'fz_job',
        type: 'batch_import',
        settings: { source: { table: 'fz_all.fz_t', settings: { url: 's3://nowhere/x/' } } },
      }),
      `${o}/query_options/`,
      '/config/v1/change_password',
    ]
    const bodies: unknown[] = [
      [1, 2],
      'text',
      {
        name: null,
        settings: null,
        description: 5,
        type: ['x'],
        roles: 'reader',
        email: 7,
        details: [],
        expression: {},
        filter: null,
        transform: 9,
        sql: [],
        policies: 'all',
      },
      {
        settings: {
          output_columns: [{}],
          k8s_deployment: 'x',
          source: [],
          summary: 1,
          stream: { token_list: 'x' },
          default_query_options: { hdx_query_max_result_bytes: 'x' },
        },
      },
      { name: 'Ω'.repeat(5000) },
      { current_password: 1, new_password: null, confirm_password: [] },
    ]
    const failures: string[] = []
    for (const url of items) {
      for (const method of ['PUT', 'PATCH']) {
        for (const body of bodies) {
          const r = await c.api(method, url, body)
          if (r.status >= 500 || (r.status >= 400 && (typeof r.body !== 'object' || r.body === null)))
            failures.push(
              `${method} ${url} ${JSON.stringify(body).slice(0, 60)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`,
            )
        }
      }
    }
    expect(failures).toEqual([])
  })

  it('odd requests: content types, paging, auth headers, bodies on GET', async () => {
    const o = `/config/v1/orgs/${org}`
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }, want?: number) => {
      if (
        r.status >= 500 ||
        (want !== undefined && r.status !== want) ||
        (r.status >= 400 && (typeof r.body !== 'object' || r.body === null))
      )
        failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    for (const q of [
      'page=abc',
      'page=0',
      'page=-1',
      'page=99999999999999999999',
      'page_size=-5',
      'page_size=abc',
      'page_size=100000',
      'name=%00',
      'page=1.5',
    ]) {
      check(`list ?${q}`, await c.api('GET', `${o}/projects/?${q}`))
    }
    const form = new FormData()
    form.append('name', 'from-form')
    check('multipart to a JSON endpoint', await c.api('POST', `${o}/projects/`, form), 400)
    check(
      'xml body',
      await c.api('POST', `${o}/projects/`, '<project><name>x</name></project>', undefined, {
        'content-type': 'application/xml',
      }),
      400,
    )
    check(
      'BOM json',
      await c.api('POST', `${o}/projects/`, '\uFEFF{"name":"bom_project"}', undefined, {
        'content-type': 'application/json',
      }),
    )
    check(
      'deeply nested json',
      await c.api(
        'POST',
        `${o}/projects/`,
        `{"name":"deep","settings":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
        undefined,
        { 'content-type': 'application/json' },
      ),
    )
    check(
      'bytes',
      await c.api('POST', `${o}/projects/`, new Uint8Array([0xff, 0xfe, 0x00, 0x01]), undefined, {
        'content-type': 'application/json',
      }),
      400,
    )
    for (const auth of [
      'Bearer',
      'Bearer ',
      'Bearer a.b.c',
      'Bearer !!!.@@@.###',
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
      `Basic ${Buffer.from(':').toString('base64')}`,
      'Token x',
      'Bearer ' + 'x'.repeat(20000),
    ]) {
      const r = await c.api('GET', `${o}/projects/`, undefined, null, { authorization: auth })
      check(`auth "${auth.slice(0, 30)}"`, r, 401)
    }
    // a JSON body on a GET is ignored (auth_logs reads filters from it)
    const withBody = await c.handler(
      new Request(`http://local-cluster/config/v1/auth_logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
        body: '{"event_types": 5, "limit": "x", "from_date": "not a date"}',
      }),
    )
    check('auth_logs odd filters', { status: withBody.status, body: await withBody.json() })
    expect(failures).toEqual([])
  })

  it('the data endpoints answer bad input with 4xx and a message', async () => {
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }) => {
      if (r.status >= 500 || r.status < 400 || typeof r.body !== 'object' || r.body === null)
        failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    const q = (sql: string, path = '/query', headers: Record<string, string> = {}) =>
      c.api('POST', path, sql, undefined, headers)
    check('bad output format', await q('SELECT 1', '/query?hdx_query_output_format=NoSuchFormat'))
    check('bad default_format', await q('SELECT 1', '/query?default_format=NoSuchFormat'))
    check('bad setting value', await q('SELECT 1', '/query?hdx_query_max_result_rows=abc'))
    check('unknown setting', await q('SELECT 1', '/query?no_such_setting=1'))
    check('garbage settings header', await q('SELECT 1', '/query', { 'x-hdx-query-settings': '=== ==x max_threads=' }))
    check('syntax error', await q('SELEC 1'))
    check('unknown table', await q('SELECT * FROM nope.nope'))
    check('param without value type', await q('SELECT {x:Nope}', '/query?param_x=1'))
    check('alter on a missing table', await q('ALTER TABLE nope.nope DELETE WHERE 1'))
    check('alter without where', await q('ALTER TABLE q.events DELETE'))
    check('insert', await q('INSERT INTO q.events VALUES (now(), 1)'))
    check('two statements', await q('SELECT 1; SELECT 2'))
    check('table function', await q("SELECT * FROM file('/etc/passwd')"))
    check('null byte', await q('SELECT 1\u0000'))
    const ingest = (body: string, headers: Record<string, string>) =>
      c.api('POST', '/ingest/event', body, undefined, headers)
    check('ingest no table', await ingest('{}', { 'content-type': 'application/json' }))
    check('ingest a.b.c', await ingest('{}', { 'x-hdx-table': 'a.b.c', 'content-type': 'application/json' }))
    check(
      'ingest unknown transform',
      await ingest('{}', { 'x-hdx-table': 'q.events', 'x-hdx-transform': 'nope', 'content-type': 'application/json' }),
    )
    check(
      'ingest broken json',
      await ingest('{"ts":', { 'x-hdx-table': 'q.events', 'content-type': 'application/json' }),
    )
    check(
      'ingest wrong types',
      await ingest('{"ts": [1], "n": {"a": 1}}', { 'x-hdx-table': 'q.events', 'content-type': 'application/json' }),
    )
    check(
      'ingest bad gzip',
      await ingest('not gzip', {
        'x-hdx-table': 'q.events',
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      }),
    )
    check('validator nonsense', await c.api('POST', '/validator', { transform: 'x', data: 5 }))
    check(
      'validator bad columns',
      await c.api('POST', '/validator', { transform: { type: 'json', settings: { output_columns: 'x' } }, data: [{}] }),
    )
    check('prometheus garbage', await c.api('GET', '/prometheus/api/v1/query_range?query=)))&start=x&end=y&step=-1'))
    check(
      'prometheus huge range',
      await c.api('GET', `/prometheus/api/v1/query_range?query=up&start=0&end=${1e12}&step=0.001`),
    )
    check('catalog unknown', await c.api('GET', `/config/v1/orgs/${org}/catalog/download/?project=nope&table=nope`))
    check(
      'batch job bad source',
      await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, { name: 'bad', settings: { source: 'x' } }),
    )
    check(
      'batch job unknown table',
      await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, {
        name: 'bad2',
        settings: { source: { table: 'no.pe', settings: { url: '/tmp' } } },
      }),
    )
    check('fault with a broken regular expression', await c.api('POST', '/__faults', { path: '(' }))
    expect((await c.api('GET', '/version')).status).toBe(200)
    check(
      'batch job relative path',
      await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, {
        name: 'bad3',
        settings: { source: { table: 'q.events', settings: { url: 12 } } },
      }),
    )
    expect(failures).toEqual([])
  })
})

describe('never a 500: actions and accounts', () => {
  it('answers bad action bodies with 4xx and a JSON message', async () => {
    const o = `/config/v1/orgs/${org}`
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }) => {
      if (r.status >= 500 || r.status < 400 || typeof r.body !== 'object' || r.body === null)
        failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    const anon = apiFor(c.handler)
    check('login number', await anon('POST', '/config/v1/login', { username: 5, password: [] }))
    check('login empty', await anon('POST', '/config/v1/login', {}))
    check('login array', await anon('POST', '/config/v1/login', [1]))
    check(
      'reset confirm garbage',
      await anon('POST', '/config/v1/password_reset_confirm/', {
        uuidb64: '%%%',
        token: 5,
        password: 'a-long-password-1',
        password_confirm: 'a-long-password-1',
      }),
    )
    check(
      'reset confirm objects',
      await anon('POST', '/config/v1/password_reset_confirm/', { uuidb64: {}, token: [], password: null }),
    )
    check('reset email object', await anon('POST', '/config/v1/reset_password', { email: { a: 1 } }))
    check(
      'change password types',
      await c.api('PUT', '/config/v1/change_password', {
        current_password: 5,
        new_password: {},
        confirm_password: null,
      }),
    )
    const sa = (await c.api('POST', '/config/v1/service_accounts/', { name: 'fz_actions_sa' })).body
    for (const expiry of ['yesterday', '2000-01-01T00:00:00Z', 12, { a: 1 }, ''])
      check(
        `token expiry ${JSON.stringify(expiry)}`,
        await c.api('POST', `/config/v1/service_accounts/${sa.uuid}/tokens/`, { expiry }),
      )
    check(
      'token for a missing account',
      await c.api('POST', '/config/v1/service_accounts/00000000-0000-0000-0000-000000000000/tokens/', {}),
    )
    for (const roles of ['reader', [5], [{}], ['no-such-role'], null])
      check(
        `add_roles ${JSON.stringify(roles)}`,
        await c.api('POST', `/config/v1/users/${sa.uuid}/add_roles/`, { roles }),
      )
    const role = (await c.api('POST', '/config/v1/roles/', { name: 'fz_actions_role', policies: [] })).body
    for (const users of ['x', [5], [{ uuid: 'nope' }], [{}], null])
      check(
        `add_user ${JSON.stringify(users)}`,
        await c.api('POST', `/config/v1/roles/${role.id}/add_user/`, { users }),
      )
    for (const policies of [
      'x',
      [5],
      [{ permissions: 'view_table' }],
      [{ permissions: ['no_such_perm'] }],
      [{ permissions: ['view_table'], scope_type: 'table', scope_id: 'nope' }],
    ]) {
      check(
        `role policies ${JSON.stringify(policies)}`,
        await c.api('PUT', `/config/v1/roles/${role.id}/`, { name: 'fz_actions_role', policies }),
      )
    }
    const p = (await c.api('POST', `${o}/projects/`, { name: 'fz_files' })).body
    const files = `${o}/projects/${p.uuid}/dictionaries/files/`
    check('upload as JSON', await c.api('POST', files, { name: 'x.csv', file: 'a,b' }))
    const noFile = new FormData()
    noFile.append('name', 'x.csv')
    check('upload without file', await c.api('POST', files, noFile))
    // (a blank name takes the uploaded file's own name)
    for (const name of ['../../secret.key', 'a/b.csv', '.', '\u0000']) {
      const form = new FormData()
      form.append('name', name)
      form.append('file', new Blob(['a,b\n']), 'x.csv')
      check(`upload name ${JSON.stringify(name)}`, await c.api('POST', files, form))
    }
    check('download missing', await c.api('GET', `${files}nope.csv`))
    check(
      'commit missing alter job',
      await c.api('POST', `${o}/jobs/alter/00000000-0000-0000-0000-000000000000/commit`),
    )
    const ready = await c.api('POST', `${o}/jobs/batch/`, {
      name: 'fz_ready',
      settings: { source: { table: 'fz_files.nope', settings: { url: '/tmp/none' } } },
    })
    check('retry a ready batch job', await c.api('POST', `${o}/jobs/batch/${ready.body?.uuid ?? 'x'}/retry`))
    expect(failures).toEqual([])
  })
})

describe('an unauthenticated client', () => {
  it('gets 401 {"detail"} everywhere, JSON that the HA integration can resp.json()', async () => {
    const anon = apiFor(c.handler)
    for (const url of [`/config/v1/orgs/${org}/projects/`, '/config/v1/users/current', '/config/v1/orgs/']) {
      const r = await anon('GET', url)
      expect(r.status).toBe(401)
      expect(typeof r.body.detail).toBe('string')
    }
  })
})
