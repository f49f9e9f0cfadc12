/**
 * Decision 089: a large answer is parsed once per content and shared, frozen; every request still
 * asks the cluster, so a change made anywhere is seen on the next read.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { callPaths, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { loader as ingestLoader } from '~/routes/_console+/scale+/_index'
import { requireApi } from './client.server'
import { listPools } from './pools.server'
import { parseShared } from './shared-answers.server'

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  // enough pools for the answer to be shared (16 K characters and more)
  for (let index = 0; index < 40; index++)
    await clusterCall('POST', '/config/v1/pools/', {
      name: `shared-${String(index).padStart(2, '0')}`,
      type: 'ingest',
      description: 'A pool among many, for an answer large enough to share',
      settings: { k8s_deployment: { service: 'stream-head', replicas: '1', cpu: '1', memory: '1Gi', storage: '1Gi' } },
    })
})

describe('parseShared', () => {
  it('gives the same frozen value for the same large text, a new one for other text, and parses a small text as usual', () => {
    const large = JSON.stringify({ results: Array.from({ length: 600 }, (_, i) => ({ name: `item-${i}`, n: i })) })
    const first = parseShared(large) as { results: { name: string }[] }
    expect(parseShared(large)).toBe(first)
    expect(Object.isFrozen(first.results[3])).toBe(true)
    expect(() => {
      ;(first.results[3] as { name: string }).name = 'changed'
    }).toThrow(TypeError)
    const other = parseShared(large.replace('item-3"', 'item-X"')) as typeof first
    expect(other).not.toBe(first)
    expect(other.results[3]!.name).toBe('item-X')
    const small = '{"a":[1,2]}'
    expect(parseShared(small)).not.toBe(parseShared(small))
    expect(Object.isFrozen(parseShared(small))).toBe(false)
    expect(() => parseShared(`${large}}`)).toThrow(SyntaxError)
  })
})

describe("the org's pools, shared between requests", () => {
  it('are one read per request, shared while the cluster answers the same, and new on the next read after a change', async () => {
    const read = async () => listPools(await requireApi(get('/scale', cookie)))
    let first: Awaited<ReturnType<typeof read>> = []
    let second: typeof first = []
    const paths = await callPaths(
      async () => {
        first = await read()
        second = await read()
      },
      (path) => path.startsWith('/config/v1/pools'),
    )
    expect(paths).toHaveLength(2)
    expect(second).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    const shared = first.find((pool) => pool.name === 'shared-07')!
    await clusterCall('PATCH', `/config/v1/pools/${shared.uuid}`, { description: 'changed by another tool' })
    const after = await read()
    expect(after).not.toBe(first)
    expect(after.find((pool) => pool.name === 'shared-07')!.description).toBe('changed by another tool')
    // the Scale tab's rows and totals follow
    const tab = await ingestLoader(args(get('/scale?q=shared-07', cookie)))
    expect(tab.rows.map((row) => [row.name, row.description])).toEqual([['shared-07', 'changed by another tool']])
    expect(tab.totals.pools).toBeGreaterThanOrEqual(40)
  })
})
