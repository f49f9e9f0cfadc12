import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from '../test-helpers'

/**
 * Contract tests against a cluster that answers as v5.3 did (lists as bare JSON arrays): the clients
 * written for those clusters iterate the answer directly. hdxcli 1.0-rc63
 * (cli_interface/common/undecorated_click_commands.py: `for resource in rest_ops.list(url)`), and the
 * Home Assistant integration's `_unwrap_list` (custom_components/hydrolix_history/config_api.py),
 * which takes a page, a bare list or a single object.
 */

let c: TestCluster
let org: string

const headers = () => ({ Authorization: `Bearer ${c.token}`, Accept: 'application/json' })

async function raw(method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers(), ...extra } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    if (typeof body !== 'string') (init.headers as Record<string, string>)['Content-Type'] = 'application/json'
  }
  const response = await c.handler(new Request(`http://local-cluster${path}`, init))
  const text = await response.text()
  return {
    status: response.status,
    body: (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text,
  }
}

const unwrapList = (body: any): any[] =>
  Array.isArray(body) ? body : body && typeof body === 'object' && 'results' in body ? body.results : [body]

beforeAll(async () => {
  c = await startTestCluster({ version: 'v5.3.2' })
  org = c.orgId
})

afterAll(async () => {
  await c?.close()
})

