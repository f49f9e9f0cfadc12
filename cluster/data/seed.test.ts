import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'
import { WEB_LOG_COLUMNS } from './seed'

let c: TestCluster

beforeAll(async () => {
  c = await startTestCluster({ seed: { rows: 5000 } })
})

afterAll(async () => {
  await c?.close()
})

const q = async (sql: string) => {
  const r = await c.api('POST', '/query', sql)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return String(r.body).trim()
}

describe('seed', () => {
  it('creates sample.web_logs with realistic rows over the last 7 days', async () => {
    expect(await q('SELECT count() FROM sample.web_logs')).toBe('5000')
    const span = await q("SELECT dateDiff('hour', min(timestamp), max(timestamp)) FROM sample.web_logs")
    expect(Number(span)).toBeGreaterThan(24 * 5)
    expect(Number(await q('SELECT max(timestamp) <= now64(3) FROM sample.web_logs'))).toBe(1)
    // a status mix dominated by 200, some 404s and 5xx
    const ok = Number(await q('SELECT countIf(status = 200) / count() FROM sample.web_logs'))
    expect(ok).toBeGreaterThan(0.7)
    expect(Number(await q('SELECT countIf(status >= 500) FROM sample.web_logs'))).toBeGreaterThan(0)
    expect(Number(await q('SELECT uniqExact(country) FROM sample.web_logs'))).toBeGreaterThan(10)
    expect(Number(await q('SELECT uniqExact(path) FROM sample.web_logs'))).toBeGreaterThan(50)
    // hourly pattern: evening busier than early morning
    const evening = Number(await q('SELECT countIf(toHour(timestamp) BETWEEN 17 AND 20) FROM sample.web_logs'))
    const night = Number(await q('SELECT countIf(toHour(timestamp) BETWEEN 2 AND 5) FROM sample.web_logs'))
    expect(evening).toBeGreaterThan(night * 2)
  })

  it('has a default JSON transform and table stats', async () => {
    const projects = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/`)
    const sample = projects.body.results.find((p: { name: string }) => p.name === 'sample')
    const tables = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/${sample.uuid}/tables/`)
    const web = tables.body.results.find((t: { name: string }) => t.name === 'web_logs')
    expect(web.primary_key).toBe('timestamp')
    const stats = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/${sample.uuid}/tables/${web.uuid}/stats`)
    expect(stats.body.total_rows).toBe(5000)
    expect(stats.body.total_partitions).toBeGreaterThanOrEqual(7)
    expect(stats.body.compression_ratio).toBeGreaterThan(1)
  })

  it('creates a usable function and dictionary', async () => {
    expect(await q('SELECT sample_kb(2048)')).toBe('2')
    expect(await q("SELECT dictGet('sample_countries', 'name', tuple('FR'))")).toBe('"France"')
    expect(Number(await q('SELECT count() FROM sample_countries'))).toBeGreaterThan(10)
    // the dictionary file went through the multipart upload, so it is downloadable as uploaded
    const projects = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/`)
    const sample = projects.body.results.find((p: { name: string }) => p.name === 'sample')
    const files = `/config/v1/orgs/${c.orgId}/projects/${sample.uuid}/dictionaries/files/`
    expect((await c.api('GET', files)).body.results).toEqual(['countries.csv'])
    const download = await c.api('GET', `${files}countries.csv`)
    expect(download.status).toBe(200)
    expect(String(download.body)).toMatch(/^code,name\n/)
  })

  it('downloads the table catalog (its partitions) as CSV', async () => {
    const r = await c.api('GET', `/config/v1/orgs/${c.orgId}/catalog/download/?project=sample&table=web_logs`)
    expect(r.status).toBe(200)
    const lines = String(r.body).trim().split('\n')
    expect(lines[0]).toMatch(/^created,modified,min_timestamp,max_timestamp,/)
    expect(lines.length).toBeGreaterThanOrEqual(8)
    const rows = lines.slice(1).reduce((acc, l) => acc + Number(l.split(',')[10]), 0)
    expect(rows).toBe(5000)
    expect((await c.api('GET', `/config/v1/orgs/${c.orgId}/catalog/download/?project=sample`)).status).toBe(400)
  })

  it('writes the sample bucket for batch jobs', () => {
    const dir = path.join(c.dataDir, 'buckets', 'sample-bucket', 'web-logs')
    expect(fs.readdirSync(dir).sort()).toEqual(['part-0001.json', 'part-0002.json.gz'])
  })

  it('follows project and table renames, truncate and deletes in the engine', async () => {
    const projects = await c.api('GET', `/config/v1/orgs/${c.orgId}/projects/`)
    const sample = projects.body.results.find((p: { name: string }) => p.name === 'sample')
    const pUrl = `/config/v1/orgs/${c.orgId}/projects/${sample.uuid}`
    expect((await c.api('PATCH', pUrl, { name: 'demo' })).status).toBe(200)
    expect(await q('SELECT count() FROM demo.web_logs')).toBe('5000')
    expect(await q("SELECT dictGet('demo_countries', 'name', tuple('JP'))")).toBe('"Japan"')
    const tables = await c.api('GET', `${pUrl}/tables/`)
    const web = tables.body.results.find((t: { name: string }) => t.name === 'web_logs')
    expect((await c.api('PATCH', `${pUrl}/tables/${web.uuid}`, { name: 'access' })).status).toBe(200)
    expect(await q('SELECT count() FROM demo.access')).toBe('5000')
    expect((await c.api('POST', `${pUrl}/tables/${web.uuid}/truncate/`)).status).toBeLessThan(300)
    expect(await q('SELECT count() FROM demo.access')).toBe('0')
    expect((await c.api('DELETE', pUrl)).status).toBe(204)
    const gone = await c.api('POST', '/query', 'SELECT count() FROM demo.access')
    expect(gone.status).toBe(400)
    expect(gone.body.error).toMatch(/Code: (60|81)\./)
    const fn = await c.api('POST', '/query', 'SELECT sample_kb(1)')
    expect(fn.status).toBe(400)
  })
})

