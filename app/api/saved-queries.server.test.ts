import { describe, expect, it } from 'vitest'
import { ClusterError } from './errors.server'
import { TEST_CLUSTER_URL } from '#tests/env'
import { clusterAdminLogin } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { createClusterApi } from './client.server'
import {
  ensureStore,
  flushHistoryWrites,
  forgetStore,
  HISTORY_WRITE_MS,
  listHistory,
  queueHistoryEntry,
  SavedQueriesUnavailable,
} from './saved-queries.server'
import { runQuery } from './query.server'
import { clearReadCache } from './read-cache.server'

useTestCluster()

async function adminApi(userId: string) {
  const { token, orgId } = await clusterAdminLogin()
  return createClusterApi({ token, orgId, userId, expiresAt: 0, expiresIn: 1 }, { origin: TEST_CLUSTER_URL })
}

const run = (sql: string, rows = 1) => ({ sql, options: '{}', elapsedMs: 5, rows, error: '' })

describe('query history', () => {
  it("shows this process's runs at once, newest first, each statement once with its latest outcome, at most `limit`", async () => {
    forgetStore()
    const api = await adminApi('history-user-1')
    // The history is on once its store exists (issue 37: a run never creates it). The client's
    // reads are shared for as long as it lives (one request), so what follows comes from this
    // process's own runs, merged into the first read.
    await ensureStore(api)
    await queueHistoryEntry(api, run('SELECT 0'))
    expect((await listHistory(api, 5)).map((entry) => entry.sql)).toEqual(['SELECT 0'])
    // each run is listed when it is queued; its write (with the others, decision 053) is awaited at the end
    const writes: Promise<void>[] = []
    for (let index = 0; index < 30; index++) writes.push(queueHistoryEntry(api, run(`SELECT ${index}`)))
    writes.push(queueHistoryEntry(api, run('SELECT 3', 42)))
    const listed = await listHistory(api, 5)
    expect(listed.map((entry) => entry.sql)).toEqual(['SELECT 3', 'SELECT 29', 'SELECT 28', 'SELECT 27', 'SELECT 26'])
    expect(listed[0]!.rows).toBe(42)
    expect((await listHistory(api, 40)).length).toBe(30)
    // the same statement run again and again is one entry, with its latest outcome
    for (let index = 0; index < 50; index++) writes.push(queueHistoryEntry(api, run('SELECT 28', index)))
    const again = await listHistory(api, 5)
    expect(again.map((entry) => entry.sql)).toEqual(['SELECT 28', 'SELECT 3', 'SELECT 29', 'SELECT 27', 'SELECT 26'])
    expect(again[0]!.rows).toBe(49)
    await Promise.all(writes)
  })

  /** `api` with its history writes counted: the rows each /ingest/event call carried. */
  function counted(api: Awaited<ReturnType<typeof adminApi>>, fail?: () => unknown) {
    const writes: number[] = []
    const watched: typeof api = {
      ...api,
      stream: (method, path, options) => {
        if (path === '/ingest/event') {
          writes.push((JSON.parse(String(options?.body)) as unknown[]).length)
          if (fail) return Promise.reject(fail())
        }
        return api.stream(method, path, options)
      },
    }
    return { api: watched, writes }
  }

  it("writes a user's runs at most once a HISTORY_WRITE_MS, those come meanwhile together, each shown at once (decision 053)", async () => {
    forgetStore()
    // (the tests' clients share one admin login, so one session key: the first test's history read is kept for it)
    clearReadCache()
    const { api, writes } = counted(await adminApi('history-user-2'))
    await ensureStore(api)
    const firstQueued = Date.now()
    const first = queueHistoryEntry(api, run('SELECT 1 AS first'))
    expect((await listHistory(api, 5)).map((entry) => entry.sql)).toEqual(['SELECT 1 AS first'])
    await first
    expect(writes).toEqual([1])
    // three runs from two sessions of the same user while the first write's interval runs
    const other = counted(await adminApi('history-user-2'))
    const later = [
      queueHistoryEntry(api, run('SELECT 2')),
      queueHistoryEntry(other.api, run('SELECT 3')),
      queueHistoryEntry(api, run('SELECT 4')),
    ]
    expect((await listHistory(api, 5)).map((entry) => entry.sql)).toEqual([
      'SELECT 4',
      'SELECT 3',
      'SELECT 2',
      'SELECT 1 AS first',
    ])
    await Promise.all(later)
    // the second write began no sooner than an interval after the first began
    expect(Date.now() - firstQueued).toBeGreaterThanOrEqual(HISTORY_WRITE_MS)
    // one write for the three, through the latest session's client
    expect([...writes, ...other.writes]).toEqual([1, 3])
    const answer = await runQuery(
      api,
      "SELECT count() AS n FROM cluster_console.query_history WHERE user_id = 'history-user-2'",
      { hdx_query_output_format: 'JSONEachRow', hdx_query_timerange_required: 'false' },
    )
    expect(Number((JSON.parse(answer.text.trim()) as { n: unknown }).n)).toBe(4)
  })

  it('fails every run written together when their write fails, and writes what waits at once when the server stops', async () => {
    const { api, writes } = counted(
      await adminApi('history-user-3'),
      () => new ClusterError({ status: 403, url: '/ingest/event' }),
    )
    await expect(queueHistoryEntry(api, run('SELECT 1'))).rejects.toBeInstanceOf(SavedQueriesUnavailable)
    const both = [queueHistoryEntry(api, run('SELECT 2')), queueHistoryEntry(api, run('SELECT 3'))]
    const outcomes = Promise.allSettled(both)
    // stopping: written now, not after the interval
    await flushHistoryWrites()
    expect(writes).toEqual([1, 2])
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
  })
})