describe('a v5.3 cluster (bare arrays)', () => {
  it('answers /version as v5.3 and login as always (library_api/common/login.py)', async () => {
    const v = await raw('GET', '/version')
    expect(v.body).toBe('v5.3.2')
    const login = await c.handler(
      new Request('http://local-cluster/config/v1/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
      }),
    )
    expect((await login.json()).orgs[0].uuid).toBe(org)
  })

  it('hdxcli rc63: every list is an array it can iterate, filtering by name and following uuid', async () => {
    const projects = `/config/v1/orgs/${org}/projects/`
    expect((await raw('POST', projects, { name: 'old', description: 'Created with hdxcli tool' })).status).toBe(201)
    const list = await raw('GET', projects)
    expect(Array.isArray(list.body)).toBe(true)
    const project = list.body.find((p: any) => p.name === 'old')
    const tables = `${projects}${project.uuid}/tables/`
    expect((await raw('POST', tables, { name: 't', description: 'Created with hdxcli tool' })).status).toBe(201)
    const tlist = await raw('GET', tables.replace(/\/$/, ''))
    expect(Array.isArray(tlist.body)).toBe(true)
    const table = tlist.body.find((t: any) => t.name === 't')
    const tr = await raw('POST', `${tables}${table.uuid}/transforms/`, {
      name: 'j',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'v', datatype: { type: 'string' } },
        ],
      },
    })
    expect(tr.status).toBe(201)
    const transforms = await raw('GET', `${tables}${table.uuid}/transforms/`)
    expect(Array.isArray(transforms.body)).toBe(true)
    // basic_list: "name (default)" for settings.is_default
    expect(transforms.body.filter((t: any) => t.settings.is_default).map((t: any) => t.name)).toEqual(['j'])
    for (const path of [
      '/config/v1/pools/',
      '/config/v1/users/',
      '/config/v1/roles/',
      `/config/v1/orgs/${org}/storages/`,
      `/config/v1/orgs/${org}/jobs/batch/`,
      `${projects}${project.uuid}/dictionaries/files/`,
    ]) {
      const r = await raw('GET', path)
      expect(Array.isArray(r.body), path).toBe(true)
    }
    // delete through the url of the array item
    const del = await raw('DELETE', new URL(table.url).pathname)
    expect(del.status).toBe(204)
  })

  it('the alter job list stays a page on v5.3, as hdxcli reads .get("results") (job/alter/commands.py)', async () => {
    const projects = `/config/v1/orgs/${org}/projects/`
    const p = (await raw('POST', projects, { name: 'alt' })).body
    const t = (await raw('POST', `${projects}${p.uuid}/tables/`, { name: 'x' })).body
    await raw('POST', `${projects}${p.uuid}/tables/${t.uuid}/transforms/`, {
      name: 'j',
      type: 'json',
      settings: {
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'v', datatype: { type: 'string' } },
        ],
      },
    })
    const q = await raw('POST', '/query', "ALTER TABLE alt.x DELETE WHERE v = 'gone'")
    expect(q.status).toBe(200)
    const list = await raw('GET', `/config/v1/orgs/${org}/jobs/alter/`)
    expect(Array.isArray(list.body.results)).toBe(true)
    expect(list.body.results.length).toBeGreaterThan(0)
  })

  it('hydrolix_helpers dump: login, storages, projects, functions, tables, transforms deserialize into its serde structs', async () => {
    // A tiny serde: 'str' | 'bool' | 'int' | 'value' (present, any) | '?x' (Option: absent or null ok) | [x] (Vec) | {..} (struct)
    type Shape = string | Shape[] | { [k: string]: Shape }
    const problems: string[] = []
    const check = (v: unknown, s: Shape, at: string) => {
      if (typeof s === 'string' && s.startsWith('?')) {
        if (v === null || v === undefined) return
        return check(v, s.slice(1), at)
      }
      if (v === undefined) return void problems.push(`${at}: missing`)
      if (s === 'value') return
      if (s === 'str')
        return void (typeof v !== 'string' && problems.push(`${at}: ${JSON.stringify(v)} is not a string`))
      if (s === 'bool')
        return void (typeof v !== 'boolean' && problems.push(`${at}: ${JSON.stringify(v)} is not a bool`))
      if (s === 'int')
        return void (!Number.isInteger(v) && problems.push(`${at}: ${JSON.stringify(v)} is not an integer`))
      if (Array.isArray(s)) {
        if (!Array.isArray(v)) return void problems.push(`${at}: not an array`)
        return v.forEach((x, i) => check(x, s[0], `${at}[${i}]`))
      }
      if (typeof s === 'object') {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return void problems.push(`${at}: not an object`)
        for (const [k, sub] of Object.entries(s)) check((v as Record<string, unknown>)[k], sub, `${at}.${k}`)
      }
    }
    const ORG = { uuid: 'str', name: 'str', cloud: 'str' }
    const LOGIN = {
      auth_token: { access_token: 'str', expires_in: '?int', token_type: '?str' },
      orgs: [ORG],
      roles: ['str'],
      email: 'str',
      emailVerified: 'bool',
    }
    const STORAGE = {
      name: 'str',
      org: 'str',
      description: 'str',
      uuid: 'str',
      url: 'str',
      created: 'str',
      modified: 'str',
      publish_task_id: '?str',
      settings: {
        bucket_name: 'str',
        bucket_path: 'str',
        region: 'str',
        endpoint: '?str',
        cloud: 'str',
        credential_id: '?str',
        account_name: '?str',
        is_default: 'bool',
      },
    }
    const PROJECT = {
      name: 'str',
      org: 'str',
      description: '?str',
      uuid: 'str',
      url: 'str',
      created: 'str',
      modified: 'str',
      settings: { default_query_options: 'value', blob: '?value', rate_limit: '?value' },
    }
    const FUNCTION = {
      name: 'str',
      project: 'str',
      description: 'str',
      sql: '?str',
      uuid: 'str',
      url: 'str',
      created: 'str',
      modified: 'str',
    }
    const STREAM = Object.fromEntries(
      [
        'hot_data_max_age_minutes',
        'hot_data_max_active_partitions',
        'hot_data_max_rows_per_partition',
        'hot_data_max_minutes_per_partition',
        'hot_data_max_open_seconds',
        'hot_data_max_idle_seconds',
        'cold_data_max_age_days',
        'cold_data_max_active_partitions',
        'cold_data_max_rows_per_partition',
        'cold_data_max_minutes_per_partition',
        'cold_data_max_open_seconds',
        'cold_data_max_idle_seconds',
        'message_queue_max_rows',
      ].map((k) => [k, 'int']),
    )
    const AUTOINGEST = {
      enabled: 'bool',
      source: 'str',
      source_region: 'str',
      pattern: 'str',
      max_rows_per_partition: 'int',
      max_minutes_per_partition: 'int',
      max_active_partitions: 'int',
      dry_run: 'bool',
      source_credential_id: '?value',
      bucket_credential_id: '?value',
    }
    const TABLE = {
      project: 'str',
      name: 'str',
      description: '?str',
      uuid: 'str',
      created: 'str',
      modified: 'str',
      url: 'str',
      primary_key: 'str',
      settings: {
        default_query_options: 'value',
        rate_limit: '?value',
        stream: { token_list: ['value'], ...STREAM },
        age: { max_age_days: 'int' },
        reaper: { max_age_days: 'int' },
        merge: { enabled: 'bool' },
        autoingest: [AUTOINGEST],
        sort_keys: ['value'],
        shard_key: '?value',
        max_future_days: 'int',
        max_request_bytes: 'int',
      },
    }
    const STRATEGY = { left: '?str', right: '?str' }
    const TRANSFORM = {
      name: 'str',
      description: '?str',
      uuid: 'str',
      created: 'str',
      modified: 'str',
      url: 'str',
      type: 'str',
      table: 'str',
      settings: {
        is_default: 'bool',
        rate_limit: '?value',
        sql_transform: '?str',
        null_values: ['str'],
        sample_data: '?value',
        compression: '?str',
        wurfl: '?value',
        format_details: { flattening: '?' as Shape },
        output_columns: [
          {
            name: 'str',
            datatype: {
              type: 'str',
              index: 'bool',
              primary: '?bool',
              format: '?str',
              resolution: '?str',
              default: '?value',
              script: '?value',
              source: '?value',
              suppress: '?bool',
            },
          },
        ],
      },
    }
    ;(TRANSFORM.settings.format_details as Record<string, Shape>).flattening = {
      depth: '?int',
      active: 'bool',
      map_flattening_strategy: '?' as Shape,
      slice_flattening_strategy: '?' as Shape,
    }
    // Option<struct>: absent/null or the struct
    const flattening = (TRANSFORM.settings.format_details as Record<string, Record<string, Shape>>).flattening
    flattening.map_flattening_strategy = STRATEGY
    flattening.slice_flattening_strategy = STRATEGY

    const login = await c.handler(
      new Request('http://local-cluster/config/v1/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
      }),
    )
    check(await login.json(), LOGIN, 'login')

    // what a user creates with the fewest fields, then read back as dump() reads it
    const o = `/config/v1/orgs/${org}`
    expect(
      (
        await raw('POST', `${o}/storages/`, {
          name: 'helpers-bucket',
          settings: { bucket_name: 'b', region: 'us-east-1', cloud: 'aws' },
        })
      ).status,
    ).toBe(201)
    const p = (await raw('POST', `${o}/projects/`, { name: 'helpers' })).body
    expect(
      (await raw('POST', `${o}/projects/${p.uuid}/functions/`, { name: 'helpers_fn', sql: '(x) -> x' })).status,
    ).toBe(201)
    const t = (await raw('POST', `${o}/projects/${p.uuid}/tables/`, { name: 'helpers_t' })).body
    expect(
      (
        await raw('POST', `${o}/projects/${p.uuid}/tables/${t.uuid}/transforms/`, {
          name: 'helpers_tr',
          type: 'json',
          settings: {
            output_columns: [
              { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
              { name: 'v', datatype: { type: 'string' } },
            ],
          },
        })
      ).status,
    ).toBe(201)
    // and a table whose autoingest entry gives only what is needed
    expect(
      (
        await raw('POST', `${o}/projects/${p.uuid}/tables/`, {
          name: 'helpers_ai',
          settings: { autoingest: [{ enabled: true, source: 's3://b/p/' }] },
        })
      ).status,
    ).toBe(201)

    // get_paginated(url + "?page=1"): a bare array on these clusters
    for (const s of (await raw('GET', `${o}/storages?page=1`)).body) check(s, STORAGE, `storage ${s.name}`)
    const projects = (await raw('GET', `${o}/projects?page=1`)).body
    for (const project of projects) {
      check(project, PROJECT, `project ${project.name}`)
      for (const f of (await raw('GET', `${o}/projects/${project.uuid}/functions?page=1`)).body)
        check(f, FUNCTION, `function ${f.name}`)
      for (const table of (await raw('GET', `${o}/projects/${project.uuid}/tables?page=1`)).body) {
        check(table, TABLE, `table ${table.name}`)
        for (const tr of (await raw('GET', `${o}/projects/${project.uuid}/tables/${table.uuid}/transforms/?page=1`))
          .body)
          check(tr, TRANSFORM, `transform ${tr.name}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('the Home Assistant integration unwraps bare lists and single objects alike (_unwrap_list, _unwrap_single)', async () => {
    const orgs = await raw('GET', '/config/v1/orgs/')
    expect(unwrapList(orgs.body)[0].uuid).toBe(org)
    const created = await raw('POST', `/config/v1/orgs/${org}/projects/`, {
      name: 'ha',
      description: 'Home Assistant history data',
    })
    // _unwrap_single: a bare object is taken as is
    expect(created.body.uuid).toBeTruthy()
    const projects = unwrapList((await raw('GET', `/config/v1/orgs/${org}/projects/`)).body)
    expect(projects.some((p) => p.name === 'ha')).toBe(true)
  })
})
