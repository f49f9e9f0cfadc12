import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TEST_CLUSTER_URL } from '#tests/env'
import { dropConnection, failWith, hang, server, useTestCluster } from '#tests/msw'
import { get, loginAsAdmin } from '#tests/session'
import { createClusterApi, REQUEST_TIMEOUT_MS, requireApi, setRequestTimeout } from './client.server'
import { getDefaults } from './defaults.server'
import { ClusterError } from './errors.server'
import { cachedRead, clearReadCache } from './read-cache.server'
import { getCurrentUser } from './users.server'
import { getVersion } from './version.server'

const cluster = useTestCluster()
const SESSION = { token: 't', userId: 'u', orgId: 'o', expiresAt: 0, expiresIn: 1 }

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
    const user = await getCurrentUser(await requireApi(get('/dashboard', cookie)))
    server.events.removeAllListeners()
    expect(user.email).toBe(cluster().handler.admin.email)
    expect(seen.at(-1)).toMatch(/^Bearer \S+/)
  })

  it('fetches the user, defaults and version once per request however often they are asked for', async () => {
    const cookie = await loginAsAdmin()
    const request = get('/dashboard', cookie)
    let calls = 0
    server.events.on('request:start', () => calls++)
    const api = async () => requireApi(request)
    await Promise.all([
      getCurrentUser(await api()),
      getCurrentUser(await api()),
      getDefaults(await api()),
      getDefaults(await api()),
    ])
    await Promise.all([getVersion(await api()), getVersion(await api())])
    server.events.removeAllListeners()
    expect(calls).toBe(3)
  })

  it('reads the version as text from the origin', async () => {
    const cookie = await loginAsAdmin()
    expect(await getVersion(await requireApi(get('/dashboard', cookie)))).toMatch(/^v\d+\.\d+/)
  })

  it("words a 401 on the version call as 'Version cannot be accessed'", async () => {
    const cookie = await loginAsAdmin()
    failWith('/version', 401, { detail: 'Authentication credentials were not provided.' })
    const error = await failure(getVersion(await requireApi(get('/dashboard', cookie))))
    expect(error.message).toBe('Version cannot be accessed')
  })

  it('ends the session on a 401 from the user call: redirect to /login with prevUrl', async () => {
    const cookie = await loginAsAdmin()
    failWith('/config/v1/users/:userId', 401, { detail: 'Token expired.' })
    const thrown = await getCurrentUser(await requireApi(get('/data/tables?page=2', cookie))).catch(
      (error: unknown) => error,
    )
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables%3Fpage%3D2')
    expect((thrown as Response).headers.getSetCookie().join('\n')).toMatch(/cc_session=;/)
  })

  it('redirects to login when there is no session', async () => {
    const thrown = await requireApi(get('/data/tables')).catch((error: unknown) => error)
    expect((thrown as Response).headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables')
  })

  it('accepts lists both paginated and as bare arrays', async () => {
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
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

  // issue 37
  it("forgets every session's kept reads of the org when a change is sent and again when answered, streamed calls included", async () => {
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
    // each read from a request of its own (a new reader), kept across requests as the version is
    const kept = (sessionKey: string, load: () => Promise<string>) => cachedRead({ sessionKey }, 'k', load, 60_000)
    const otherSession = vi.fn(async () => 'another session of the org')
    const otherOrg = vi.fn(async () => 'another org')
    await kept('o:another-session', otherSession)
    await kept('other-org:s', otherOrg)
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    server.use(
      http.post(`${TEST_CLUSTER_URL}/config/v1/change`, async () => {
        await answered
        return HttpResponse.json({ changed: true })
      }),
      http.post(`${TEST_CLUSTER_URL}/ingest/event`, () => HttpResponse.json({ ok: true })),
    )
    const load = vi.fn(async () => 'list')
    await kept(api.sessionKey, load)
    const change = api.post('/change')
    // Forgotten when sent: read again.
    await kept(api.sessionKey, load)
    expect(load).toHaveBeenCalledTimes(2)
    // Read while the change is on its way, so possibly from before it: forgotten once it is answered.
    answer()
    expect(await change).toEqual({ changed: true })
    await kept(api.sessionKey, load)
    expect(load).toHaveBeenCalledTimes(3)
    // every session of the org reads again; another org keeps its reads
    await kept('o:another-session', otherSession)
    expect(otherSession).toHaveBeenCalledTimes(2)
    await kept('other-org:s', otherOrg)
    expect(otherOrg).toHaveBeenCalledTimes(1)
    // a streamed write (an ingest) forgets them too
    await (await api.stream('POST', '/ingest/event', { body: '{}' })).text()
    await kept('o:another-session', otherSession)
    expect(otherSession).toHaveBeenCalledTimes(3)
    // a call that says it only reads forgets nothing
    await (await api.stream('POST', '/ingest/event', { body: '{}', isRead: true })).text()
    await kept('o:another-session', otherSession)
    expect(otherSession).toHaveBeenCalledTimes(3)
    clearReadCache()
  })

  it('times out with the catalogue 408', async () => {
    restoreTimeout = setRequestTimeout(50)
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
    hang('/config/v1/slow', 2000)
    const error = await failure(api.get('/slow'))
    expect(error.status).toBe(408)
    expect(error.message).toBe('The request has timed out')
  })

  it('reports no answer at all as 503 "API unavailable"', async () => {
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
    dropConnection('/config/v1/projects')
    const error = await failure(api.get('/projects'))
    expect(error.status).toBe(503)
    expect(error.message).toBe("API unavailable at the moment, we'll be back shortly.")
  })

  it('maps a 500 to the support message and keeps the body', async () => {
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
    failWith('/config/v1/projects', 500, { detail: 'Internal server error.' })
    const error = await failure(api.get('/projects'))
    expect(error.status).toBe(500)
    expect(error.message).toBe(
      'Internal server error. If this is reoccurring, please contact us at support@example.com',
    )
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
    // the cluster's own words for the missing name, at the name field
    expect(error.mapped.fieldErrors).toEqual({ name: ['This field is required.'] })
  })
})

describe('the 401 policy (one place: the per-request client)', () => {
  it('a form POST that meets a 401 ends the session and comes back to the page the form was on', async () => {
    const cookie = await loginAsAdmin()
    const request = new Request('http://console.test/data/new-table', {
      method: 'POST',
      headers: { Cookie: cookie, Referer: 'http://console.test/data/new-table?project=p1' },
    })
    const api = await requireApi(request)
    failWith('/config/v1/orgs/:orgId/projects/', 401, { detail: 'Token expired.' })
    const thrown = (await api
      .post(`/orgs/${api.orgId}/projects/`, { name: 'x' })
      .catch((error: unknown) => error)) as Response
    expect(thrown).toBeInstanceOf(Response)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Fnew-table%3Fproject%3Dp1')
    expect(thrown.headers.getSetCookie().join('\n')).toMatch(/cc_session=;/)
  })

  it("a POST whose Referer is another site's comes back to the action's own page", async () => {
    const cookie = await loginAsAdmin()
    const request = new Request('http://console.test/jobs/alter-jobs?job=1', {
      method: 'POST',
      headers: { Cookie: cookie, Referer: 'https://evil.example/steal' },
    })
    const api = await requireApi(request)
    failWith('/config/v1/orgs/:orgId/projects/', 401, {})
    const thrown = (await api.list(`/orgs/${api.orgId}/projects/`).catch((error: unknown) => error)) as Response
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fjobs%2Falter-jobs%3Fjob%3D1')
  })

  it('a monitoring call keeps the session on a 401 and says the panel cannot be accessed', async () => {
    const cookie = await loginAsAdmin()
    const api = await requireApi(get('/system-health/counts', cookie))
    failWith('/prometheus/api/v1/query_range', 401, {})
    const error = await failure(
      api.raw('GET', '/prometheus/api/v1/query_range?query=up', { json: true, context: 'monitoring' }),
    )
    expect(error.status).toBe(401)
    expect(error.message).toBe('This panel cannot be accessed')
  })

  it('a call that opts out keeps the session and throws the ClusterError', async () => {
    const cookie = await loginAsAdmin()
    const api = await requireApi(get('/dashboard', cookie))
    failWith('/config/v1/orgs/:orgId/projects/', 401, {})
    const error = await failure(api.get(`/orgs/${api.orgId}/projects/`, { keepSession: true }))
    expect(error.status).toBe(401)
  })

  it('a client made without a request throws the ClusterError (nothing to redirect)', async () => {
    const api = createClusterApi(SESSION, { origin: TEST_CLUSTER_URL })
    failWith('/config/v1/projects', 401, {})
    expect((await failure(api.get('/projects'))).status).toBe(401)
  })
})

describe('defaults', () => {
  it("reads the cluster's defaults once per request", async () => {
    const cookie = await loginAsAdmin()
    const api = await requireApi(get('/data/new-table', cookie))
    const defaults = (await getDefaults(api)) as { table?: { stream?: Record<string, unknown> } }
    expect(defaults.table?.stream?.hot_data_max_rows_per_partition).toBe(12288000)
    expect(getDefaults(api)).toBe(getDefaults(api))
  })
})