// ---------------------------------------------------------------------------------------------

function startProcess(
  dataDir: string,
): Promise<{ child: ChildProcess; base: string; admin: { email: string; password: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cluster/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..', '..'),
      env: {
        ...process.env,
        UV_THREADPOOL_SIZE: '16',
        CLUSTER_PORT: '0',
        CLUSTER_DATA_DIR: dataDir,
        CLUSTER_SEED_ROWS: '0',
        CLUSTER_ADMIN_EMAIL: 'kill@example.com',
        CLUSTER_ADMIN_PASSWORD: 'kill-password-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`cluster did not start: ${out}\n${err}`)), 60_000)
    child.stdout!.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/[^\s]+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ child, base: m[1], admin: { email: 'kill@example.com', password: 'kill-password-1' } })
      }
    })
    child.stderr!.on('data', (d) => (err += d))
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`cluster exited with ${code}: ${out}\n${err}`))
    })
  })
}

describe('kill -9', () => {
  it('keeps acknowledged objects and ingested rows across kill -9 and restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-kill-'))
    try {
      // eslint-disable-next-line prefer-const -- child and base are replaced on restart, admin is not
      let { child, base, admin } = await startProcess(dataDir)
      const login = await fetch(`${base}/config/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: admin.email, password: admin.password }),
      })
      const { auth_token, orgs } = await login.json()
      const headers = { authorization: `Bearer ${auth_token.access_token}`, 'content-type': 'application/json' }
      const org = orgs[0].uuid
      const post = async (p: string, body: unknown) => {
        const r = await fetch(`${base}${p}`, { method: 'POST', headers, body: JSON.stringify(body) })
        expect(r.status, await r.clone().text()).toBe(201)
        return r.json()
      }
      const project = await post(`/config/v1/orgs/${org}/projects/`, { name: 'durable' })
      const table = await post(`/config/v1/orgs/${org}/projects/${project.uuid}/tables/`, { name: 'events' })
      await post(`/config/v1/orgs/${org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
        name: 'json',
        type: 'json',
        settings: { is_default: true, output_columns: WEB_LOG_COLUMNS },
      })
      const rows = Array.from({ length: 250 }, (_, i) => ({
        timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
        path: `/p${i}`,
        status: 200,
      }))
      const ing = await fetch(`${base}/ingest/event`, {
        method: 'POST',
        headers: { ...headers, 'x-hdx-table': 'durable.events' },
        body: JSON.stringify(rows),
      })
      expect(ing.status, await ing.clone().text()).toBe(200)

      child.kill('SIGKILL')
      await new Promise((r) => child.once('exit', r))
      ;({ child, base } = await startProcess(dataDir))
      try {
        const login2 = await fetch(`${base}/config/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: admin.email, password: admin.password }),
        })
        const token = (await login2.json()).auth_token.access_token
        const h2 = { authorization: `Bearer ${token}` }
        const t = await fetch(`${base}/config/v1/orgs/${org}/projects/${project.uuid}/tables/${table.uuid}`, {
          headers: h2,
        })
        expect(t.status).toBe(200)
        expect((await t.json()).name).toBe('events')
        const count = await fetch(`${base}/query`, {
          method: 'POST',
          headers: h2,
          body: 'SELECT count(), uniqExact(path) FROM durable.events',
        })
        expect(count.status).toBe(200)
        expect((await count.text()).trim()).toBe('250,250')
      } finally {
        child.kill('SIGKILL')
        await new Promise((r) => child.once('exit', r))
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
