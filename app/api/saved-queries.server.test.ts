import { describe, expect, it } from 'vitest'
import { TEST_CLUSTER_URL } from '#tests/env'
import { clusterAdminLogin } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { createClusterApi } from './client.server'
import { addHistoryEntry, forgetStore, listHistory } from './saved-queries.server'

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
    // One run sets the store up; the next read is then kept for the session (30 s), so what follows
    // comes from this process's own runs, merged into it.
    await addHistoryEntry(api, run('SELECT 0'))
    expect((await listHistory(api, 5)).map((entry) => entry.sql)).toEqual(['SELECT 0'])
    for (let index = 0; index < 30; index++) await addHistoryEntry(api, run(`SELECT ${index}`))
    await addHistoryEntry(api, run('SELECT 3', 42))
    const listed = await listHistory(api, 5)
    expect(listed.map((entry) => entry.sql)).toEqual(['SELECT 3', 'SELECT 29', 'SELECT 28', 'SELECT 27', 'SELECT 26'])
    expect(listed[0]!.rows).toBe(42)
    expect((await listHistory(api, 40)).length).toBe(30)
    // the same statement run again and again is one entry, with its latest outcome
    for (let index = 0; index < 50; index++) await addHistoryEntry(api, run('SELECT 28', index))
    const again = await listHistory(api, 5)
    expect(again.map((entry) => entry.sql)).toEqual(['SELECT 28', 'SELECT 3', 'SELECT 29', 'SELECT 27', 'SELECT 26'])
    expect(again[0]!.rows).toBe(49)
  })
})
