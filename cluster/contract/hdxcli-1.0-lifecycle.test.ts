/**
 * Issue 32, beside hdxcli-1.0.test.ts (one engine data directory per process, so one cluster at a
 * time here): an unreachable batch source fails once its wait is over, and a data directory made
 * before the roles a real install has existed opens and gains them.
 */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type Role } from '../config/access'
import { createCluster } from '../index'
import { startTestCluster } from '../test-helpers'
import { HDXCLI_CSV_TRANSFORM } from './helpers'

describe('the wait for an unreachable batch source ends', () => {
  it('in failed with the reason once the wait is over', async () => {
    const t = await startTestCluster({ batchSourceWaitMs: 400 })
    try {
      const base = `/config/v1/orgs/${t.orgId}`
      const p = await t.api('POST', `${base}/projects/`, { name: 'w' })
      const tb = await t.api('POST', `${base}/projects/${p.body.uuid}/tables/`, { name: 't' })
      await t.api('POST', `${base}/projects/${p.body.uuid}/tables/${tb.body.uuid}/transforms/`, {
        ...HDXCLI_CSV_TRANSFORM,
        name: 'csv',
      })
      const job = await t.api('POST', `${base}/jobs/batch/`, {
        name: 'unreachable',
        settings: { source: { table: 'w.t', transform: 'csv', settings: { url: 's3://nowhere/x/' } } },
      })
      expect(job.status).toBe(201)
      const started = Date.now()
      expect((await t.api('GET', `${base}/jobs/batch/${job.body.uuid}`)).body.status).toBe('ready')
      let last: any
      for (;;) {
        last = await t.api('GET', `${base}/jobs/batch/${job.body.uuid}`)
        if (last.body.status !== 'ready' && last.body.status !== 'running') break
        if (Date.now() - started > 10_000) break
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(last.body.status).toBe('failed')
      expect(last.body.error).toMatch(/^Cannot reach s3:\/\/nowhere\/x\//)
      expect(Date.now() - started).toBeGreaterThanOrEqual(350)
    } finally {
      await t.close()
    }
  })
})

describe('a data directory made before these roles existed', () => {
  it('opens, keeps what it had, and gains the missing built-in roles on start', async () => {
    const t = await startTestCluster()
    const { dataDir } = t
    try {
      const base = `/config/v1/orgs/${t.orgId}`
      expect((await t.api('POST', `${base}/projects/`, { name: 'kept' })).status).toBe(201)
      // what an older version's store held: no user_admin, no read_only
      const { store } = t.handler.state
      for (const name of ['user_admin', 'read_only']) {
        const r = store.find<Role>('role', (x) => x.name === name)!
        store.delete('role', String(r.id))
      }
      await t.close({ keepData: true })
      const reopened = await createCluster({ dataDir, seed: false })
      try {
        const roles = reopened.state.store.all<Role>('role').map((r) => r.name)
        expect(roles).toEqual(expect.arrayContaining(['super_admin', 'user_admin', 'operator', 'read_only']))
        expect(reopened.state.store.all<{ name: string }>('project').map((p) => p.name)).toContain('kept')
      } finally {
        await reopened.close()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
