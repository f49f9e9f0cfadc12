import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from './test-helpers'

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
  return { status: response.status, body: (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text }
}

const unwrapList = (body: any): any[] => (Array.isArray(body) ? body : body && typeof body === 'object' && 'results' in body ? body.results : [body])

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
      new Request('http://local-cluster/config/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }) }),
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
      settings: { is_default: true, output_columns: [{ name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } }, { name: 'v', datatype: { type: 'string' } }] },
    })
    expect(tr.status).toBe(201)
    const transforms = await raw('GET', `${tables}${table.uuid}/transforms/`)
    expect(Array.isArray(transforms.body)).toBe(true)
    // basic_list: "name (default)" for settings.is_default
    expect(transforms.body.filter((t: any) => t.settings.is_default).map((t: any) => t.name)).toEqual(['j'])
    for (const path of ['/config/v1/pools/', '/config/v1/users/', '/config/v1/roles/', `/config/v1/orgs/${org}/storages/`, `/config/v1/orgs/${org}/jobs/batch/`, `${projects}${project.uuid}/dictionaries/files/`]) {
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
      settings: { output_columns: [{ name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } }, { name: 'v', datatype: { type: 'string' } }] },
    })
    const q = await raw('POST', '/query', "ALTER TABLE alt.x DELETE WHERE v = 'gone'")
    expect(q.status).toBe(200)
    const list = await raw('GET', `/config/v1/orgs/${org}/jobs/alter/`)
    expect(Array.isArray(list.body.results)).toBe(true)
    expect(list.body.results.length).toBeGreaterThan(0)
  })

  it('the Home Assistant integration unwraps bare lists and single objects alike (_unwrap_list, _unwrap_single)', async () => {
    const orgs = await raw('GET', '/config/v1/orgs/')
    expect(unwrapList(orgs.body)[0].uuid).toBe(org)
    const created = await raw('POST', `/config/v1/orgs/${org}/projects/`, { name: 'ha', description: 'Home Assistant history data' })
    // _unwrap_single: a bare object is taken as is
    expect(created.body.uuid).toBeTruthy()
    const projects = unwrapList((await raw('GET', `/config/v1/orgs/${org}/projects/`)).body)
    expect(projects.some((p) => p.name === 'ha')).toBe(true)
  })
})
