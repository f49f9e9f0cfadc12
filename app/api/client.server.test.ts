import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_CLUSTER_URL } from '../../tests/env'
import { dropConnection, failWith, hang, server, useTestCluster } from '../../tests/msw'
import { get, loginAsAdmin } from '../../tests/session'
import {
  createClusterApi,
  getCurrentUser,
  getDefaults,
  getTableDefaults,
  getTransformDefaults,
  getVersion,
  REQUEST_TIMEOUT_MS,
  requireApi,
  setRequestTimeout,
} from './client.server'
import { ClusterError } from './errors.server'

const cluster = useTestCluster()

async function failure(promise: Promise<unknown>): Promise<ClusterError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ClusterError) return error
    throw error
  }
  throw new Error('expected a ClusterError')
}

describe('cluster client', () => {
  let restoreTimeout: (() => void) | undefined
  afterEach(() => restoreTimeout?.())

  it('uses a 300000 ms time-out by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(300_000)
  })

  it('calls /config/v1 with the bearer token and reads the current user', async () => {
    const cookie = await loginAsAdmin()
    const seen: (string | null)[] = []
    server.events.on('request:start', ({ request }) => seen.push(request.headers.get('Authorization')))
    const user = await getCurrentUser(get('/dashboard', cookie))
    server.events.removeAllListeners()
    expect(user.email).toBe(cluster().handler.admin.email)
    expect(seen.at(-1)).toMatch(/^Bearer \S+/)
  })

  it('fetches the user, defaults and version once per request however often they are asked for', async () => {
    const cookie = await loginAsAdmin()
    const request = get('/dashboard', cookie)
    let calls = 0
    server.events.on('request:start', () => calls++)
    await Promise.all([getCurrentUser(request), getCurrentUser(request), getDefaults(request), getDefaults(request)])
    await Promise.all([getVersion(request), getVersion(request)])
    server.events.removeAllListeners()
    expect(calls).toBe(3)
  })

  it('reads the version as text from the origin', async () => {
    const cookie = await loginAsAdmin()
    expect(await getVersion(get('/dashboard', cookie))).toMatch(/^v\d+\.\d+/)
  })

  it("words a 401 on the version call as 'Version cannot be accessed'", async () => {
    const cookie = await loginAsAdmin()
    failWith('/version', 401, { detail: 'Authentication credentials were not provided.' })
    const error = await failure(getVersion(get('/dashboard', cookie)))
    expect(error.message).toBe('Version cannot be accessed')
  })

  it('ends the session on a 401 from the user call: redirect to /login with prevUrl', async () => {
    const cookie = await loginAsAdmin()
    failWith('/config/v1/users/:userId', 401, { detail: 'Token expired.' })
    const thrown = await getCurrentUser(get('/data/tables?page=2', cookie)).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables%3Fpage%3D2')
    expect((thrown as Response).headers.getSetCookie().join('\n')).toMatch(/cc_session=;/)
  })

  it('redirects to login when there is no session', async () => {
    const thrown = await requireApi(get('/data/tables')).catch((error: unknown) => error)
    expect((thrown as Response).headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables')
  })

  it('accepts lists both paginated and as bare arrays', async () => {
    const api = createClusterApi({ token: 't', userId: 'u', orgId: 'o', expiresAt: 0, expiresIn: 1 }, TEST_CLUSTER_URL)
    server.use(
      http.get(`${TEST_CLUSTER_URL}/config/v1/bare`, () => HttpResponse.json([{ n: 1 }, { n: 2 }])),
      http.get(`${TEST_CLUSTER_URL}/config/v1/paged`, ({ request }) => {
        const url = new URL(request.url)
        return HttpResponse.json({
          count: 7,
          next: `${TEST_CLUSTER_URL}/config/v1/paged?page=3`,
          previous: null,
          results: [{ page: url.searchParams.get('page'), size: url.searchParams.get('page_size') }],
        })
      }),
    )
    expect(await api.list('/bare')).toEqual({ count: 2, results: [{ n: 1 }, { n: 2 }], next: null, previous: null })
    expect(await api.list('/paged', { page: 2, pageSize: 5 })).toEqual({
      count: 7,
      results: [{ page: '2', size: '5' }],
      next: `${TEST_CLUSTER_URL}/config/v1/paged?page=3`,
      previous: null,
    })
  })

  it('times out with the catalogue 408', async () => {
    restoreTimeout = setRequestTimeout(50)
    const api = createClusterApi({ token: 't', userId: 'u', orgId: 'o', expiresAt: 0, expiresIn: 1 }, TEST_CLUSTER_URL)
    hang('/config/v1/slow', 2000)
    const error = await failure(api.get('/slow'))
    expect(error.status).toBe(408)
    expect(error.message).toBe('The request has timed out')
  })

  it('reports no answer at all as 503 "API unavailable"', async () => {
    const api = createClusterApi({ token: 't', userId: 'u', orgId: 'o', expiresAt: 0, expiresIn: 1 }, TEST_CLUSTER_URL)
    dropConnection('/config/v1/projects')
    const error = await failure(api.get('/projects'))
    expect(error.status).toBe(503)
    expect(error.message).toBe("API unavailable at the moment, we'll be back shortly.")
  })

  it('maps a 500 to the support message and keeps the body', async () => {
    const api = createClusterApi({ token: 't', userId: 'u', orgId: 'o', expiresAt: 0, expiresIn: 1 }, TEST_CLUSTER_URL)
    failWith('/config/v1/projects', 500, { detail: 'Internal server error.' })
    const error = await failure(api.get('/projects'))
    expect(error.status).toBe(500)
    expect(error.message).toBe('Internal server error. If this is reoccurring, please contact us at support@example.com')
    expect(error.body).toEqual({ detail: 'Internal server error.' })
  })

  it('maps a real 404 from the cluster', async () => {
    const cookie = await loginAsAdmin()
    const api = await requireApi(get('/x', cookie))
    const error = await failure(api.get(`/orgs/${api.orgId}/projects/00000000-0000-4000-8000-000000000000`))
    expect(error.status).toBe(404)
    expect(error.message).toBe('404 Error: Not Found.')
  })

  it('maps real field errors from the cluster', async () => {
    const cookie = await loginAsAdmin()
    const api = await requireApi(get('/x', cookie))
    const error = await failure(api.post(`/orgs/${api.orgId}/projects/`, {}))
    expect(error.status).toBe(400)
    expect(error.mapped.fieldErrors.name).toBeDefined()
  })
})

describe('defaults', () => {
  it('reads the table defaults from the cluster', async () => {
    const cookie = await loginAsAdmin()
    const defaults = await getTableDefaults(get('/data/new-table', cookie))
    expect(defaults.stream.hot_data_max_rows_per_partition).toBe(12288000)
    expect(defaults.merge.enabled).toBe(true)
  })

  it('falls back to the built-in defaults when the call fails', async () => {
    const cookie = await loginAsAdmin()
    failWith('/config/v1/defaults', 500, { detail: 'boom' })
    const request = get('/data/new-transform', cookie)
    const defaults = await getTransformDefaults(request)
    // The cluster's answer for this request really was the failure.
    await expect(getDefaults(request)).rejects.toMatchObject({ status: 500 })
    expect(defaults.format_details.buffer_size).toBe(4096)
    expect(defaults.compression).toBe('none')
  })
})
