/**
 * hdxcli 1.0's own test suite (tests/command_line_interface/test_cases/test_read_only_flows.toml)
 * against this cluster, for the cases that failed on it (issue 32): what a real cluster accepts and
 * keeps, and its error texts, as the CLI sends and reads them.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestPaths } from '../data/ingest'
import {
  c,
  HDX_HEADERS,
  type hdx,
  hdxcliLogin,
  HDXCLI_CSV_TRANSFORM,
  org,
  poll,
  raw,
  unwrapList,
  useContractCluster,
} from './helpers'

// a served cluster's wait for an unreachable batch source (long enough to list, show and cancel)
useContractCluster({ batchSourceWaitMs: 60_000 })

let tmp: string
let token: string
let api: ReturnType<typeof hdx>
let projectId: string
let tableId: string
const o = () => `/config/v1/orgs/${org}`

beforeAll(async () => {
  // the cluster reads local files only from its import directory (issue 49)
  tmp = fs.mkdtempSync(path.join(c.handler.state.options.importDir, 'contract-hdxcli10-'))
  ;({ token, api } = await hdxcliLogin())
  // global_setup: project create test_ci_project, table create test_ci_table
  projectId = (await api.post(`${o()}/projects/`, { name: 'test_ci_project', description: 'Created with hdxcli tool' }))
    .body.uuid
  tableId = (
    await api.post(`${o()}/projects/${projectId}/tables/`, {
      name: 'test_ci_table',
      description: 'Created with hdxcli tool',
    })
  ).body.uuid
})

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

/** A table of `test_ci_project` with one CSV transform (hdxcli's csv_transform.json) and the compression given. */
async function csvTable(name: string, compression?: string) {
  const t = await api.post(`${o()}/projects/${projectId}/tables/`, { name })
  const settings = { ...HDXCLI_CSV_TRANSFORM.settings, ...(compression ? { compression } : {}) }
  const tr = await api.post(`${o()}/projects/${projectId}/tables/${t.body.uuid}/transforms/`, {
    ...HDXCLI_CSV_TRANSFORM,
    name: `${name}_transform`,
    settings: { ...settings, format_details: { ...settings.format_details, windows_ending: true } },
  })
  expect(tr.status, JSON.stringify(tr.body)).toBe(201)
  return t.body.uuid as string
}

const CSV =
  '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\r\n' +
  '18/07/2022 15:58,1.5,10.0.0.1,a,7,s,8\r\n' +
  '18/07/2022 15:59,2.5,10.0.0.2,b,8,t,9\r\n' +
  '18/07/2022 16:00,3.5,10.0.0.3,c,9,u,10\r\n'

/** A zip archive of one deflated file, as `zip data.zip data.csv` writes it. */
function zipOf(name: string, content: Buffer): Buffer {
  const data = zlib.deflateRawSync(content)
  const crc = zlib.crc32(content)
  const file = Buffer.from(name)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc, 14)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(content.length, 22)
  local.writeUInt16LE(file.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc, 16)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(content.length, 24)
  central.writeUInt16LE(file.length, 28)
  central.writeUInt32LE(0, 42)
  const centralAt = local.length + file.length + data.length
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + file.length, 12)
  end.writeUInt32LE(centralAt, 16)
  return Buffer.concat([local, file, data, central, file, end])
}

/** `hdx_cli stream --transform T ingest FILE`: the file's bytes as they are, content-type by the transform's type. */
const streamIngest = (table: string, transform: string, body: Buffer, extra: Record<string, string> = {}) =>
  raw('POST', '/ingest/event', {
    headers: {
      ...HDX_HEADERS(token),
      'content-type': 'text/csv',
      'x-hdx-table': `test_ci_project.${table}`,
      'x-hdx-transform': transform,
      ...extra,
    },
    body: new Uint8Array(body),
  })

const queryText = async (sql: string) =>
  (await raw('POST', '/query', { headers: { Authorization: `Bearer ${token}` }, body: sql })).text.trim()

