import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCluster, type ClusterHandler, type ClusterOptions } from './index'

export const TEST_ADMIN_EMAIL = 'admin@example.com'
export const TEST_ADMIN_PASSWORD = 'admin-password-1'
export const TEST_BASE = 'http://local-cluster'

export interface ApiAnswer {
  status: number
  /** Parsed JSON when the answer is JSON, the text otherwise ('' for no body). */
  body: any
  headers: Headers
}

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  token?: string | null,
  headers?: Record<string, string>,
) => Promise<ApiAnswer>

export interface TestCluster {
  handler: ClusterHandler
  dataDir: string
  orgId: string
  /** The admin's bearer token (from POST /config/v1/login). */
  token: string
  /**
   * Calls the cluster in-process. `body`: an object (sent as JSON), a string (sent as is), FormData
   * or undefined. `token`: the bearer token; undefined means the admin's, null or '' means none.
   */
  api: Api
  /** Closes the cluster; removes the data directory unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>
}

/** Sends a request to a cluster handler (used by startTestCluster and for second clusters). */
export function apiFor(handler: (r: Request) => Promise<Response>, defaultToken?: string): Api {
  return async (method, pathname, body, token, headers = {}) => {
    const bearer = token === undefined ? defaultToken : token
    const h: Record<string, string> = { ...headers }
    if (bearer) h.authorization = `Bearer ${bearer}`
    let payload: BodyInit | undefined
    if (body instanceof FormData || body instanceof Uint8Array) payload = body as BodyInit
    else if (typeof body === 'string') payload = body
    else if (body !== undefined) {
      payload = JSON.stringify(body)
      h['content-type'] ??= 'application/json'
    }
    const response = await handler(new Request(`${TEST_BASE}${pathname}`, { method, headers: h, body: payload }))
    const raw = await response.text()
    let parsed: unknown = raw
    if ((response.headers.get('content-type') ?? '').includes('json') && raw) {
      try {
        parsed = JSON.parse(raw)
      } catch {
        parsed = raw
      }
    }
    return { status: response.status, body: parsed, headers: response.headers }
  }
}

/** Starts a cluster on a fresh temp directory (no seed, faults enabled) and logs the admin in. */
export async function startTestCluster(options: Partial<ClusterOptions> = {}): Promise<TestCluster> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-test-'))
  const handler = await createCluster({
    dataDir,
    adminEmail: TEST_ADMIN_EMAIL,
    adminPassword: TEST_ADMIN_PASSWORD,
    seed: false,
    faults: true,
    // an unreachable batch source fails at once unless a test asks for the wait
    batchSourceWaitMs: 0,
    ...options,
  })
  const anonymous = apiFor(handler)
  const login = await anonymous('POST', '/config/v1/login', {
    username: handler.admin.email,
    password: handler.admin.password,
  })
  if (login.status !== 200) {
    await handler.close()
    throw new Error(`test cluster: admin login answered ${login.status}: ${JSON.stringify(login.body)}`)
  }
  const token: string = login.body.auth_token.access_token
  return {
    handler,
    dataDir,
    orgId: handler.orgId,
    token,
    api: apiFor(handler, token),
    async close({ keepData = false } = {}) {
      await handler.close()
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
