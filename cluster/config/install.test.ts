import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'
import { INSTALL_POOLS, INSTALL_STORAGE, installBucketName } from './install'

/** A fresh cluster has what a real install has (its pools and its default bucket), once. */

let t: TestCluster

beforeAll(async () => {
  t = await startTestCluster()
})
afterAll(async () => {
  await t?.close()
})

const poolNames = (body: { results: { name: string }[] }) => body.results.map((p) => p.name).sort()

test('a fresh cluster lists the install pools: intake, query and three merge pools', async () => {
  const pools = await t.api('GET', '/config/v1/pools/')
  expect(pools.status).toBe(200)
  expect(poolNames(pools.body)).toEqual(['intake-head', 'merge-peer', 'merge-peer-ii', 'merge-peer-iii', 'query-peer'])
  const byName = Object.fromEntries(pools.body.results.map((p: { name: string }) => [p.name, p]))
  expect(byName['query-peer']).toMatchObject({
    type: 'search',
    settings: { is_default: true, k8s_deployment: { service: 'query-peer', replicas: '1' } },
  })
  expect(byName['intake-head']).toMatchObject({
    type: 'ingest',
    settings: { k8s_deployment: { service: 'intake-head' } },
  })
  for (const name of ['merge-peer', 'merge-peer-ii', 'merge-peer-iii']) {
    expect(byName[name]).toMatchObject({ type: 'core', settings: { k8s_deployment: { service: 'merge-peer' } } })
  }
  // answered like any pool: a uuid, a url, and readable one by one
  const one = await t.api('GET', `/config/v1/pools/${byName['merge-peer-ii'].uuid}/`)
  expect(one.status).toBe(200)
  expect(one.body).toMatchObject({ name: 'merge-peer-ii', description: expect.stringContaining('medium') })
})

test('a fresh cluster has one default storage, a local bucket named as an install names it', async () => {
  const storages = await t.api('GET', `/config/v1/orgs/${t.orgId}/storages/`)
  expect(storages.status).toBe(200)
  expect(storages.body.results).toHaveLength(1)
  expect(storages.body.results[0]).toMatchObject({
    name: INSTALL_STORAGE.name,
    settings: { bucket_name: installBucketName(t.orgId), bucket_path: '/', cloud: 'local', is_default: true },
  })
  expect(installBucketName(t.orgId)).toMatch(/^hdxcli-[0-9a-f]{8}$/)
})

test('the install pools and storage behave like any other: editable, the pools deletable', async () => {
  const pools = await t.api('GET', '/config/v1/pools/')
  const query = pools.body.results.find((p: { name: string }) => p.name === 'query-peer')
  const changed = await t.api('PATCH', `/config/v1/pools/${query.uuid}/`, {
    settings: { k8s_deployment: { replicas: '2-4' } },
  })
  expect(changed.status).toBe(200)
  expect(changed.body.settings.k8s_deployment).toMatchObject({ replicas: '2-4', service: 'query-peer' })
  const summary = await t.api('GET', `/config/v1/orgs/${t.orgId}/summary`)
  expect(summary.body).toMatchObject({ pools: INSTALL_POOLS.length, storages: 1 })
})

test('a restart on the same data directory does not add them again', async () => {
  const before = await t.api('GET', '/config/v1/pools/')
  const merge3 = before.body.results.find((p: { name: string }) => p.name === 'merge-peer-iii')
  expect((await t.api('DELETE', `/config/v1/pools/${merge3.uuid}/`)).status).toBe(204)
  await t.close({ keepData: true })

  t = await startTestCluster({ dataDir: t.dataDir })
  const after = await t.api('GET', '/config/v1/pools/')
  // the one deleted stays deleted, none doubled, the edit kept
  expect(poolNames(after.body)).toEqual(['intake-head', 'merge-peer', 'merge-peer-ii', 'query-peer'])
  expect(
    after.body.results.find((p: { name: string }) => p.name === 'query-peer').settings.k8s_deployment.replicas,
  ).toBe('2-4')
  const storages = await t.api('GET', `/config/v1/orgs/${t.orgId}/storages/`)
  expect(storages.body.results.map((s: { name: string }) => s.name)).toEqual([INSTALL_STORAGE.name])

  // and a third start still has exactly those
  await t.close({ keepData: true })
  t = await startTestCluster({ dataDir: t.dataDir })
  expect((await t.api('GET', '/config/v1/pools/')).body.count).toBe(4)
})
