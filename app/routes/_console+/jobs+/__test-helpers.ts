// Test-only helpers for the jobs section's vitest files (never imported by routes).
import { clusterAdminLogin } from '../../../../tests/cluster'

/** Calls the cluster as the admin; returns the parsed body and throws on a failure. */
export async function clusterCall<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const { token, orgId } = await clusterAdminLogin()
  const response = await fetch(`http://cluster.test${path.replace('{org}', orgId)}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(typeof body === 'string' ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (text ? (text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text) : undefined) as T
}

/**
 * Creates project `project`, table `table` with a JSON transform `{table}_json` (timestamp, level,
 * message) and, when given, ingests `rows` into it.
 */
export async function makeTable(project: string, table: string, rows: Record<string, unknown>[] = []) {
  const existing = await clusterCall<{ results: { uuid: string; name: string }[] }>('GET', `/config/v1/orgs/{org}/projects/?name=${project}`)
  const p = existing.results[0] ?? (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: project }))
  const t = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${p.uuid}/tables/`, { name: table })
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
    await clusterCall('POST', '/ingest/event', JSON.stringify(rows), { 'x-hdx-table': `${project}.${table}`, 'content-type': 'application/json' })
  }
  return { projectId: p.uuid, tableId: t.uuid }
}

/** The number a `SELECT count() …` answers through the query API. */
export async function queryCount(sql: string): Promise<number> {
  const text = await clusterCall<string>('POST', `/query?query=${encodeURIComponent(sql)}`)
  return Number(String(text).trim())
}

/** Runs a loader/action and returns what it returned or threw (redirects and errors are thrown). */
export async function settle<T>(run: () => Promise<T>): Promise<T | Response | unknown> {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
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
