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