describe('hdxcli 1.0 against the local cluster', () => {
  it("functions: the SQL quoted as a shell-less client passes it ('(x,k,b)->k*x+b') and the docs' trailing `;`", async () => {
    const fns = `${o()}/projects/${projectId}/functions/`
    // function create -s '(x,k,b)->k*x+b' test_ci_function, without a shell to take the quotes off
    const quoted = await api.post(fns, { name: 'test_ci_function', sql: "'(x,k,b)->k*x+b'" })
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201)
    const shown = unwrapList((await api.get(fns)).body).find((f) => f.name === 'test_ci_function')
    expect(shown.sql).toContain('(x,k,b)->k*x+b')
    expect(await queryText('SELECT test_ci_function(2, 3, 1)')).toBe('7')
    // the docs' example: "(x, k, b) -> k*x + b;"
    const docs = await api.post(fns, { name: 'docs_function', sql: '(x, k, b) -> k*x + b;' })
    expect(docs.status, JSON.stringify(docs.body)).toBe(201)
    expect(await queryText('SELECT docs_function(1, 2, 3)')).toBe('5')
    // what is not a lambda is still the engine's to refuse
    const broken = await api.post(fns, { name: 'broken_function', sql: "'(x,k,b) =>'" })
    expect(broken.status).toBe(400)
    expect(JSON.stringify(broken.body)).toMatch(/sql/)
  })

  it('project and table activity: created, user, action as create:project / create:table / update:table', async () => {
    const projects = unwrapList((await api.get(`${o()}/projects/`)).body)
    const project = projects.find((p) => p.name === 'test_ci_project')
    const pa = await api.get(`${project.url}/activity`)
    expect(pa.status).toBe(200)
    const pEntries = unwrapList(pa.body)
    expect(pEntries.map((e) => e.action)).toContain('create:project')
    expect(pEntries[0]).toMatchObject({ created: expect.any(String), user: expect.any(String) })
    // table settings description 'Modified-with-hdxcli-tool' (PUT of the fetched table)
    const tablePath = `${o()}/projects/${projectId}/tables/${tableId}`
    const table = (await api.get(tablePath)).body
    expect((await api.put(tablePath, { ...table, description: 'Modified-with-hdxcli-tool' })).status).toBe(200)
    const ta = await api.get(`${table.url}/activity`)
    expect(ta.status).toBe(200)
    expect(unwrapList(ta.body).map((e) => e.action)).toEqual(['update:table', 'create:table'])
  })

  it('storage: settings.cloud can be changed (storage --storage S settings settings.cloud gcp)', async () => {
    // tests_data/storages/storage_ci_settings.json
    const created = await api.post(`${o()}/storages/`, {
      name: 'test_ci_storage',
      settings: { bucket_name: 'hdxcli-ci', bucket_path: '/', region: 'us-ord', cloud: 'linode', endpoint: null },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const itemPath = `${o()}/storages/${created.body.uuid}`
    const full = (await api.get(itemPath)).body
    const put = await api.put(itemPath, { ...full, settings: { ...full.settings, cloud: 'gcp' } })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect((await api.get(itemPath)).body.settings.cloud).toBe('gcp')
    // the PATCH fallback hdxcli uses too
    const patch = await api.patch(itemPath, { settings: { cloud: 'aws' } })
    expect(patch.status, JSON.stringify(patch.body)).toBe(200)
    expect(patch.body.settings).toMatchObject({ cloud: 'aws', bucket_name: 'hdxcli-ci' })
  })

  it('a batch job whose source cannot be reached waits in ready: listed, shown, canceled; other jobs run meanwhile', async () => {
    await csvTable('test_ci_table_batch')
    const jobs = `${o()}/jobs/batch/`
    const body = (name: string, url: string) => ({
      name,
      type: 'batch_import',
      settings: {
        source: {
          table: 'test_ci_project.test_ci_table_batch',
          type: 'batch',
          subtype: 'aws s3',
          transform: 'test_ci_table_batch_transform',
          settings: { url },
        },
      },
    })
    const waiting = await api.post(jobs, body('test_ci_batch_job', 's3://qe-datasets/every_datatype/csv/'))
    expect([200, 201]).toContain(waiting.status)
    // a job with a source that is there, queued after it, is not held up
    const file = path.join(tmp, 'data.csv')
    fs.writeFileSync(file, CSV)
    const local = await api.post(jobs, body('test_local_job', `file://${file}`))
    const done = await poll(
      () => api.get(`${jobs}${local.body.uuid}`),
      (r) => ['done', 'failed'].includes(r.body.status),
    )
    expect(done.body.status, JSON.stringify(done.body)).toBe('done')
    // job batch list / show
    const listed = unwrapList((await api.get(jobs)).body).find((j) => j.name === 'test_ci_batch_job')
    expect(listed.status).toBe('ready')
    const shown = await api.get(`${jobs}${waiting.body.uuid}`)
    expect(shown.body).toMatchObject({ status: 'ready', name: 'test_ci_batch_job', type: 'batch_import' })
    // job batch cancel test_ci_batch_job
    const cancel = await api.post(`${jobs}${waiting.body.uuid}/cancel`, {
      name: 'None',
      description: 'Created with hdxcli tool',
    })
    expect([200, 201], JSON.stringify(cancel.body)).toContain(cancel.status)
    expect((await api.get(`${jobs}${waiting.body.uuid}`)).body.status).toBe('canceled')
    expect((await api.delete(`${jobs}${waiting.body.uuid}`)).status).toBe(204)
  })

  it('stream ingest of gzip, zip and zlib files as hdxcli sends them (the bytes as they are, no Content-Encoding)', async () => {
    await csvTable('test_ci_table_gzip', 'gzip')
    await csvTable('test_ci_table_zip', 'zip')
    await csvTable('test_ci_table_zlib', 'zlib')
    const csv = Buffer.from(CSV)
    for (const [table, bytes] of [
      ['test_ci_table_gzip', zlib.gzipSync(csv)],
      ['test_ci_table_zip', zipOf('data.csv', csv)],
      ['test_ci_table_zlib', zlib.deflateSync(csv)],
    ] as const) {
      const r = await streamIngest(table, `${table}_transform`, bytes)
      expect(r.status, `${table}: ${r.text}`).toBe(200)
      expect(r.body.rows).toBe(3)
      expect(await queryText(`SELECT sum(_numeric) FROM test_ci_project.${table}`)).toBe('24')
    }
    // and named by Content-Encoding, on a transform that names no compression
    await csvTable('test_ci_table_encoded')
    for (const [encoding, bytes] of [
      ['zlib', zlib.deflateSync(csv)],
      ['deflate', zlib.deflateSync(csv)],
      ['zip', zipOf('data.csv', csv)],
    ] as const) {
      const r = await streamIngest('test_ci_table_encoded', 'test_ci_table_encoded_transform', bytes, {
        'content-encoding': encoding,
      })
      expect(r.status, `${encoding}: ${r.text}`).toBe(200)
    }
    expect(await queryText('SELECT count() FROM test_ci_project.test_ci_table_encoded')).toBe('9')
  })

  it('a JSON "2" (or 2) for a boolean column is true, "0" false, as a real cluster reads it', async () => {
    const t = await api.post(`${o()}/projects/${projectId}/tables/`, { name: 'test_ci_table_bool' })
    const tr = await api.post(`${o()}/projects/${projectId}/tables/${t.body.uuid}/transforms/`, {
      name: 'bools',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'n', datatype: { type: 'uint32' } },
          { name: 'flag', datatype: { type: 'boolean' } },
        ],
      },
    })
    expect(tr.status, JSON.stringify(tr.body)).toBe(201)
    const send = (rows: unknown[]) =>
      raw('POST', '/ingest/event', {
        headers: {
          ...HDX_HEADERS(token),
          'content-type': 'application/json',
          'x-hdx-table': 'test_ci_project.test_ci_table_bool',
        },
        body: rows.map((r) => JSON.stringify(r)).join('\n'),
      })
    // one row, and a body big enough for the engine-mapped path
    const one = await send([{ ts: '2024-01-01T00:00:00Z', n: 0, flag: '2' }])
    expect(one.status, one.text).toBe(200)
    const values = ['2', '0', 2, 0, '-1.5', '0.0', 'true', 'false']
    const engineBefore = ingestPaths.engine
    const many = await send(
      Array.from({ length: 400 }, (_, i) => ({
        ts: '2024-01-01T00:00:01Z',
        n: i + 1,
        flag: values[i % values.length],
      })),
    )
    expect(many.status, many.text).toBe(200)
    // the engine's own mapping took it (not the JavaScript mapper it falls back to)
    expect(ingestPaths.engine - engineBefore).toBe(1)
    expect(await queryText('SELECT flag FROM test_ci_project.test_ci_table_bool WHERE n = 0')).toBe('true')
    const byValue = await queryText(
      'SELECT groupArray(flag) FROM (SELECT flag FROM test_ci_project.test_ci_table_bool WHERE ' +
        'n BETWEEN 1 AND 8 ORDER BY n) FORMAT TabSeparated',
    )
    expect(byValue).toBe('[true,false,true,false,true,false,true,false]')
    // what is not a number nor a boolean word is still refused
    const refused = await send([{ ts: '2024-01-01T00:00:00Z', n: 1, flag: 'maybe' }])
    expect(refused.status).toBe(400)
  })

  it('the built-in roles a real install has: super_admin, user_admin, operator, read_only (role list, assign-role)', async () => {
    const names = unwrapList((await api.get('/config/v1/roles/')).body).map((r) => r.name)
    expect(names).toEqual(expect.arrayContaining(['super_admin', 'user_admin', 'operator', 'read_only']))
    // service-account create test_ci_service_account --role read_only
    const sa = await api.post('/config/v1/service_accounts/', {
      name: 'test_ci_service_account',
      description: 'Created with hdxcli tool',
    })
    expect([200, 201]).toContain(sa.status)
    const add = await api.post(`/config/v1/users/${sa.body.uuid}/add_roles/`, { roles: ['read_only'] })
    expect([200, 201], JSON.stringify(add.body)).toContain(add.status)
    const listed = unwrapList((await api.get('/config/v1/users/')).body).find((u) => u.uuid === sa.body.uuid)
    expect(listed.roles).toContain('read_only')
    // user invite send ... -r super_admin; user assign-role ... -r read_only; remove-role user_admin
    const invite = await api.post('/config/v1/invite/', {
      email: 'user_invite_cli@hydrolix.io',
      org,
      roles: ['super_admin'],
    })
    expect([200, 201], JSON.stringify(invite.body)).toContain(invite.status)
    const user = unwrapList((await api.get('/config/v1/users/')).body).find(
      (u) => u.email === 'user_invite_cli@hydrolix.io',
    )
    const assign = await api.post(`/config/v1/users/${user.uuid}/add_roles/`, { roles: ['read_only', 'user_admin'] })
    expect([200, 201], JSON.stringify(assign.body)).toContain(assign.status)
    const remove = await api.post(`/config/v1/users/${user.uuid}/remove_roles/`, { roles: ['user_admin'] })
    expect([200, 201], JSON.stringify(remove.body)).toContain(remove.status)
    // read_only reads and queries, changes nothing
    const tok = await api.post(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    const reader = { Authorization: `Bearer ${tok.body.token}`, Accept: 'application/json' }
    expect((await raw('GET', `${o()}/projects/`, { headers: reader })).status).toBe(200)
    expect((await raw('GET', '/config/v1/users/', { headers: reader })).status).toBe(200)
    expect(
      (
        await raw('POST', `${o()}/projects/`, {
          headers: { ...reader, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'nope' }),
        })
      ).status,
    ).toBe(403)
  })

  it("a real cluster's error texts: duplicate role, unknown role, inviting an existing user", async () => {
    // role create test_ci_role --permission change_table, twice -> "Error: This field must be unique."
    const role = { name: 'test_ci_role', policies: [{ permissions: ['change_table'] }] }
    expect([200, 201]).toContain((await api.post('/config/v1/roles/', role)).status)
    const again = await api.post('/config/v1/roles/', role)
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ name: ['This field must be unique.'] })
    // user assign-role EMAIL -r role_non-exist -> "Error: Object with name=role_non-exist does not exist."
    const user = unwrapList((await api.get('/config/v1/users/')).body).find(
      (u) => u.email === 'user_invite_cli@hydrolix.io',
    )
    const unknown = await api.post(`/config/v1/users/${user.uuid}/add_roles/`, { roles: ['role_non-exist'] })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ roles: ['Object with name=role_non-exist does not exist.'] })
    // user invite send EMAIL -r super_admin, twice -> "Error: User already exists. ..."
    const twice = await api.post('/config/v1/invite/', {
      email: 'user_invite_cli@hydrolix.io',
      org,
      roles: ['super_admin'],
    })
    expect(twice.status).toBe(400)
    expect(twice.body).toEqual({
      email: ['User already exists. if trying to resend an invite, use /invites/<invite_id>/resend_invite.'],
    })
    // and an active user (the admin)
    const admin = await api.post('/config/v1/invites/', { email: c.handler.admin.email, org, roles: ['reader'] })
    expect(admin.body.email?.[0]).toMatch(/^User already exists\./)
  })
})
