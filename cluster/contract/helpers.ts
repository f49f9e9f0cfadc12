/**
 * Shared setup of the contract tests: the call sequences of real clients of the cluster API,
 * replayed as black-box HTTP requests through the handler, asserting only what those clients read
 * (fields, statuses). Each block names the client file it replays. Sources (GitHub): hydrolix/hdxcli,
 * hydrolix/mcp-hydrolix, hydrolix/grafana-datasource-plugin, dsztykman/hydrolix_home_assistant.
 */
import { afterAll, beforeAll, expect } from 'vitest'
import type { ClusterOptions } from '../context'
import { startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from '../test-helpers'

/** The test file's cluster and its org, set by `useContractCluster()` before the file's tests run. */
export let c: TestCluster
export let org: string

/** Starts a cluster (no seed, with `options`) before the file's tests and closes it after them. */
export function useContractCluster(options: Partial<ClusterOptions> = {}) {
  beforeAll(async () => {
    c = await startTestCluster(options)
    org = c.orgId
  })
  afterAll(async () => {
    await c?.close()
  })
}

/** What python `requests` sends for `requests.<verb>(url, headers=..., json=body)`. */
export const HDX_HEADERS = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: 'application/json' })

/** Raw request (no helper defaults): exact headers and body as the client sends them. */
export async function raw(
  method: string,
  url: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
) {
  const response = await c.handler(
    new Request(url.startsWith('http') ? url : `http://local-cluster${url}`, {
      method,
      headers: init.headers,
      body: init.body,
    }),
  )
  const text = await response.text()
  const type = response.headers.get('content-type') ?? ''
  let body: any = text
  if (type.includes('json') && text) body = JSON.parse(text)
  return { status: response.status, body, headers: response.headers, text }
}

/** requests.post(url, json=body): content-type application/json, or no body at all for json=None. */
export const hdx = (token: string) => ({
  get: (url: string) => raw('GET', url, { headers: HDX_HEADERS(token) }),
  options: (url: string) => raw('OPTIONS', url, { headers: HDX_HEADERS(token) }),
  delete: (url: string) => raw('DELETE', url, { headers: HDX_HEADERS(token) }),
  post: (url: string, json?: unknown) =>
    raw(
      'POST',
      url,
      json === undefined
        ? { headers: HDX_HEADERS(token) }
        : { headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' }, body: JSON.stringify(json) },
    ),
  put: (url: string, json: unknown) =>
    raw('PUT', url, {
      headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    }),
  patch: (url: string, json: unknown) =>
    raw('PATCH', url, {
      headers: { ...HDX_HEADERS(token), 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    }),
})

/** hdxcli and the HA integration accept a paginated page or a bare array. */
export const unwrapList = (body: any): any[] =>
  Array.isArray(body) ? body : body && typeof body === 'object' && 'results' in body ? body.results : [body]

/** Calls `fn` every 50 ms until `done` holds or `ms` have passed; returns the last value. */
export const poll = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

// hdxcli tests_data/transforms/csv_transform.json (note `"resolution": "seconds"`)
export const HDXCLI_CSV_TRANSFORM = {
  type: 'csv',
  settings: {
    is_default: false,
    format_details: { delimiter: ',', skip_head: 1, buffer_size: 4096 },
    output_columns: [
      {
        name: '_timestamp',
        datatype: {
          primary: true,
          type: 'datetime',
          format: '02/01/2006 15:04',
          resolution: 'seconds',
          source: { from_input_index: 0 },
        },
      },
      { name: '_float', datatype: { type: 'double', source: { from_input_index: 1 } } },
      { name: '_ip4', datatype: { type: 'string', source: { from_input_index: 2 } } },
      { name: '_key', datatype: { type: 'string', source: { from_input_index: 3 } } },
      { name: '_numeric', datatype: { type: 'uint64', source: { from_input_index: 4 } } },
      { name: '_string', datatype: { type: 'string', source: { from_input_index: 5 } } },
      { name: '_uint64', datatype: { type: 'uint64', source: { from_input_index: 6 } } },
    ],
  },
}

/** hdxcli's login (library_api/common/login.py): its token and a `requests`-like client with it. */
export async function hdxcliLogin() {
  const r = await raw('POST', '/config/v1/login', {
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
  })
  if (r.status !== 200) throw new Error(`hdxcli login answered ${r.status}: ${r.text}`)
  const token: string = r.body.auth_token.access_token
  return { token, api: hdx(token) }
}

/** The `q.events` table (ts, n) with ten rows, which the query clients read. */
export async function createQueryEventsTable() {
  const p = await c.api('POST', `/config/v1/orgs/${org}/projects/`, { name: 'q' })
  const t = await c.api('POST', `/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/`, { name: 'events' })
  const tr = await c.api('POST', `/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
    name: 'json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'n', datatype: { type: 'uint32' } },
      ],
    },
  })
  expect(tr.status).toBe(201)
  const rows = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ts: `2024-01-01T00:00:0${i}Z`, n: i })).join('\n')
  expect(
    (
      await c.api('POST', '/ingest/event', rows, undefined, {
        'x-hdx-table': 'q.events',
        'content-type': 'application/json',
      })
    ).status,
  ).toBe(200)
}
