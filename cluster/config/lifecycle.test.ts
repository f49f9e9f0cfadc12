import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createCluster, type ClusterHandler } from '../index'
import { apiFor, startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from '../test-helpers'

/**
 * A cluster imitating v5.3 (bare-array lists), with 2-second tokens, then restarted on the same
 * data directory as a current version: everything is still there, lists are paginated again.
 */

let t: TestCluster
let reopened: ClusterHandler | undefined
let o: string

const fresh = async (handler: (r: Request) => Promise<Response>) => {
  const r = await apiFor(handler)('POST', '/config/v1/login', {
    username: TEST_ADMIN_EMAIL,
    password: TEST_ADMIN_PASSWORD,
  })
  return apiFor(handler, r.body.auth_token.access_token)
}

beforeAll(async () => {
  t = await startTestCluster({ version: 'v5.3.0', tokenTtlSeconds: 2 })
  o = `/config/v1/orgs/${t.orgId}`
})

afterAll(async () => {
  await reopened?.close()
  if (t) fs.rmSync(t.dataDir, { recursive: true, force: true })
})

test('before v5.4 lists are bare arrays', async () => {
  const api = await fresh(t.handler)
  const p = await api('POST', `${o}/projects`, { name: 'kept', description: 'survives restarts' })
  expect(p.status).toBe(201)
  await api('POST', `${o}/projects/${p.body.uuid}/tables`, { name: 'tbl', settings: { shard_key: 'host' } })
  const projects = await api('GET', `${o}/projects/`)
  expect(Array.isArray(projects.body)).toBe(true)
  expect(projects.body[0].name).toBe('kept')
  for (const path of [
    '/config/v1/roles',
    '/config/v1/users',
    '/config/v1/pools',
    `${o}/storages`,
    `${o}/projects/${p.body.uuid}/tables`,
  ]) {
    const r = await api('GET', path)
    expect(Array.isArray(r.body), path).toBe(true)
  }
  expect((await api('GET', '/version')).body).toBe('v5.3.0')
})

test('a token expires after tokenTtlSeconds', async () => {
  const login = await apiFor(t.handler)('POST', '/config/v1/login', {
    username: TEST_ADMIN_EMAIL,
    password: TEST_ADMIN_PASSWORD,
  })
  expect(login.body.auth_token.expires_in).toBe(2)
  const api = apiFor(t.handler, login.body.auth_token.access_token)
  expect((await api('GET', '/config/v1/users/current')).status).toBe(200)
  await new Promise((r) => setTimeout(r, 2100))
  const r = await api('GET', '/config/v1/users/current')
  expect(r.status).toBe(401)
  expect(r.body.detail).toMatch(/expired/i)
})

test('restart on the same directory keeps everything', async () => {
  const admin = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'admin.json'), 'utf8'))
  expect(admin).toEqual({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD })
  expect(fs.statSync(path.join(t.dataDir, 'admin.json')).mode & 0o777).toBe(0o600)
  await t.close({ keepData: true })
  reopened = await createCluster({ dataDir: t.dataDir, seed: false })
  expect(reopened.orgId).toBe(t.orgId)
  expect(reopened.admin.email).toBe(TEST_ADMIN_EMAIL)
  const api = await fresh(reopened)
  const projects = await api('GET', `${o}/projects`)
  expect(projects.body.count).toBe(1)
  const kept = projects.body.results[0]
  expect(kept).toMatchObject({ name: 'kept', description: 'survives restarts' })
  const tables = await api('GET', `${o}/projects/${kept.uuid}/tables`)
  expect(tables.body.results[0].settings.shard_key).toBe('host')
  expect((await api('GET', '/config/v1/roles')).body.count).toBe(7)
  const trail = await api('GET', `${o}/audit_trail`)
  expect(trail.body.results.some((e: { action: string }) => e.action === 'add_project')).toBe(true)
})
