import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiFor, startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from './test-helpers'

/**
 * Contract tests: the call sequences of real clients of the cluster API, replayed as black-box HTTP
 * requests through the handler, asserting only what those clients read (fields, statuses). Each
 * block names the client file it replays. Sources (GitHub): hydrolix/hdxcli, hydrolix/mcp-hydrolix,
 * hydrolix/grafana-datasource-plugin, dsztykman/hydrolix_home_assistant.
 */

let c: TestCluster
let org: string
let tmp: string

/** What python `requests` sends for `requests.<verb>(url, headers=..., json=body)`. */
const HDX_HEADERS = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: 'application/json' })

/** Raw request (no helper defaults): exact headers and body as the client sends them. */
async function raw(method: string, url: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
  const response = await c.handler(new Request(url.startsWith('http') ? url : `http://local-cluster${url}`, { method, headers: init.headers, body: init.body }))
  const text = await response.text()
  const type = response.headers.get('content-type') ?? ''
  let body: any = text
  if (type.includes('json') && text) body = JSON.parse(text)
  return { status: response.status, body, headers: response.headers, text }
}

/** requests.post(url, json=body): content-type application/json, or no body at all for json=None. */
const hdx = (token: string) => ({
  get: (url: string) => raw('GET', url, { headers: HDX_HEADERS(token) }),
  options: (url: string) => raw('OPTIONS', url, { headers: HDX_HEADERS(token) }),
  delete: (url: string) => raw('DELETE', url, { headers: HDX_HEADERS(token) }),
  post: (url: string, json?: unknown) =>
    raw('POST', url, json === undefined ? { headers: HDX_HEADERS(token) } : { headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' }, body: JSON.stringify(json) }),
  put: (url: string, json: unknown) => raw('PUT', url, { headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' }, body: JSON.stringify(json) }),
  patch: (url: string, json: unknown) => raw('PATCH', url, { headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' }, body: JSON.stringify(json) }),
})

/** hdxcli and the HA integration accept a paginated page or a bare array. */
const unwrapList = (body: any): any[] => (Array.isArray(body) ? body : body && typeof body === 'object' && 'results' in body ? body.results : [body])

const poll = async <T,>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

// hdxcli tests_data/transforms/csv_transform.json (note `"resolution": "seconds"`)
const HDXCLI_CSV_TRANSFORM = {
  type: 'csv',
  settings: {
    is_default: false,
    format_details: { delimiter: ',', skip_head: 1, buffer_size: 4096 },
    output_columns: [
      { name: '_timestamp', datatype: { primary: true, type: 'datetime', format: '02/01/2006 15:04', resolution: 'seconds', source: { from_input_index: 0 } } },
      { name: '_float', datatype: { type: 'double', source: { from_input_index: 1 } } },
      { name: '_ip4', datatype: { type: 'string', source: { from_input_index: 2 } } },
      { name: '_key', datatype: { type: 'string', source: { from_input_index: 3 } } },
      { name: '_numeric', datatype: { type: 'uint64', source: { from_input_index: 4 } } },
      { name: '_string', datatype: { type: 'string', source: { from_input_index: 5 } } },
      { name: '_uint64', datatype: { type: 'uint64', source: { from_input_index: 6 } } },
    ],
  },
}

beforeAll(async () => {
  c = await startTestCluster()
  org = c.orgId
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'))
})

afterAll(async () => {
  await c?.close()
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

describe('hdxcli', () => {
  let token: string
  let api: ReturnType<typeof hdx>
  let projectsPath: string
  let project: any
  let tablesPath: string
  let table: any

  it('logs in and takes orgs[0].uuid (library_api/common/login.py)', async () => {
    // requests.post(url, json={"username", "password"}, headers={"Accept": "application/json"}); no trailing slash
    const r = await raw('POST', '/config/v1/login', {
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
    })
    expect(r.status).toBe(200)
    expect(typeof r.body.auth_token.access_token).toBe('string')
    expect(r.body.auth_token.expires_in).toBeGreaterThan(0)
    expect(r.body.auth_token.token_type).toBe('Bearer')
    expect(r.body.orgs[0].uuid).toBe(org)
    token = r.body.auth_token.access_token
    api = hdx(token)
    // a failed login: 401 and json.loads(content)["detail"]
    const bad = await raw('POST', '/config/v1/login/', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: 'wrong' }) })
    expect(bad.status).toBe(401)
    expect(typeof bad.body.detail).toBe('string')
  })

  it('creates a project and a table with the basic_create body (cli_interface/common/undecorated_click_commands.py)', async () => {
    projectsPath = `/config/v1/orgs/${org}/projects/`
    const created = await api.post(projectsPath, { name: 'hdx_project', description: 'Created with hdxcli tool' })
    expect([200, 201]).toContain(created.status)
    // table group: rest_ops.list(projects/) then [p['uuid'] for p in projects_list if p['name'] == name]
    const list = await api.get(projectsPath)
    expect(list.status).toBe(200)
    project = unwrapList(list.body).find((p) => p.name === 'hdx_project')
    expect(project.uuid).toMatch(/^[0-9a-f-]{36}$/)
    tablesPath = `/config/v1/orgs/${org}/projects/${project.uuid}/tables/`
    const t = await api.post(tablesPath, { name: 'hdx_table', description: 'Created with hdxcli tool' })
    expect([200, 201]).toContain(t.status)
    // find_tables lists without the trailing slash (cli_interface/common/cached_operations.py)
    const tables = await api.get(tablesPath.replace(/\/$/, ''))
    table = unwrapList(tables.body).find((x) => x.name === 'hdx_table')
    expect(table.type).toBe('turbine')
    expect(table.url).toBe(`http://local-cluster${tablesPath}${table.uuid}`)
  })

  it('creates a transform from tests_data/transforms/csv_transform.json (transform/commands.py, body from string)', async () => {
    // basic_create_with_body_from_string: json.loads(file), body['name'] = name, POST with Content-Type json
    const r = await api.post(`${tablesPath}${table.uuid}/transforms/`, { ...HDXCLI_CSV_TRANSFORM, name: 'hdx_csv' })
    expect([200, 201], JSON.stringify(r.body)).toContain(r.status)
    // list: "name (default)" when settings.is_default; the table's first transform is its default
    const list = await api.get(`${tablesPath}${table.uuid}/transforms`)
    const t = unwrapList(list.body).find((x) => x.name === 'hdx_csv')
    expect(t.settings.output_columns[0].datatype.resolution).toBe('seconds')
    expect(typeof t.settings.is_default).toBe('boolean')
  })

  it('settings: OPTIONS actions.POST walk, then PUT of the whole fetched table, PATCH as fallback (basic_settings)', async () => {
    const opts = await api.options(tablesPath)
    expect(opts.status).toBe(200)
    const walk = (fields: Record<string, any>) => {
      for (const [, v] of Object.entries(fields)) {
        // _do_for_each_setting reads setting_val["read_only"], ["type"], and ["children"] of nested objects
        expect(typeof v.read_only).toBe('boolean')
        expect(typeof v.type).toBe('string')
        if (v.type === 'nested object' && !v.read_only) {
          expect(v.children).toBeTypeOf('object')
          walk(v.children)
        }
      }
    }
    walk(opts.body.actions.POST)
    expect(opts.body.actions.POST.settings.children.merge.children.enabled.type).toBe('boolean')
    // `table settings` (no key) reads every listed setting from the resource; the older
    // _get_dotted_key_from_dict (common/misc_operations.py) catches KeyError only, so a null in the
    // middle of a path (None[key] -> TypeError) would end the command
    const resourceForSettings = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    const crashes: string[] = []
    const read = (fields: Record<string, any>, prefix: string[]) => {
      for (const [name, v] of Object.entries(fields)) {
        if (v.read_only) continue
        const at = [...prefix, name]
        if (v.type === 'nested object') read(v.children, at)
        else {
          let cur: any = resourceForSettings
          for (const key of at) {
            if (cur === null) { crashes.push(at.join('.')); break }
            if (typeof cur !== 'object' || !(key in cur)) break // KeyError: "(Key absent)"
            cur = cur[key]
          }
        }
      }
    }
    read(opts.body.actions.POST, [])
    expect(crashes).toEqual([])

    // `table settings settings.merge.enabled false`: the resource as listed, one key changed, PUT to {list}{uuid}
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    listed.settings.merge.enabled = false
    const put = await api.put(`${tablesPath}${listed.uuid}`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.settings.merge.enabled).toBe(false)
    // `settings description Modified`: PUT again (the description top-level key)
    const again = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    again.description = 'Modified-with-hdxcli-tool'
    expect((await api.put(`${tablesPath}${again.uuid}`, again)).status).toBe(200)
    // the fallback: PATCH {"settings": {"merge": {"enabled": true}}}
    const patch = await api.patch(`${tablesPath}${listed.uuid}`, { settings: { merge: { enabled: true } } })
    expect(patch.status).toBe(200)
    // the older hdxcli (common/misc_operations.py) PATCHes first, with the value as the command-line string
    const stringly = await api.patch(`${tablesPath}${listed.uuid}`, { settings: { merge: { enabled: 'false' }, age: { max_age_days: '30' } } })
    expect(stringly.status, JSON.stringify(stringly.body)).toBe(200)
    expect(stringly.body.settings.merge.enabled).toBe(false)
    expect(stringly.body.settings.age.max_age_days).toBe(30)
    expect((await api.patch(`${tablesPath}${listed.uuid}`, { settings: { merge: { enabled: 'true' }, age: { max_age_days: '0' } } })).status).toBe(200)
    const after = await api.get(`${tablesPath}${listed.uuid}`)
    expect(after.body.settings.merge.enabled).toBe(true)
    expect(after.body.description).toBe('Modified-with-hdxcli-tool')
    // project: PUT of the whole listed project with a new description
    const p = unwrapList((await api.get(projectsPath)).body).find((x) => x.name === 'hdx_project')
    p.description = 'Modified-with-hdxcli-tool'
    expect((await api.put(`${projectsPath}${p.uuid}`, p)).status).toBe(200)
    // transform: PUT of the whole listed transform
    const tr = unwrapList((await api.get(`${tablesPath}${listed.uuid}/transforms/`)).body)[0]
    tr.description = 'changed'
    const trPut = await api.put(`${tablesPath}${listed.uuid}/transforms/${tr.uuid}`, tr)
    expect(trPut.status, JSON.stringify(trPut.body)).toBe(200)
  })

  it('stats, activity and truncate on the url field (basic_stats, basic_activity, table _basic_truncate)', async () => {
    // ingest a row first so truncate has something to do
    const ing = await raw('POST', '/ingest/event', {
      headers: { Authorization: `Bearer ${token}`, 'x-hdx-table': 'hdx_project.hdx_table', 'x-hdx-transform': 'hdx_csv', 'content-type': 'text/csv' },
      body: '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n18/07/2022 15:58,1.5,10.0.0.1,k,7,s,8\n',
    })
    expect(ing.status, JSON.stringify(ing.body)).toBe(200)
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    // url = resource['url'].replace('https://', f'{scheme}://'); url += '/stats'
    const stats = await api.get(`${listed.url.replace('https://', 'http://')}/stats`)
    expect(stats.status).toBe(200)
    expect(stats.body.total_rows).toBe(1)
    const activity = await api.get(`${listed.url}/activity`)
    expect(activity.status).toBe(200)
    expect(JSON.stringify(activity.body)).toContain('hdx_table')
    const projectListed = unwrapList((await api.get(projectsPath)).body).find((x) => x.name === 'hdx_project')
    expect((await api.get(`${projectListed.url}/stats`)).status).toBe(200)
    expect((await api.get(`${projectListed.url}/activity`)).status).toBe(200)
    // requests.post(f'{url}/truncate', headers=headers): no body, no content-type; 200 or 201
    const tr = await api.post(`${listed.url}/truncate`)
    expect([200, 201]).toContain(tr.status)
    const after = await api.get(`${listed.url}/stats`)
    expect(after.body.total_rows).toBe(0)
  })

  it('url follows the scheme and host the client used (X-Forwarded-Proto/Host)', async () => {
    const r = await raw('GET', projectsPath, { headers: { ...HDX_HEADERS(token), 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hdx.example.com' } })
    const p = unwrapList(r.body)[0]
    expect(p.url).toBe(`https://hdx.example.com${projectsPath}${p.uuid}`)
  })

  it('batch job: create from tests_data/batch-jobs, cancel, retry (job/batch/commands.py)', async () => {
    const files = path.join(tmp, 'batch')
    fs.mkdirSync(files)
    fs.writeFileSync(path.join(files, 'a.csv'), '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n18/07/2022 15:58,1.5,10.0.0.1,k,7,s,8\n19/07/2022 10:00,2.5,10.0.0.2,k2,9,t,10\n')
    const jobsPath = `/config/v1/orgs/${org}/jobs/batch/`
    // body = file; body["settings"]["source"]["table"] = "project.table"; ["transform"] = default transform name
    const body = {
      type: 'batch_import',
      settings: { source: { table: 'hdx_project.hdx_table', type: 'batch', subtype: 'aws s3', transform: 'hdx_csv', settings: { url: files } } },
      name: 'hdx_batch',
    }
    // jobs run one at a time: a bigger job first keeps the runner busy, so the cancel below finds
    // hdx_batch still waiting (ready) rather than racing it to the end
    const bulk = path.join(tmp, 'bulk')
    fs.mkdirSync(bulk)
    for (let f = 0; f < 4; f++) {
      const lines = Array.from({ length: 20_000 }, (_, i) => `18/07/2022 ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${i},10.0.0.1,k${i},${i},s,${i}`)
      fs.writeFileSync(path.join(bulk, `part-${f}.csv`), `_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n${lines.join('\n')}\n`)
    }
    const blocker = await api.post(jobsPath, { ...body, name: 'hdx_bulk', settings: { source: { ...body.settings.source, settings: { url: bulk } } } })
    expect([200, 201]).toContain(blocker.status)
    const created = await api.post(jobsPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    // `job batch settings`: OPTIONS actions.POST walked like every resource's (read_only, type, children)
    const opts = await api.options(jobsPath)
    expect(opts.status).toBe(200)
    expect(opts.body.actions.POST.settings.children.source.children.settings.children.url.type).toBe('string')
    for (const v of Object.values<any>(opts.body.actions.POST)) expect(typeof v.read_only).toBe('boolean')
    // cancel: basic_show(list, name) -> uuid; basic_create(f"{path}{uuid}/cancel") posts the default json body
    const job = unwrapList((await api.get(jobsPath)).body).find((j) => j.name === 'hdx_batch')
    const cancel = await api.post(`${jobsPath}${job.uuid}/cancel`, { name: 'None', description: 'Created with hdxcli tool' })
    expect([200, 201], JSON.stringify(cancel.body)).toContain(cancel.status)
    const canceled = await poll(() => api.get(`${jobsPath}${job.uuid}`), (r) => ['canceled', 'done', 'failed'].includes(r.body.status))
    expect(canceled.body.status).toBe('canceled')
    const retry = await api.post(`${jobsPath}${job.uuid}/retry`, { name: 'None', description: 'Created with hdxcli tool' })
    expect([200, 201], JSON.stringify(retry.body)).toContain(retry.status)
    const done = await poll(() => api.get(`${jobsPath}${job.uuid}`), (r) => ['canceled', 'done', 'failed'].includes(r.body.status), 60_000)
    expect(done.body.status, JSON.stringify(done.body)).toBe('done')
    // a cloud URL this machine cannot reach (tests_data url) fails the job with a message, never a 500
    const s3 = await api.post(jobsPath, { ...body, name: 'hdx_batch_s3', settings: { source: { ...body.settings.source, settings: { url: 's3://qe-datasets/every_datatype/json/every_datatype-data.json' } } } })
    expect([200, 201]).toContain(s3.status)
    const failed = await poll(() => api.get(`${jobsPath}${s3.body.uuid}`), (r) => ['canceled', 'done', 'failed'].includes(r.body.status))
    expect(failed.body.status).toBe('failed')
    // purgejobs: rest_ops.create(purgejobs_url) with no body
    const purge = await api.post(`/config/v1/orgs/${org}/purgejobs/`)
    expect([200, 201]).toContain(purge.status)
  })

  it('alter job: raw ALTER TABLE text to /query with no content-type, list .results, commit, verify (job/alter/commands.py)', async () => {
    const ing = await raw('POST', '/ingest/event', {
      headers: { Authorization: `Bearer ${token}`, 'x-hdx-table': 'hdx_project.hdx_table', 'x-hdx-transform': 'hdx_csv', 'content-type': 'text/csv' },
      body: '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n20/07/2022 15:58,1.5,10.0.0.1,alter-me,7,s,8\n',
    })
    expect(ing.status).toBe(200)
    // rest_ops.create(url, body=str, body_type='csv') -> requests.post(url, data=str): no Content-Type header
    const create = await raw('POST', '/query', {
      headers: HDX_HEADERS(token),
      body: "ALTER TABLE hdx_project.hdx_table UPDATE _string = 'changed' WHERE _key = 'alter-me'",
    })
    expect([200, 201], create.text).toContain(create.status)
    const alterPath = `/config/v1/orgs/${org}/jobs/alter/`
    // get_resource_list(...).get('results'): the alter list is always a page
    const list = await api.get(alterPath)
    expect(Array.isArray(list.body.results)).toBe(true)
    const job = list.body.results[0]
    expect(typeof job.name).toBe('string')
    expect(job.settings.project_name).toBe('hdx_project')
    expect(job.settings.table_name).toBe('hdx_table')
    const pending = await poll(() => api.get(`${alterPath}${job.uuid}`), (r) => ['pending', 'failed'].includes(r.body.status))
    expect(pending.body.status).toBe('pending')
    // perform_alter_job: rest_ops.create(f'{path}{uuid}/commit') -> requests.post(url, json=None): no body
    const commit = await api.post(`${alterPath}${job.uuid}/commit`)
    expect([200, 201], JSON.stringify(commit.body)).toContain(commit.status)
    const done = await poll(() => api.get(`${alterPath}${job.uuid}`), (r) => ['done', 'failed'].includes(r.body.status))
    expect(done.body.status).toBe('done')
    // verify_alter: get(f'{path}{uuid}/verify/').get('results')[0]
    const verify = await api.get(`${alterPath}${job.uuid}/verify/`)
    expect(verify.status).toBe(200)
    expect(verify.body.results[0]).toBeTypeOf('object')
    // delete_alter: DELETE {path}{uuid} -> 204
    expect((await api.delete(`${alterPath}${job.uuid}`)).status).toBe(204)
  })

  it('storages: create from tests_data/storages, delete with ?force_operation=true (storage/commands.py)', async () => {
    const storagesPath = `/config/v1/orgs/${org}/storages/`
    const body = { settings: { bucket_path: '/new-bucket-2/', bucket_name: 'hdx-cli-2', region: 'us-sea-9', cloud: 'linode', endpoint: 'https://us-sea-9.linodeobjects.com' }, name: 'hdx_storage' }
    const created = await api.post(storagesPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const listed = unwrapList((await api.get(storagesPath)).body).find((s) => s.name === 'hdx_storage')
    // settings with params: PUT of the whole object with ?force_operation=true
    listed.settings.io_perf_mode = 'relaxed'
    const put = await api.put(`${storagesPath}${listed.uuid}?force_operation=true`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const del = await api.delete(`${listed.url}?force_operation=true`)
    expect(del.status).toBe(204)
  })

  it('pools: create with build_request_body, settings PUT then PATCH (pool/commands.py)', async () => {
    const poolsPath = '/config/v1/pools/'
    const body = { description: 'Created with hdxcli tool', settings: { k8s_deployment: { replicas: '1', cpu: '0.5', memory: '0.5Gi', storage: '0.5Gi', service: 'query-peer' } }, name: 'hdx-pool' }
    const created = await api.post(poolsPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const listed = unwrapList((await api.get(poolsPath)).body).find((p) => p.name === 'hdx-pool')
    listed.settings.k8s_deployment.replicas = '3'
    const put = await api.put(`${poolsPath}${listed.uuid}`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const patch = await api.patch(`${poolsPath}${listed.uuid}`, { settings: { k8s_deployment: { cpu: '2' } } })
    expect(patch.status).toBe(200)
    expect(patch.body.settings.k8s_deployment).toMatchObject({ replicas: '3', cpu: '2', service: 'query-peer' })
    expect((await api.delete(listed.url)).status).toBe(204)
  })

  it('roles: create with exclude_none policies, add_user with [{uuid}] (role/commands.py)', async () => {
    const created = await api.post('/config/v1/roles/', { name: 'hdx_role', policies: [{ permissions: ['change_table'] }] })
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const role = unwrapList((await api.get('/config/v1/roles/')).body).find((r) => r.name === 'hdx_role')
    expect(Number.isInteger(role.id)).toBe(true)
    const users = unwrapList((await api.get('/config/v1/users/')).body)
    const admin = users.find((u) => u.email === TEST_ADMIN_EMAIL)
    const add = await api.post(`/config/v1/roles/${role.id}/add_user/`, { users: [{ uuid: admin.uuid }] })
    expect([200, 201], JSON.stringify(add.body)).toContain(add.status)
    // edit: PUT of the whole role to roles/{id}/
    const full = (await api.get(`/config/v1/roles/${role.id}/`)).body
    full.description = 'edited'
    const put = await api.put(`/config/v1/roles/${role.id}/`, full)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    // permission list: [{scope_type, permissions}]
    const perms = await api.get('/config/v1/roles/permissions')
    expect(unwrapList(perms.body).every((x: any) => Array.isArray(x.permissions))).toBe(true)
  })

  it('service account and token; the token works on /query (svc_account/commands.py, auth/service_account.py)', async () => {
    // create_service_account: basic_create(path, name) -> {"name", "description": "Created with hdxcli tool"}
    const sa = await api.post('/config/v1/service_accounts/', { name: 'hdx_sa', description: 'Created with hdxcli tool' })
    expect([200, 201]).toContain(sa.status)
    // roles go through the users endpoint
    const add = await api.post(`/config/v1/users/${sa.body.uuid}/add_roles/`, { roles: ['reader'] })
    expect([200, 201], JSON.stringify(add.body)).toContain(add.status)
    const tok = await api.post(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    expect([200, 201]).toContain(tok.status)
    // create_service_account_token: jwt.decode(token) -> exp - iat; mcp-hydrolix's ServiceAccountToken reads sub, iss, exp
    const claims = JSON.parse(Buffer.from(tok.body.token.split('.')[1], 'base64url').toString())
    expect(claims.sub).toBe(sa.body.uuid)
    expect(typeof claims.iss).toBe('string')
    expect(claims.exp).toBeGreaterThan(claims.iat)
    // --duration 30d: {"expiry": "%Y-%m-%dT%H:%M:%S.%fZ" cut to milliseconds}
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const dated = await api.post(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`, { expiry })
    expect([200, 201], JSON.stringify(dated.body)).toContain(dated.status)
    const datedClaims = JSON.parse(Buffer.from(dated.body.token.split('.')[1], 'base64url').toString())
    expect(Math.abs(datedClaims.exp - Date.parse(expiry) / 1000)).toBeLessThan(2)
    const q = await raw('POST', '/query', { headers: { Authorization: `Bearer ${tok.body.token}` }, body: 'SELECT 1' })
    expect(q.status).toBe(200)
    expect(q.text.trim()).toBe('1')
    // revoke all tokens: DELETE .../tokens/ -> the token stops working
    // revoke_all_service_account_tokens: basic_delete(url=.../tokens/) -> rest_ops.delete wants 204
    const revoke = await api.delete(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`)
    expect(revoke.status).toBe(204)
    expect((await raw('POST', '/query', { headers: { Authorization: `Bearer ${tok.body.token}` }, body: 'SELECT 1' })).status).toBe(401)
  })

  it('dictionary files: multipart upload to dictionaries/files, list of names, create, delete (dictionary/commands.py)', async () => {
    const filesPath = `/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/files`
    // rest_ops.create_file: requests.post(url, files={'file': stream}, data={'name': remote_filename})
    const form = new FormData()
    form.append('name', 'hdx_dict_file')
    form.append('file', new Blob(['id_country,country_name\n1,Qatar\n2,Andorra\n3,Saudi Arabia\n4,Egypt\n']), 'dictionary_file.csv')
    const up = await raw('POST', filesPath, { headers: HDX_HEADERS(token), body: form })
    expect([200, 201], JSON.stringify(up.body)).toContain(up.status)
    // basic_list prints list items that are strings as they are
    const list = await api.get(filesPath)
    expect(unwrapList(list.body)).toContain('hdx_dict_file')
    // create: tests_data/dictionaries/dictionary_settings.json + name + settings.filename
    const dictsPath = `/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/`
    const d = await api.post(dictsPath, {
      name: 'hdx_dict',
      settings: {
        filename: 'hdx_dict_file',
        layout: 'complex_key_hashed',
        lifetime_seconds: 5,
        output_columns: [
          { name: 'id_country', datatype: { type: 'uint64' } },
          { name: 'country_name', datatype: { type: 'string' } },
        ],
        primary_key: ['id_country'],
        format: 'CSVWithNames',
      },
    })
    expect([200, 201], JSON.stringify(d.body)).toContain(d.status)
    const q = await raw('POST', '/query', { headers: HDX_HEADERS(token), body: "SELECT dictGet('hdx_project_hdx_dict', 'country_name', tuple(toUInt64(2)))" })
    expect(q.text.trim()).toBe('"Andorra"')
    expect((await api.delete(`${dictsPath}${d.body.uuid}`)).status).toBe(204)
    // dict_file_delete: DELETE {path}/{filename} -> 204
    expect((await api.delete(`${filesPath}/hdx_dict_file`)).status).toBe(204)
  })

  it('function from tests_data/function_settings.json (function/commands.py)', async () => {
    const r = await api.post(`/config/v1/orgs/${org}/projects/${project.uuid}/functions/`, { name: 'function_test', sql: '(x, k, b) -> k*x + b' })
    expect([200, 201], JSON.stringify(r.body)).toContain(r.status)
    const q = await raw('POST', '/query', { headers: HDX_HEADERS(token), body: 'SELECT function_test(2, 3, 4)' })
    expect(q.text.trim()).toBe('10')
  })

  it('query options: GET, PUT the object back with one option changed (query_option/commands.py)', async () => {
    const url = `/config/v1/orgs/${org}/query_options/`
    const opts = await api.options(url)
    expect(opts.body.actions.PUT.settings.children.default_query_options.children.hdx_query_max_rows.type).toBeTypeOf('string')
    const current = (await api.get(url)).body
    current.settings.default_query_options = { ...current.settings.default_query_options, hdx_query_max_execution_time: 60 }
    const put = await api.put(url, current)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.settings.default_query_options.hdx_query_max_execution_time).toBe(60)

    // _set from the command line: the value is a string (click argument)
    const before = (await api.get(url)).body
    expect('default_query_options' in before.settings).toBe(true)
    before.settings.default_query_options.hdx_query_max_concurrent_partitions = '10'
    before.settings.default_query_options.hdx_query_timerange_required = 'true'
    const fromCli = await api.put(url, before)
    expect(fromCli.status, JSON.stringify(fromCli.body)).toBe(200)
    // --from-file tests_data/query-options/settings.json
    const again = (await api.get(url)).body
    Object.assign(again.settings.default_query_options, { hdx_query_max_concurrent_partitions: 10, hdx_query_max_columns_to_read: 20 })
    expect((await api.put(url, again)).status).toBe(200)
    // _list: only options that OPTIONS lists are shown, each with its type
    const listed = (await api.get(url)).body.settings.default_query_options
    const available = opts.body.actions.PUT.settings.children.default_query_options.children
    for (const name of Object.keys(listed)) expect(available[name]?.type, name).toBeTypeOf('string')
    // _unset one, then --all (del settings['default_query_options']); the key must come back for the next _set
    const one = (await api.get(url)).body
    delete one.settings.default_query_options.hdx_query_max_columns_to_read
    expect((await api.put(url, one)).body.settings.default_query_options.hdx_query_max_columns_to_read).toBeUndefined()
    const all = (await api.get(url)).body
    delete all.settings.default_query_options
    expect((await api.put(url, all)).status).toBe(200)
    const after = (await api.get(url)).body
    expect(after.settings.default_query_options).toEqual({})
  })

  it('migrate: objects re-created through the OPTIONS structure keep their settings (migrate/resources.py, resource_adapter.py)', async () => {
    // _adapt_resource_to_api_structure: keeps only the non-read-only fields OPTIONS actions.POST lists,
    // nested objects through their `children`; an empty required field would stop for a prompt.
    const prompts: string[] = []
    const adapt = (structure: Record<string, any>, value: Record<string, any> | undefined, parent = ''): Record<string, any> => {
      const out: Record<string, any> = {}
      const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length) || (typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.keys(v).length)
      for (const [name, props] of Object.entries(structure)) {
        if (props.read_only) continue
        const v = value?.[name]
        const at = parent ? `${parent}.${name}` : name
        if (props.type === 'nested object') {
          if (props.children && Object.keys(props.children).length) {
            if (!v && !props.required) continue
            const nested = adapt(props.children, v ?? {}, at)
            if (Object.keys(nested).length || props.required) out[name] = nested
          } else if (props.child && v && typeof v === 'object') out[name] = { ...v }
        } else if (!empty(v)) out[name] = v
        else if (props.required) prompts.push(at)
      }
      return out
    }
    const o = `/config/v1/orgs/${org}`
    const src = (await api.post(`${o}/projects/`, { name: 'mig_src', description: 'source' })).body
    const table = await api.post(`${o}/projects/${src.uuid}/tables/`, {
      name: 'mig_t',
      settings: {
        stream: { token_list: ['tok1'], hot_data_max_age_minutes: 30, message_queue_max_rows: 100 },
        age: { max_age_days: 30 },
        merge: { enabled: false },
        sort_keys: ['host'],
        shard_key: 'host',
        max_future_days: 2,
        default_query_options: { hdx_query_max_execution_time: 30 },
        autoingest: [{ enabled: true, source: 's3://bucket/in/', pattern: '.*\\.json', max_rows_per_partition: 1000 }],
      },
    })
    expect(table.status, JSON.stringify(table.body)).toBe(201)
    const transform = await api.post(`${o}/projects/${src.uuid}/tables/${table.body.uuid}/transforms/`, {
      name: 'mig_json',
      type: 'json',
      settings: {
        is_default: true,
        compression: 'gzip',
        null_values: ['-'],
        sql_transform: 'SELECT * FROM {STREAM}',
        format_details: { flattening: { active: true, depth: 2, map_flattening_strategy: { left: '_', right: '' }, slice_flattening_strategy: { left: '[', right: ']' } } },
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z', resolution: 's' } },
          { name: 'host', datatype: { type: 'string', index: true, default: 'none' } },
        ],
      },
    })
    expect(transform.status, JSON.stringify(transform.body)).toBe(201)
    const fn = await api.post(`${o}/projects/${src.uuid}/functions/`, { name: 'mig_fn', sql: '(x) -> x + 1', description: 'plus one' })
    expect(fn.status).toBe(201)

    // get_resources, then create_resources into a new project: project, functions, table, transforms
    const target = (await api.post(`${o}/projects/`, adapt((await api.options(`${o}/projects/`)).body.actions.POST, { ...src, name: 'mig_dst' }))).body
    expect(target.uuid).toBeTruthy()
    const srcFn = unwrapList((await api.get(`${o}/projects/${src.uuid}/functions/`)).body)[0]
    const fnBody = adapt((await api.options(`${o}/projects/${target.uuid}/functions/`)).body.actions.POST, { ...srcFn, name: 'mig_fn2' })
    expect((await api.post(`${o}/projects/${target.uuid}/functions/`, fnBody)).status).toBe(201)
    const srcTable = unwrapList((await api.get(`${o}/projects/${src.uuid}/tables/`)).body)[0]
    const tableBody = adapt((await api.options(`${o}/projects/${target.uuid}/tables/`)).body.actions.POST, srcTable)
    const newTable = await api.post(`${o}/projects/${target.uuid}/tables/`, tableBody)
    expect(newTable.status, JSON.stringify(newTable.body)).toBe(201)
    const srcTransform = unwrapList((await api.get(`${o}/projects/${src.uuid}/tables/${srcTable.uuid}/transforms/`)).body)[0]
    const trBody = adapt((await api.options(`${o}/projects/${target.uuid}/tables/${newTable.body.uuid}/transforms/`)).body.actions.POST, srcTransform)
    const newTransform = await api.post(`${o}/projects/${target.uuid}/tables/${newTable.body.uuid}/transforms/`, trBody)
    expect(newTransform.status, JSON.stringify(newTransform.body)).toBe(201)

    expect(prompts).toEqual([])
    expect(newTable.body.settings).toEqual(srcTable.settings)
    expect(newTransform.body.settings).toEqual(srcTransform.settings)
    expect(newTransform.body.type).toBe('json')
    expect(target.description).toBe('source')
  })

  it('sources, views, summary table from hdxcli tests_data (sources/*.py, view/commands.py, table/commands.py)', async () => {
    const t = `${tablesPath}${table.uuid}`
    // tests_data/sources/kafka_source_settings.json: numbers for cpu and replicas, type/subtype/table/pool_name given
    const kafka = await api.post(`${t}/sources/kafka/`, {
      type: 'pull',
      subtype: 'kafka',
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      settings: { bootstrap_servers: ['104.198.40.96:9092'], topics: ['test_ci_topic'] },
      pool_name: 'my-kafka-pool',
      k8s_deployment: { cpu: 1, replicas: 1, service: 'kafka-peer' },
      name: 'hdx_kafka',
    })
    expect([200, 201], JSON.stringify(kafka.body)).toContain(kafka.status)
    const kinesis = await api.post(`${t}/sources/kinesis/`, {
      pool_name: 'kinesis-pool',
      k8s_deployment: { cpu: 1, memory: '10Gi', service: 'kinesis-peer', replicas: '1', storage: '10Gi' },
      type: 'pull',
      subtype: 'kinesis',
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      settings: { stream_name: 'arn:aws:kinesis:us-east-2:184958025203:stream/ci', region: 'us-east-2', checkpointer: { name: 'arn:aws:dynamodb:us-east-2:184958025203:table/ci' } },
      name: 'hdx_kinesis',
    })
    expect([200, 201], JSON.stringify(kinesis.body)).toContain(kinesis.status)
    const siem = await api.post(`${t}/sources/siem/`, {
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      pool_name: 'siem12-pool',
      k8s_deployment: { replicas: 1, cpu: 1, service: 'akamai-siem-peer' },
      settings: { access_details: { host: 'akab-1.luna.akamaiapis.net', entity_id: '87862', client_secret: 's', client_token: 't', access_token: 'a' } },
      name: 'hdx_siem',
    })
    expect([200, 201], JSON.stringify(siem.body)).toContain(siem.status)
    // `sources kinesis settings type` -> "type: pull"; show has the service name
    const listed = unwrapList((await api.get(`${t}/sources/kinesis/`)).body).find((s) => s.name === 'hdx_kinesis')
    expect(listed.type).toBe('pull')
    expect(JSON.stringify(unwrapList((await api.get(`${t}/sources/kafka/`)).body))).toContain('kafka-peer')
    // settings name rename through PUT of the whole object
    const k = unwrapList((await api.get(`${t}/sources/kafka/`)).body)[0]
    k.name = 'new_kafka_name'
    const put = await api.put(`${t}/sources/kafka/${k.uuid}`, k)
    expect(put.status, JSON.stringify(put.body)).toBe(200)

    // tests_data/views/view_settings.json (its own name replaced by the argument)
    const view = await api.post(`${t}/views/`, {
      name: 'hdx_view',
      description: 'view_description_should_be_here',
      settings: {
        is_default: false,
        output_columns: [
          { name: '_timestamp', datatype: { primary: true, type: 'datetime', index: false, format: '2006-01-02T15:04:05Z', resolution: 'seconds' } },
          { name: '_key', datatype: { type: 'string', index: true } },
        ],
      },
    })
    expect([200, 201], JSON.stringify(view.body)).toContain(view.status)
    const views = unwrapList((await api.get(`${t}/views/`)).body)
    expect(views.find((v) => v.name === 'hdx_view').settings.is_default).toBe(false)

    // table create -t summary -f sql.txt: {"name", "type": "summary", "settings": {"summary": {"sql"}}}
    const summary = await api.post(tablesPath, {
      name: 'hdx_summary',
      type: 'summary',
      settings: { summary: { sql: "SELECT toStartOfMinute(_timestamp) AS minute, count() AS cnt FROM hdx_project.hdx_table GROUP BY minute SETTINGS hdx_primary_key='minute'" } },
    })
    expect([200, 201], JSON.stringify(summary.body)).toContain(summary.status)
    expect(summary.body.type).toBe('summary')
  })

  it('users and invites: invite send, pending list, resend, delete by url (user/commands.py)', async () => {
    // older hdxcli posts to /config/v1/invite/ (singular), newer to invites/
    const invite = await api.post('/config/v1/invite/', { email: 'test_ci_invite_user@hydolix.io', org, roles: ['reader'] })
    expect([200, 201], JSON.stringify(invite.body)).toContain(invite.status)
    const second = await api.post('/config/v1/invites/', { email: 'second_invite@hydolix.io', org, roles: ['reader'] })
    expect([200, 201], JSON.stringify(second.body)).toContain(second.status)
    const pending = await api.get('/config/v1/invites/?pending_only=true')
    const mine = unwrapList(pending.body).find((i) => i.email === 'test_ci_invite_user@hydolix.io')
    expect(Number.isInteger(mine.id)).toBe(true)
    expect(typeof mine.status).toBe('string')
    const resend = await api.post(`/config/v1/invites/${mine.id}/resend_invite/`)
    expect([200, 201], JSON.stringify(resend.body)).toContain(resend.status)
    // user delete: the invited user appears in users/ and goes by its url
    const users = unwrapList((await api.get('/config/v1/users/')).body)
    const invited = users.find((u) => u.email === 'test_ci_invite_user@hydolix.io')
    expect(invited).toMatchObject({ status: 'pending', emailVerified: false })
    expect((await api.delete(invited.url ?? `/config/v1/users/${invited.uuid}`)).status).toBe(204)
    // users/current and credentials/types as the credential command reads them
    expect((await api.get('/config/v1/users/current')).body.email).toBe(TEST_ADMIN_EMAIL)
    const types = await api.get(`/config/v1/orgs/${org}/credentials/types/`)
    for (const [, t] of Object.entries<any>(types.body)) expect(t.fields).toBeTypeOf('object')
  })

  it('resource summary reads config_blob; defaults reads /defaults/ (resource_summary/commands.py, defaults/commands.py)', async () => {
    const blob = await api.get(`/config/v1/orgs/${org}/config_blob/`)
    expect(blob.status).toBe(200)
    expect(blob.body.projects.hdx_project.tables.hdx_table.transforms.hdx_csv).toBeTypeOf('object')
    for (const k of ['kafka', 'kinesis', 'siem', 'summary']) expect(blob.body.sources[k]).toBeTypeOf('object')
    const defaults = await api.get('/config/v1/defaults/')
    expect(defaults.body.table.stream).toBeTypeOf('object')
  })

  it('columns: list and show a transform column (current_name), add-name, add-alias, delete the alias (column/commands.py)', async () => {
    const columnsPath = `${tablesPath}${table.uuid}/columns/`
    // `column list`: the table's columns by name, _timestamp among them
    const list = unwrapList((await api.get(columnsPath)).body)
    expect(list.map((x) => x.name)).toEqual(expect.arrayContaining(['_timestamp', '_float', '_uint64']))
    // `column --column _timestamp show`: basic_show over the list; "name", "current_name", an "id"
    const ts = list.find((x) => x.name === '_timestamp')
    expect(ts).toMatchObject({ name: '_timestamp', current_name: '_timestamp' })
    expect(typeof ts.id).toBe('string')
    expect((await api.get(`${columnsPath}${ts.id}`)).body.current_name).toBe('_timestamp')
    // `add-name renamed_column`: basic_create(f"{path}{id}/add_name/", body={"new_name"})
    const added = await api.post(`${columnsPath}${ts.id}/add_name/`, { new_name: 'renamed_column' })
    expect([200, 201], JSON.stringify(added.body)).toContain(added.status)
    expect((await api.get(`${columnsPath}${ts.id}`)).body.names).toContain('renamed_column')
    expect((await api.post(`${columnsPath}${ts.id}/add_name/`, { new_name: '_float' })).status).toBe(400)
    // `add-alias new_column 'plus(_numeric,_uint64)'`: {"name", "expression"}
    const alias = await api.post(columnsPath, { name: 'new_column', expression: 'plus(_numeric,_uint64)' })
    expect([200, 201], JSON.stringify(alias.body)).toContain(alias.status)
    const withAlias = unwrapList((await api.get(columnsPath)).body).find((x) => x.name === 'new_column')
    expect(withAlias).toMatchObject({ current_name: 'new_column', expression: 'plus(_numeric,_uint64)' })
    // `column delete new_column`: basic_delete through the listed url -> 204
    expect((await api.delete(withAlias.url)).status).toBe(204)
    expect(unwrapList((await api.get(columnsPath)).body).some((x) => x.name === 'new_column')).toBe(false)
  })

  it('deletes via the url field: 204 (basic_delete)', async () => {
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    const del = await api.delete(listed.url.replace('https://', 'http://'))
    expect(del.status).toBe(204)
    expect((await api.get(listed.url)).status).toBe(404)
  })
})

describe('query clients', () => {
  beforeAll(async () => {
    const p = await c.api('POST', `/config/v1/orgs/${org}/projects/`, { name: 'q' })
    const t = await c.api('POST', `/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/`, { name: 'events' })
    const tr = await c.api('POST', `/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
      name: 'json',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'n', datatype: { type: 'uint32' } },
        ],
      },
    })
    expect(tr.status).toBe(201)
    const rows = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ts: `2024-01-01T00:00:0${i}Z`, n: i })).join('\n')
    expect((await c.api('POST', '/ingest/event', rows, undefined, { 'x-hdx-table': 'q.events', 'content-type': 'application/json' })).status).toBe(200)
  })

  it('hdx_query_output_format=JSON and X-HDX-query-settings; the stats header parsed as k=v pairs (grafana-datasource-plugin)', async () => {
    const r = await raw('POST', '/query?hdx_query_output_format=JSON', {
      headers: { Authorization: `Bearer ${c.token}`, 'X-HDX-query-settings': 'hdx_query_max_result_rows=100 hdx_query_max_execution_time=30' },
      body: 'SELECT n FROM q.events ORDER BY n',
    })
    expect(r.status, r.text).toBe(200)
    expect(JSON.parse(r.text).data.length).toBe(10)
    // grafana: strings.Fields(header) -> strings.SplitN(kv, "=", 2)
    const stats = Object.fromEntries((r.headers.get('x-hdx-query-stats') ?? '').split(/\s+/).filter(Boolean).map((kv) => kv.split('=', 2)))
    for (const key of ['exec_time', 'rows_read', 'bytes_read', 'num_partitions', 'num_peers', 'query_attempts', 'memory_usage']) {
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

  it('grafana over HTTP: clickhouse-go settings as URL parameters, Native output, Accept-Encoding deflate, compressed bodies (pkg/plugin/driver.go)', async () => {
    const basic = `Basic ${Buffer.from(`${TEST_ADMIN_EMAIL}:${TEST_ADMIN_PASSWORD}`).toString('base64')}`
    const params = 'default_format=Native&database=default&enable_http_compression=1&hdx_query_output_format=Native&query_id=grafana-1'
    // the connection handshake clickhouse-go runs, then a panel query; the settings ride on the URL
    for (const sql of ['SELECT displayName(), version(), revision(), timezone()', 'SELECT n FROM q.events ORDER BY n']) {
      const r = await c.handler(new Request(`http://local-cluster/query?${params}`, { method: 'POST', headers: { Authorization: basic, 'Accept-Encoding': 'deflate' }, body: sql }))
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
    const broken = await raw('POST', '/query', { headers: { Authorization: basic, 'Content-Encoding': 'gzip' }, body: 'not gzip at all' })
    expect(broken.status).toBe(400)
    expect(broken.body.error).toMatch(/^Code: \d+/)
  })

  it('grafana schema browsing: projects and tables as TurbineStorage tables of system.tables, columns, functions, DESCRIBE (src/constants.ts, editor/metadataProvider.ts)', async () => {
    const run = async (sql: string) => {
      const r = await raw('POST', '/query?default_format=JSONCompact', { headers: { Authorization: `Bearer ${c.token}` }, body: sql })
      expect(r.status, `${sql}: ${r.text}`).toBe(200)
      return JSON.parse(r.text).data.map((row: unknown[]) => row[0])
    }
    // SCHEMA_SQL, TABLES_SQL, COLUMNS_SQL, FUNCTIONS_SQL, AD_HOC_KEY_QUERY as the plugin sends them
    expect(await run("SELECT DISTINCT database as project FROM system.tables WHERE engine = 'TurbineStorage' AND (project != 'sample_project' AND project != 'hdx' AND total_rows > 0)")).toContain('q')
    expect(await run("SELECT name FROM system.tables WHERE engine = 'TurbineStorage' AND database = 'q' AND total_rows > 0")).toEqual(['events'])
    expect(await run("SELECT name FROM system.columns WHERE database='q' AND table ='events'")).toEqual(['ts', 'n'])
    expect((await run('SELECT name FROM  system.functions')).length).toBeGreaterThan(100)
    expect(await run('DESCRIBE q.events')).toEqual(['ts', 'n'])
    // the rename leaves string literals and other tables alone
    expect(await run("SELECT count() FROM system.tables AS t WHERE t.name = 'system.tables' AND engine != 'TurbineStorage'")).toEqual([0])
    expect(await run("SELECT engine FROM system.tables WHERE database = 'system' AND name = 'one'")).not.toContain('TurbineStorage')
  })

  it('mcp-hydrolix through clickhouse-connect: the engine HTTP interface at / on the query port, its session and settings parameters (mcp_env.py get_client_config)', async () => {
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
      const r = await c.handler(new Request(`http://local-cluster/?${params}`, { method: 'POST', headers: { Authorization: basic, 'Accept-Encoding': 'lz4, zstd, br, gzip, deflate', 'User-Agent': 'clickhouse-connect/0.8 (mcp_hydrolix)' }, body: sql }))
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

  it('hdxcli migrate: catalog download by project and table uuid parses as its Partition rows (migrate/catalog_operations.py)', async () => {
    const projects = unwrapList((await c.api('GET', `/config/v1/orgs/${org}/projects/`)).body)
    const q = projects.find((p) => p.name === 'q')
    const t = unwrapList((await c.api('GET', `/config/v1/orgs/${org}/projects/${q.uuid}/tables/`)).body).find((x) => x.name === 'events')
    const r = await raw('GET', `/config/v1/orgs/${org}/catalog/download/?project=${q.uuid}&table=${t.uuid}`, { headers: { Authorization: `Bearer ${c.token}`, Accept: 'application/json' } })
    expect(r.status).toBe(200)
    // csv.reader: quoted fields may hold commas and doubled quotes
    const rows: string[][] = []
    let row: string[] = []
    let field = ''
    let quoted = false
    for (let i = 0; i < r.text.length; i++) {
      const ch = r.text[i]
      if (quoted) {
        if (ch === '"' && r.text[i + 1] === '"') (field += '"'), i++
        else if (ch === '"') quoted = false
        else field += ch
      } else if (ch === '"') quoted = true
      else if (ch === ',') row.push(field), (field = '')
      else if (ch === '\n') row.push(field), rows.push(row), (row = []), (field = '')
      else if (ch !== '\r') field += ch
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

  it('hdxcli logs: clickhouse-connect on port 8088 with username "bearer" and the token as password, the hydro.logs query (logs/query.py)', async () => {
    // _build_query with service, level and text filter, parameters bound client-side (%(x)s)
    const sql =
      "SELECT timestamp, level, `kubernetes.container_name` AS service, message, error FROM hydro.logs WHERE service = 'turbine-api' AND level IN ('info', 'INFO') AND (message LIKE '%started%' OR error LIKE '%started%') ORDER BY timestamp DESC LIMIT 50 FORMAT Native"
    const r = await c.handler(new Request('http://local-cluster/?session_id=hdx-logs&send_progress_in_http_headers=1', { method: 'POST', headers: { Authorization: `Basic ${Buffer.from(`bearer:${c.token}`).toString('base64')}` }, body: sql }))
    expect(r.status, await r.clone().text()).toBe(200)
    // the same rows as JSON, to see them: the startup line is there
    const json = await raw('POST', '/query?default_format=JSON', { headers: { Authorization: `Basic ${Buffer.from(`bearer:${c.token}`).toString('base64')}` }, body: sql.replace(' FORMAT Native', '') })
    expect(json.status, json.text).toBe(200)
    expect(JSON.parse(json.text).data.some((row: any) => /started/.test(row.message))).toBe(true)
    // the engine's other ways to pass a user: X-ClickHouse-User/Key headers, user/password parameters
    const viaHeaders = await raw('POST', '/', { headers: { 'X-ClickHouse-User': TEST_ADMIN_EMAIL, 'X-ClickHouse-Key': TEST_ADMIN_PASSWORD }, body: 'SELECT 1' })
    expect(viaHeaders.text.trim()).toBe('1')
    const viaParams = await raw('GET', `/query?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}&query=SELECT%202`)
    expect(viaParams.text.trim()).toBe('2')
    expect((await raw('GET', `/query?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=wrong&query=SELECT%202`)).status).toBe(401)
    // not on the config API
    expect((await raw('GET', `/config/v1/orgs/?user=${encodeURIComponent(TEST_ADMIN_EMAIL)}&password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}`)).status).toBe(401)
  })

  it('mcp-hydrolix tools: SHOW DATABASES, list_tables, get_table_info, DESCRIBE with Identifier parameters, under its per-query settings (mcp_server.py)', async () => {
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
      const qs = new URLSearchParams({ ...(withSettings ? settings : {}), ...Object.fromEntries(Object.entries(params).map(([k, v]) => [`param_${k}`, v])) })
      const r = await raw('POST', `/?${qs}`, { headers: { Authorization: basic }, body: `${sql}\n FORMAT JSONCompact` })
      expect(r.status, `${sql}: ${r.text}`).toBe(200)
      return JSON.parse(r.text)
    }
    // list_databases: client.command("SHOW DATABASES")
    const dbs = await c.handler(new Request('http://local-cluster/', { method: 'POST', headers: { Authorization: basic }, body: 'SHOW DATABASES' }))
    expect((await dbs.text()).split('\n')).toContain('q')
    // list_tables / get_table_info: system.tables with {db:String} (and {table:String}) parameters
    const fields = 'database, name, engine, sorting_key, primary_key, total_rows, total_bytes, total_bytes_uncompressed, parts, active_parts, total_marks, comment'
    const tables = await ask(`SELECT ${fields} FROM system.tables WHERE database = {db:String}`, { db: 'q' })
    expect(tables.data.map((row: unknown[]) => row[1])).toEqual(['events'])
    const info = await ask(`SELECT ${fields} FROM system.tables WHERE database = {db:String} AND name = {table:String}`, { db: 'q', table: 'events' })
    expect(info.data[0][2]).toBe('TurbineStorage')
    expect(info.data[0][4]).toBe('ts')
    // _describe_columns: DESCRIBE TABLE {db:Identifier}.{table:Identifier}
    const described = await ask('DESCRIBE TABLE {db:Identifier}.{table:Identifier}', { db: 'q', table: 'events' })
    expect(described.data.map((row: unknown[]) => row[0])).toEqual(['ts', 'n'])
    // run_select_query under the same settings
    const rows = await ask('SELECT n FROM q.events WHERE ts > now() - INTERVAL 10 YEAR ORDER BY n LIMIT 3')
    expect(rows.data.map((row: unknown[]) => Number(row[0]))).toEqual([0, 1, 2])
    // the admin comment lands in hdx.active_queries
    const active = await ask("SELECT admin_comment FROM hdx.active_queries WHERE admin_comment LIKE 'User: mcp-hydrolix%' LIMIT 1", {}, false)
    expect(active.data.length).toBe(1)
  })

  it('mcp-hydrolix: Basic user:password and Basic __api_token__:token on the query endpoint, GET /version (auth/credentials.py, mcp_env.py)', async () => {
    const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`
    // clickhouse-connect: POST with the SQL as body and settings as URL parameters
    const r = await raw('POST', '/query?default_format=JSONCompact&query_id=mcp-1&database=q', { headers: { Authorization: basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD) }, body: 'SELECT count() FROM q.events' })
    expect(r.status, r.text).toBe(200)
    expect(Number(JSON.parse(r.text).data[0][0])).toBe(10)
    const sa = await c.api('POST', '/config/v1/service_accounts/', { name: 'mcp_sa', roles: ['reader'] })
    const tok = await c.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    const viaApiToken = await raw('POST', '/query', { headers: { Authorization: basic('__api_token__', tok.body.token) }, body: 'SELECT count() FROM q.events' })
    expect(viaApiToken.status, viaApiToken.text).toBe(200)
    expect(viaApiToken.text.trim()).toBe('10')
    const bearer = await raw('GET', `/query?query=${encodeURIComponent('SELECT 1')}`, { headers: { Authorization: `Bearer ${tok.body.token}` } })
    expect(bearer.text.trim()).toBe('1')
    const version = await raw('GET', '/version', { headers: { Authorization: basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD) } })
    expect(version.status).toBe(200)
    expect(version.text).toMatch(/^v\d+\.\d+/)
    const wrong = await raw('POST', '/query', { headers: { Authorization: basic(TEST_ADMIN_EMAIL, 'nope') }, body: 'SELECT 1' })
    expect(wrong.status).toBe(401)
  })
})

describe('Home Assistant integration (custom_components/hydrolix_history/config_api.py, client.py)', () => {
  it('finds the org, provisions project, table and transform, then ingests gzipped NDJSON with ?table=&transform=', async () => {
    const headers = { Authorization: `Bearer ${c.token}`, 'Content-Type': 'application/json', Accept: 'application/json' }
    const base = 'http://local-cluster/config/v1'
    // get_org_uuid: _unwrap_list(GET /orgs/)[0]["uuid"]
    const orgs = await raw('GET', `${base}/orgs/`, { headers })
    expect(unwrapList(orgs.body)[0].uuid).toBe(org)
    // create_project: _unwrap_single(POST) -> ["uuid"]
    const proj = await raw('POST', `${base}/orgs/${org}/projects/`, { headers, body: JSON.stringify({ name: 'home_assistant', description: 'Home Assistant history data' }) })
    expect(proj.status).toBe(201)
    const table = await raw('POST', `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/`, {
      headers,
      body: JSON.stringify({
        name: 'states',
        description: 'Home Assistant state change history',
        settings: {
          stream: {
            hot_data_max_age_minutes: 5,
            hot_data_max_active_partitions: 3,
            hot_data_max_rows_per_partition: 12288000,
            hot_data_max_minutes_per_partition: 5,
            hot_data_max_open_seconds: 60,
            hot_data_max_idle_seconds: 30,
            cold_data_max_age_days: 3650,
            cold_data_max_active_partitions: 50,
            cold_data_max_rows_per_partition: 12288000,
            cold_data_max_minutes_per_partition: 60,
            cold_data_max_open_seconds: 30,
            cold_data_max_idle_seconds: 60,
          },
          age: { max_age_days: 0 },
          merge: { enabled: true },
          sort_keys: ['entity_id'],
          max_future_days: 0,
        },
      }),
    })
    expect(table.status, JSON.stringify(table.body)).toBe(201)
    expect(table.body.uuid).toBeTruthy()
    const fmt = '2006-01-02T15:04:05.000000Z07:00'
    const transform = await raw('POST', `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/${table.body.uuid}/transforms/`, {
      headers,
      body: JSON.stringify({
        name: 'ha_state_history',
        description: 'Home Assistant state change events — auto-created by the Hydrolix History integration',
        type: 'json',
        settings: {
          is_default: true,
          output_columns: [
            { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: fmt, resolution: 'ms' } },
            { name: 'entity_id', datatype: { type: 'string', index: true } },
            { name: 'domain', datatype: { type: 'string', index: true } },
            { name: 'state', datatype: { type: 'string', index: true } },
            { name: 'old_state', datatype: { type: 'string', index: true, default: '' } },
            { name: 'state_float', datatype: { type: 'double', index: false, default: '0' } },
            { name: 'last_changed', datatype: { type: 'datetime', format: fmt, resolution: 'ms', index: true } },
            { name: 'last_updated', datatype: { type: 'datetime', format: fmt, resolution: 'ms', index: true } },
            { name: 'friendly_name', datatype: { type: 'string', index: true, default: '' } },
            { name: 'device_class', datatype: { type: 'string', index: true, default: '' } },
            { name: 'unit_of_measurement', datatype: { type: 'string', index: true, default: '' } },
            { name: 'icon', datatype: { type: 'string', index: true, default: '' } },
            { name: 'attributes', datatype: { type: 'json' } },
          ],
          format_details: { flattening: { active: false, map_flattening_strategy: null } },
        },
      }),
    })
    expect(transform.status, JSON.stringify(transform.body)).toBe(201)
    // list_transforms: any(t.get("name") == HA_TRANSFORM_NAME)
    const transforms = await raw('GET', `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/${table.body.uuid}/transforms/`, { headers })
    expect(unwrapList(transforms.body).some((t) => t.name === 'ha_state_history')).toBe(true)

    // client.py _flush: POST /ingest/event?table=db.table&transform=name, gzip NDJSON, Bearer token
    const now = '2024-05-01T12:00:00.123456+00:00'
    const records = [
      { timestamp: now, entity_id: 'sensor.t', domain: 'sensor', state: '21.5', old_state: '21.0', last_changed: now, last_updated: now, friendly_name: 'T', device_class: 'temperature', unit_of_measurement: '°C', icon: '', state_float: 21.5, attributes: { unit_of_measurement: '°C' } },
      { timestamp: now, entity_id: 'light.k', domain: 'light', state: 'on', old_state: '', last_changed: now, last_updated: now, friendly_name: '', device_class: '', unit_of_measurement: '', icon: '', state_float: null, attributes: {} },
    ]
    const ingest = await raw('POST', 'http://local-cluster/ingest/event?table=home_assistant.states&transform=ha_state_history', {
      headers: { Authorization: `Bearer ${c.token}`, Accept: 'application/json', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: zlib.gzipSync(records.map((r) => JSON.stringify(r)).join('\n')),
    })
    expect([200, 201, 204], ingest.text).toContain(ingest.status)
    const q = await c.api('POST', '/query', "SELECT count(), countIf(state_float IS NULL OR state_float = 0) FROM home_assistant.states FORMAT CSV")
    expect(String(q.body).trim()).toBe('2,1')
  })
})

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
    ['nested wrong types', { name: 'fuzz_types', description: ['a'], type: 7, settings: { stream: 'x', merge: { enabled: 'maybe' }, output_columns: 'nope', k8s_deployment: [] } }],
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
        if (!ok && !(r.status < 300 && ['empty', 'array settings', 'null settings', 'unicode name', 'number for name'].includes(label))) failures.push(`${url} ${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
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
    const pool = await c.api('POST', '/config/v1/pools/', { name: 'fuzz-pool', settings: { k8s_deployment: { service: 'query-peer' } } })
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
          if (r.status >= 400 && (typeof r.body !== 'object' || r.body === null)) failures.push(`${method} ${url} ${label}: not JSON`)
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
    const p = await mk(`${o}/projects/`, { name: 'fz_all' })
    const t = await mk(`${o}/projects/${p.uuid}/tables/`, { name: 'fz_t' })
    const pt = `${o}/projects/${p.uuid}/tables/${t.uuid}`
    const cols = [{ name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } }, { name: 'v', datatype: { type: 'string' } }]
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
      `${pt}/sources/kafka/${(await mk(`${pt}/sources/kafka/`, { name: 'fz_k', transform: 'fz_tr', settings: { bootstrap_servers: ['h:9092'], topics: ['t'] } })).uuid}`,
      `${o}/projects/${p.uuid}/functions/${(await mk(`${o}/projects/${p.uuid}/functions/`, { name: 'fz_fn', sql: '(x) -> x' })).uuid}`,
      `${o}/projects/${p.uuid}/dictionaries/${(await mk(`${o}/projects/${p.uuid}/dictionaries/`, { name: 'fz_d', settings: { filename: 'fz.csv', format: 'CSVWithNames', layout: 'complex_key_hashed', lifetime_seconds: 60, primary_key: ['k'], output_columns: [{ name: 'k', datatype: { type: 'string' } }, { name: 'v', datatype: { type: 'string' } }] } })).uuid}`,
      `${o}/storages/${(await mk(`${o}/storages/`, { name: 'fz-s', settings: { bucket_name: 'b', region: 'r', cloud: 'aws' } })).uuid}`,
      `${o}/credentials/${(await mk(`${o}/credentials/`, { name: 'fz_cred', type: 'aws_access_keys', details: { access_key_id: 'a', secret_access_key: 's' } })).uuid}`,
      `/config/v1/users/${(await mk('/config/v1/users/', { email: 'fz@example.com', password: 'a-long-password-1', roles: ['reader'] })).uuid}`,
      `/config/v1/service_accounts/${(await mk('/config/v1/service_accounts/', { name: 'fz_sa' })).uuid}`,
      `/config/v1/invites/${(await mk('/config/v1/invites/', { email: 'fz-invite@example.com', roles: ['reader'] })).id}`,
      `${o}/jobs/batch/${(await mk(`${o}/jobs/batch/`, { name: 'fz_job', type: 'batch_import', settings: { source: { table: 'fz_all.fz_t', settings: { url: 's3://nowhere/x/' } } } })).uuid}`,
      `${o}/query_options/`,
      '/config/v1/change_password',
    ]
    const bodies: unknown[] = [
      [1, 2],
      'text',
      { name: null, settings: null, description: 5, type: ['x'], roles: 'reader', email: 7, details: [], expression: {}, filter: null, transform: 9, sql: [], policies: 'all' },
      { settings: { output_columns: [{}], k8s_deployment: 'x', source: [], summary: 1, stream: { token_list: 'x' }, default_query_options: { hdx_query_max_result_bytes: 'x' } } },
      { name: 'Ω'.repeat(5000) },
      { current_password: 1, new_password: null, confirm_password: [] },
    ]
    const failures: string[] = []
    for (const url of items) {
      for (const method of ['PUT', 'PATCH']) {
        for (const body of bodies) {
          const r = await c.api(method, url, body)
          if (r.status >= 500 || (r.status >= 400 && (typeof r.body !== 'object' || r.body === null))) failures.push(`${method} ${url} ${JSON.stringify(body).slice(0, 60)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
        }
      }
    }
    expect(failures).toEqual([])
  })

  it('odd requests: content types, paging, auth headers, bodies on GET', async () => {
    const o = `/config/v1/orgs/${org}`
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }, want?: number) => {
      if (r.status >= 500 || (want !== undefined && r.status !== want) || (r.status >= 400 && (typeof r.body !== 'object' || r.body === null))) failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    for (const q of ['page=abc', 'page=0', 'page=-1', 'page=99999999999999999999', 'page_size=-5', 'page_size=abc', 'page_size=100000', 'name=%00', 'page=1.5']) {
      check(`list ?${q}`, await c.api('GET', `${o}/projects/?${q}`))
    }
    const form = new FormData()
    form.append('name', 'from-form')
    check('multipart to a JSON endpoint', await c.api('POST', `${o}/projects/`, form), 400)
    check('xml body', await c.api('POST', `${o}/projects/`, '<project><name>x</name></project>', undefined, { 'content-type': 'application/xml' }), 400)
    check('BOM json', await c.api('POST', `${o}/projects/`, '\uFEFF{"name":"bom_project"}', undefined, { 'content-type': 'application/json' }))
    check('deeply nested json', await c.api('POST', `${o}/projects/`, `{"name":"deep","settings":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`, undefined, { 'content-type': 'application/json' }))
    check('bytes', await c.api('POST', `${o}/projects/`, new Uint8Array([0xff, 0xfe, 0x00, 0x01]), undefined, { 'content-type': 'application/json' }), 400)
    for (const auth of ['Bearer', 'Bearer ', 'Bearer a.b.c', 'Bearer !!!.@@@.###', 'Basic', 'Basic !!!', `Basic ${Buffer.from('nocolon').toString('base64')}`, `Basic ${Buffer.from(':').toString('base64')}`, 'Token x', 'Bearer ' + 'x'.repeat(20000)]) {
      const r = await c.api('GET', `${o}/projects/`, undefined, null, { authorization: auth })
      check(`auth "${auth.slice(0, 30)}"`, r, 401)
    }
    // a JSON body on a GET is ignored (auth_logs reads filters from it)
    const withBody = await c.handler(new Request(`http://local-cluster/config/v1/auth_logs`, { method: 'POST', headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' }, body: '{"event_types": 5, "limit": "x", "from_date": "not a date"}' }))
    check('auth_logs odd filters', { status: withBody.status, body: await withBody.json() })
    expect(failures).toEqual([])
  })

  it('the data endpoints answer bad input with 4xx and a message', async () => {
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }) => {
      if (r.status >= 500 || r.status < 400 || typeof r.body !== 'object' || r.body === null) failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    const q = (sql: string, path = '/query', headers: Record<string, string> = {}) => c.api('POST', path, sql, undefined, headers)
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
    check('insert', await q("INSERT INTO q.events VALUES (now(), 1)"))
    check('two statements', await q('SELECT 1; SELECT 2'))
    check('table function', await q("SELECT * FROM file('/etc/passwd')"))
    check('null byte', await q('SELECT 1\u0000'))
    const ingest = (body: string, headers: Record<string, string>) => c.api('POST', '/ingest/event', body, undefined, headers)
    check('ingest no table', await ingest('{}', { 'content-type': 'application/json' }))
    check('ingest a.b.c', await ingest('{}', { 'x-hdx-table': 'a.b.c', 'content-type': 'application/json' }))
    check('ingest unknown transform', await ingest('{}', { 'x-hdx-table': 'q.events', 'x-hdx-transform': 'nope', 'content-type': 'application/json' }))
    check('ingest broken json', await ingest('{"ts":', { 'x-hdx-table': 'q.events', 'content-type': 'application/json' }))
    check('ingest wrong types', await ingest('{"ts": [1], "n": {"a": 1}}', { 'x-hdx-table': 'q.events', 'content-type': 'application/json' }))
    check('ingest bad gzip', await ingest('not gzip', { 'x-hdx-table': 'q.events', 'content-type': 'application/json', 'content-encoding': 'gzip' }))
    check('validator nonsense', await c.api('POST', '/validator', { transform: 'x', data: 5 }))
    check('validator bad columns', await c.api('POST', '/validator', { transform: { type: 'json', settings: { output_columns: 'x' } }, data: [{}] }))
    check('prometheus garbage', await c.api('GET', '/prometheus/api/v1/query_range?query=)))&start=x&end=y&step=-1'))
    check('prometheus huge range', await c.api('GET', `/prometheus/api/v1/query_range?query=up&start=0&end=${1e12}&step=0.001`))
    check('catalog unknown', await c.api('GET', `/config/v1/orgs/${org}/catalog/download/?project=nope&table=nope`))
    check('batch job bad source', await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, { name: 'bad', settings: { source: 'x' } }))
    check('batch job unknown table', await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, { name: 'bad2', settings: { source: { table: 'no.pe', settings: { url: '/tmp' } } } }))
    check('fault with a broken regular expression', await c.api('POST', '/__faults', { path: '(' }))
    expect((await c.api('GET', '/version')).status).toBe(200)
    check('batch job relative path', await c.api('POST', `/config/v1/orgs/${org}/jobs/batch/`, { name: 'bad3', settings: { source: { table: 'q.events', settings: { url: 12 } } } }))
    expect(failures).toEqual([])
  })
})

describe('never a 500: actions and accounts', () => {
  it('answers bad action bodies with 4xx and a JSON message', async () => {
    const o = `/config/v1/orgs/${org}`
    const failures: string[] = []
    const check = (label: string, r: { status: number; body: any }) => {
      if (r.status >= 500 || r.status < 400 || typeof r.body !== 'object' || r.body === null) failures.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
    }
    const anon = apiFor(c.handler)
    check('login number', await anon('POST', '/config/v1/login', { username: 5, password: [] }))
    check('login empty', await anon('POST', '/config/v1/login', {}))
    check('login array', await anon('POST', '/config/v1/login', [1]))
    check('reset confirm garbage', await anon('POST', '/config/v1/password_reset_confirm/', { uuidb64: '%%%', token: 5, password: 'a-long-password-1', password_confirm: 'a-long-password-1' }))
    check('reset confirm objects', await anon('POST', '/config/v1/password_reset_confirm/', { uuidb64: {}, token: [], password: null }))
    check('reset email object', await anon('POST', '/config/v1/reset_password', { email: { a: 1 } }))
    check('change password types', await c.api('PUT', '/config/v1/change_password', { current_password: 5, new_password: {}, confirm_password: null }))
    const sa = (await c.api('POST', '/config/v1/service_accounts/', { name: 'fz_actions_sa' })).body
    for (const expiry of ['yesterday', '2000-01-01T00:00:00Z', 12, { a: 1 }, '']) check(`token expiry ${JSON.stringify(expiry)}`, await c.api('POST', `/config/v1/service_accounts/${sa.uuid}/tokens/`, { expiry }))
    check('token for a missing account', await c.api('POST', '/config/v1/service_accounts/00000000-0000-0000-0000-000000000000/tokens/', {}))
    for (const roles of ['reader', [5], [{}], ['no-such-role'], null]) check(`add_roles ${JSON.stringify(roles)}`, await c.api('POST', `/config/v1/users/${sa.uuid}/add_roles/`, { roles }))
    const role = (await c.api('POST', '/config/v1/roles/', { name: 'fz_actions_role', policies: [] })).body
    for (const users of ['x', [5], [{ uuid: 'nope' }], [{}], null]) check(`add_user ${JSON.stringify(users)}`, await c.api('POST', `/config/v1/roles/${role.id}/add_user/`, { users }))
    for (const policies of ['x', [5], [{ permissions: 'view_table' }], [{ permissions: ['no_such_perm'] }], [{ permissions: ['view_table'], scope_type: 'table', scope_id: 'nope' }]]) {
      check(`role policies ${JSON.stringify(policies)}`, await c.api('PUT', `/config/v1/roles/${role.id}/`, { name: 'fz_actions_role', policies }))
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
    check('commit missing alter job', await c.api('POST', `${o}/jobs/alter/00000000-0000-0000-0000-000000000000/commit`))
    check('retry a ready batch job', await c.api('POST', `${o}/jobs/batch/${(await c.api('POST', `${o}/jobs/batch/`, { name: 'fz_ready', settings: { source: { table: 'fz_files.nope', settings: { url: '/tmp/none' } } } })).body?.uuid ?? 'x'}/retry`))
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
