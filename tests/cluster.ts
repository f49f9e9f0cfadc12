import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCluster, type ClusterHandler } from '../cluster/index'
import { TEST_CLUSTER_URL } from './env'

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
  // an unreachable batch source fails at once (the wait a served cluster has is the cluster's own tests' concern)
  const handler = await createCluster({
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    seed: false,
    batchSourceWaitMs: 0,
  })
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
 * The admin's own cluster token and org (POST /config/v1/login through msw's TEST_CLUSTER_URL),
 * for tests that set up data directly on the cluster. Logged in once per test file.
 */
export async function clusterAdminLogin(): Promise<{ token: string; orgId: string }> {
  if (!adminLogin) {
    const response = await fetch(`${TEST_CLUSTER_URL}/config/v1/login`, {
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

/**
 * Calls the cluster as the admin (`{org}` in `path` becomes the admin's org); returns the parsed
 * body (JSON, else text) and throws on a failure. For setting up what a test needs directly.
 */
export async function clusterCall<T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const { token, orgId } = await clusterAdminLogin()
  const response = await fetch(`${TEST_CLUSTER_URL}${path.replace('{org}', orgId)}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(typeof body === 'string' ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (text ? (text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text) : undefined) as T
}

/**
 * Creates project `project` (unless it exists), table `table` with a default JSON transform
 * `{table}_json` (timestamp, level, message) and, when given, ingests `rows` into it; returns their ids.
 */
export async function makeTable(project: string, table: string, rows: Record<string, unknown>[] = []) {
  const existing = await clusterCall<{ results: { uuid: string; name: string }[] }>(
    'GET',
    `/config/v1/orgs/{org}/projects/?name=${project}`,
  )
  const p =
    existing.results[0] ??
    (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: project }))
  const t = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${p.uuid}/tables/`, {
    name: table,
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${p.uuid}/tables/${t.uuid}/transforms/`, {
    name: `${table}_json`,
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'level', datatype: { type: 'string' } },
        { name: 'message', datatype: { type: 'string' } },
      ],
    },
  })
  if (rows.length) {
    await clusterCall('POST', '/ingest/event', JSON.stringify(rows), {
      'x-hdx-table': `${project}.${table}`,
      'content-type': 'application/json',
    })
  }
  return { projectId: p.uuid, tableId: t.uuid }
}

/** The number a `SELECT count() …` answers through the query API. */
export async function queryCount(sql: string): Promise<number> {
  const text = await clusterCall<string>('POST', `/query?query=${encodeURIComponent(sql)}`)
  return Number(String(text).trim())
}

/** Calls `check` until it returns a value (not null), up to `ms`; throws naming `what` after that. */
export async function waitFor<T>(check: () => Promise<T | null>, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== null) return value
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
