import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Server } from 'node:http'
import { createBaseApp } from './app'
import { startLocalCluster, withoutPasswords } from './local-cluster'

describe('startLocalCluster', () => {
  it('starts the cluster process on a loopback port, hands back its admin, and stops it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-local-cluster-'))
    const cluster = await startLocalCluster({
      dataDir,
      adminEmail: 'ops@example.com',
      adminPassword: 'ops-password-123',
      stdio: 'ignore',
      env: { CLUSTER_SEED_ROWS: '0' },
    })
    try {
      expect(cluster.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(cluster.admin).toEqual({ email: 'ops@example.com', password: 'ops-password-123' })
      const login = await fetch(`${cluster.url}/config/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: cluster.admin.email, password: cluster.admin.password }),
      })
      expect(login.status).toBe(200)
      // The console's /readyz in front of it, as `npm start` serves them, at the root and under a
      // base path: ready although the cluster answers /version without credentials with 401 (issue 37).
      const app = createBaseApp({ allowEmbedding: false, basePath: '/console', clusterUrl: () => cluster.url })
      const console = await new Promise<Server>((resolve) => {
        const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
      })
      try {
        const address = console.address()
        const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
        for (const readyz of ['/readyz', '/console/readyz']) {
          const ready = await fetch(`${origin}${readyz}`)
          expect(ready.status, readyz).toBe(200)
          expect(await ready.json()).toMatchObject({ status: 'ready' })
        }
      } finally {
        await new Promise<void>((resolve) => console.close(() => resolve()))
      }
    } finally {
      await cluster.stop()
    }
    await expect(fetch(`${cluster.url}/version`)).rejects.toThrow()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)
})

describe("the local cluster's output in the console's (issue 49)", () => {
  it('leaves the admin password out of the start output', async () => {
    const filter = withoutPasswords()
    let out = ''
    filter.on('data', (chunk: Buffer) => (out += String(chunk)))
    filter.write('Data directory: /x\nAdmin login: admin@localhost / s3cret-Pass')
    filter.write('word-1 (kept in /x/admin.json)\nother line\n')
    filter.end()
    await new Promise((resolve) => filter.once('end', resolve))
    expect(out).toBe('Data directory: /x\nAdmin login: admin@localhost (kept in /x/admin.json)\nother line\n')
    expect(out).not.toContain('s3cret')
  })
})
