import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'

/*
 * Two consoles behind a round-robin balancer (issue 37): each "replica" is its own copy of the
 * console's modules (vi.resetModules, so its own caches, result cache and recent runs), both with
 * the same SESSION_SECRET in front of one cluster. A change made through one is seen through the
 * other at once, a result page and its streamed rows split across both work, and History lists the
 * runs made through both.
 */

useTestCluster()

type Replica = {
  tables: typeof import('./data+/tables._index')
  newTable: typeof import('./data+/new-table')
  result: typeof import('./result')
  rows: typeof import('../resources+/query-rows')
  editor: typeof import('./queries+/_index')
  store: typeof import('~/api/saved-queries.server')
  client: typeof import('~/api/client.server')
}

async function startReplica(): Promise<Replica> {
  vi.resetModules()
  return {
    tables: await import('./data+/tables._index'),
    newTable: await import('./data+/new-table'),
    result: await import('./result'),
    rows: await import('../resources+/query-rows'),
    editor: await import('./queries+/_index'),
    store: await import('~/api/saved-queries.server'),
    client: await import('~/api/client.server'),
  }
}

let cookie: string
let replicas: Replica[]
let turn = 0
/** The balancer: each request goes to the next replica. */
const next = () => replicas[turn++ % replicas.length]!

beforeAll(async () => {
  cookie = await loginAsAdmin()
  replicas = [await startReplica(), await startReplica()]
  expect(replicas[0]!.result).not.toBe(replicas[1]!.result)
})

const tableNames = async (replica: Replica, q: string) =>
  (await replica.tables.loader(args(get(`/data/tables?q=${q}`, cookie)))).rows.map((row) => row.table?.name)

describe('two consoles behind a round-robin balancer', () => {
  it('a table created through one is listed through the other at once, after both have read the list', async () => {
    const [a, b] = replicas as [Replica, Replica]
    expect(await tableNames(a, 'replica_')).toEqual([])
    expect(await tableNames(b, 'replica_')).toEqual([])
    const created = await responseFrom(() =>
      a.newTable.action(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: 'replica_p', name: 'replica_t' }, cookie)),
      ),
    )
    expect(created.status).toBe(302)
    expect(await tableNames(b, 'replica_')).toContain('replica_t')
    // a setting changed through the cluster's API (a third client) shows through both at once too
    const projects = await clusterCall<{ results: { uuid: string; name: string }[] }>(
      'GET',
      '/config/v1/orgs/{org}/projects/',
    )
    const project = projects.results.find((p) => p.name === 'replica_p')!
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, { name: 'replica_u' })
    expect(await tableNames(a, 'replica_')).toContain('replica_u')
    expect(await tableNames(b, 'replica_')).toContain('replica_u')
  })

  it('a Run through one, its page through the other, its streamed rows through the first: each answers', async () => {
    const sql = 'SELECT number AS n FROM numbers(2000)'
    const ran = await responseFrom(() => next().result.action(args(post('/result', { sql }, cookie))))
    expect(ran.status).toBe(302)
    const link = ran.headers.get('Location')!.replace('#result', '')
    const run = new URL(link, 'http://console.test').searchParams.get('run')!
    const page = unwrap(await next().result.loader(args(get(link, cookie))))
    expect(page.status).toBe(200)
    expect(page.data.outcome).toMatchObject({ kind: 'rows', rowCount: 2000 })
    for (let i = 0; i < 2; i++) {
      const rows = await next().rows.loader(
        args(get(`/resources/query-rows?${new URLSearchParams({ sql, run, from: '500' })}`, cookie)),
      )
      expect(rows.status).toBe(200)
      const lines = (await rows.text()).trim().split('\n')
      expect(lines).toHaveLength(1500)
      expect(JSON.parse(lines[0]!)).toEqual(['500'])
    }
    const second = unwrap(await next().result.loader(args(get(`${link}&page=2`, cookie))))
    expect(second.data.outcome).toMatchObject({ kind: 'rows', offset: 500, rowCount: 2000 })
  })

  it('History lists the runs made through both, through either, at once', async () => {
    const [a, b] = replicas as [Replica, Replica]
    // the history is on once its store exists (a first save or Settings; issue 37)
    const api = a.client.createClusterApi(
      await (await import('~/utils/session.server')).requireSession(get('/queries', cookie)),
    )
    await a.store.ensureStore(api)
    for (const [replica, sql] of [
      [a, 'SELECT 1 AS through_a'],
      [b, 'SELECT 2 AS through_b'],
    ] as const) {
      const ran = await responseFrom(() => replica.result.action(args(post('/result', { sql }, cookie))))
      expect(ran.status).toBe(302)
    }
    for (const replica of [a, b]) {
      const page = (await returnedOrThrown(() => replica.editor.loader(args(get('/queries', cookie))))) as {
        history: { sql: string }[]
      }
      const sqls = page.history.map((entry) => entry.sql)
      expect(sqls).toContain('SELECT 1 AS through_a')
      expect(sqls).toContain('SELECT 2 AS through_b')
    }
  })
})
