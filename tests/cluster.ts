import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCluster, type ClusterHandler } from '../cluster/index'

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' } as const

export type TestClusterHandle = {
  handler: ClusterHandler
  dataDir: string
  /** Closes the cluster and removes its data directory. */
  close(): Promise<void>
}

/** Starts the local cluster's request handler on a fresh temp directory, unseeded, with a known admin. */
export async function startCluster(): Promise<TestClusterHandle> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-test-cluster-'))
  const handler = await createCluster({ dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, seed: false })
  return {
    handler,
    dataDir,
    async close() {
      await handler.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

let adminLogin: { token: string; orgId: string } | undefined

/**
 * The admin's own cluster token and org (POST /config/v1/login through msw's `http://cluster.test`),
 * for tests that set up data directly on the cluster. Logged in once per test file.
 */
export async function clusterAdminLogin(): Promise<{ token: string; orgId: string }> {
  if (!adminLogin) {
    const response = await fetch('http://cluster.test/config/v1/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    })
    if (!response.ok) throw new Error(`admin login answered ${response.status}: ${await response.text()}`)
    const body = (await response.json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
    adminLogin = { token: body.auth_token.access_token, orgId: body.orgs[0]!.uuid }
  }
  return adminLogin
}
