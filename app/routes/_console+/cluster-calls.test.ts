import { describe, expect, it } from 'vitest'
import { clusterAdminLogin, clusterCall, makeTable } from '#tests/cluster'
import { server, useTestCluster } from '#tests/msw'
import { args, cookieFrom, get, loginAsAdmin, post, returnedOrThrown } from '#tests/session'
import { withRequestContext } from '~/utils/request-context.server'
import { action as loginAction } from '../_auth+/login'
import { loader as layoutLoader } from './_layout'
import { loader as tableLoader } from './data+/tables.$tableId._index'
import { loader as dashboardLoader } from './dashboard'

/*
 * Issue 52, point 2 (decision 102): the shell's own reads are one call per page (the signed-in user
 * with their permissions, users/current, shared with the page's own loader), revalidated with the
 * cluster's ETag on every page, and never reused once the cluster has changed.
 */

const cluster = useTestCluster()

type Seen = { path: string; status: number; ifNoneMatch: string | null }

/** One console request as the server runs it: the layout's and the page's loaders, each with its own Request. */
async function page(
  path: string,
  cookie: string,
  pageLoader: typeof dashboardLoader | typeof tableLoader = dashboardLoader,
  params: Record<string, string> = {},
): Promise<{ seen: Seen[]; calls: number; kept: number; layout: unknown; data: unknown }> {
  const seen: Seen[] = []
  const listener = ({ request, response }: { request: Request; response: Response }) => {
    seen.push({
      path: new URL(request.url).pathname,
      status: response.status,
      ifNoneMatch: request.headers.get('if-none-match'),
    })
  }
  server.events.on('response:mocked', listener)
  let done!: Promise<[unknown, unknown]>
  const context = withRequestContext(() => {
    done = Promise.all([layoutLoader(args(get(path, cookie))), pageLoader(args(get(path, cookie), params))])
  })
  try {
    const [layout, data] = await done
    return { seen, calls: context.clusterCalls, kept: context.keptReads ?? 0, layout, data }
  } finally {
    server.events.removeListener('response:mocked', listener)
  }
}

const userReads = (seen: Seen[]) => seen.filter((call) => /^\/config\/v1\/users\//.test(call.path))

async function invitedReader(email: string): Promise<{ cookie: string; uuid: string }> {
  const { orgId } = await clusterAdminLogin()
  await clusterCall('POST', '/config/v1/invites/', { email, org: orgId, roles: ['reader'] })
  const link = cluster()
    .handler.state.outbox.filter((mail) => mail.to === email)
    .at(-1)!.link!
  const [, uuidb64, token] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(link)!
  const password = 'reader-password-52'
  await clusterCall('POST', '/config/v1/password_reset_confirm', {
    uuidb64,
    token,
    password,
    password_confirm: password,
  })
  const login = await returnedOrThrown(() => loginAction(args(post('/login', { email, password }))))
  const users = await clusterCall<{ results: { uuid: string; email: string }[] }>('GET', '/config/v1/users/')
  return { cookie: cookieFrom(login as Response), uuid: users.results.find((user) => user.email === email)!.uuid }
}

describe('cluster calls per page (issue 52)', () => {
  it('reads the signed-in user once per page, for the layout and the page together, and never /users/{id}', async () => {
    const cookie = await loginAsAdmin()
    const { seen } = await page('/dashboard', cookie)
    const reads = userReads(seen)
    expect(reads.map((call) => call.path)).toEqual(['/config/v1/users/current'])
    // the version is kept for a minute per session: read at most once
    expect(seen.filter((call) => call.path === '/version').length).toBeLessThanOrEqual(1)
  })

  it('revalidates the user on the next page with its ETag: a 304, and the same shell', async () => {
    const cookie = await loginAsAdmin()
    const first = await page('/dashboard', cookie)
    const second = await page('/dashboard', cookie)
    const [read] = userReads(second.seen)
    expect(read?.ifNoneMatch).toMatch(/^"u-/)
    expect(read?.status).toBe(304)
    expect(second.layout).toEqual(first.layout)
    // the layout's own calls on a warm page: the user (and at most a revocation-list read, every 5 s)
    expect(second.seen.filter((call) => call.path === '/version')).toEqual([])
  })

  it('shows a role given through the API on the very next page: a changed user is never reused', async () => {
    const reader = await invitedReader('reader52@example.com')
    const before = (await page('/dashboard', reader.cookie)).layout as { hiddenPaths: string[] }
    expect(before.hiddenPaths.length).toBeGreaterThan(0)
    // warm: the next page revalidates and reuses (304)
    expect(userReads((await page('/dashboard', reader.cookie)).seen)[0]?.status).toBe(304)
    await clusterCall('POST', `/config/v1/users/${reader.uuid}/add_roles/`, { roles: ['super_admin'] })
    const after = await page('/dashboard', reader.cookie)
    expect(userReads(after.seen)[0]?.status).toBe(200)
    expect((after.layout as { hiddenPaths: string[] }).hiddenPaths).toEqual([])
  })

  it("reads nothing twice on a table's page, and no roles for a super admin (who holds everything)", async () => {
    const cookie = await loginAsAdmin()
    const { projectId, tableId } = await makeTable('calls52', 'events', [
      { timestamp: '2026-12-02T10:00:00Z', level: 'info', message: 'one' },
    ])
    const { seen } = await page(`/data/tables/${tableId}?project=${projectId}`, cookie, tableLoader, { tableId })
    const reads = seen.filter((call) => call.path.startsWith('/config/')).map((call) => call.path)
    expect(reads.length).toBeGreaterThan(5)
    expect(reads.filter((path, i) => reads.indexOf(path) !== i)).toEqual([])
    expect(reads.filter((path) => path === '/config/v1/roles/')).toEqual([])
  })
})

describe('answers kept by configuration generation (decision 113)', () => {
  const configReads = (seen: Seen[]) => seen.filter((call) => call.path.startsWith('/config/')).map((call) => call.path)

  it("shows a session's kept configuration again while the cluster names the same generation, and reads the rest", async () => {
    const cookie = await loginAsAdmin()
    const { projectId, tableId } = await makeTable('kept113', 'events', [
      { timestamp: '2026-12-06T10:00:00Z', level: 'info', message: 'one' },
    ])
    const path = `/data/tables/${tableId}?project=${projectId}`
    const first = await page(path, cookie, tableLoader, { tableId })
    const second = await page(path, cookie, tableLoader, { tableId })
    const firstReads = configReads(first.seen)
    const secondReads = configReads(second.seen)
    // the table, its project, transforms, views and sources were kept; what reads the engine (its
    // stats) and the user (the generation) are asked again
    expect(second.kept).toBeGreaterThanOrEqual(4)
    expect(secondReads.length).toBe(firstReads.length - second.kept)
    expect(secondReads).toContain('/config/v1/users/current')
    expect(secondReads.filter((read) => read.endsWith('/stats'))).toHaveLength(1)
    expect(secondReads.filter((read) => read.endsWith(`/tables/${tableId}`))).toEqual([])
    const shown = (result: typeof first) => (result.data as { table: unknown; sources: unknown }).table
    expect(shown(second)).toEqual(shown(first))
  })

  it('shows a change made through the cluster API (another tool, another replica) on the very next page', async () => {
    const cookie = await loginAsAdmin()
    const { projectId, tableId } = await makeTable('kept113b', 'events', [])
    const path = `/data/tables/${tableId}?project=${projectId}`
    await page(path, cookie, tableLoader, { tableId })
    expect((await page(path, cookie, tableLoader, { tableId })).kept).toBeGreaterThan(0)
    await clusterCall('PATCH', `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}`, {
      description: 'changed elsewhere',
    })
    const after = await page(path, cookie, tableLoader, { tableId })
    expect(after.kept).toBe(0)
    expect((after.data as { table: { description: string } }).table.description).toBe('changed elsewhere')
  })

  it("keeps each session's answers its own: another session's first page reads them all", async () => {
    const { projectId, tableId } = await makeTable('kept113c', 'events', [])
    const path = `/data/tables/${tableId}?project=${projectId}`
    const one = await loginAsAdmin()
    await page(path, one, tableLoader, { tableId })
    const other = await invitedReader('reader113@example.com')
    const theirs = await page(path, other.cookie, tableLoader, { tableId })
    expect(theirs.kept).toBe(0)
    // and the reader's own next page keeps what the reader was answered
    expect((await page(path, other.cookie, tableLoader, { tableId })).kept).toBeGreaterThan(0)
  })

  it("reads again after a write in the same request: an action's loaders never show what it changed as it was", async () => {
    const cookie = await loginAsAdmin()
    const { projectId } = await makeTable('kept113d', 'first', [])
    const { requireApi } = await import('~/api/client.server')
    const { listTables } = await import('~/api/tables.server')
    const names = async (api: Awaited<ReturnType<typeof requireApi>>) =>
      (await listTables(api, projectId)).map((table) => table.name)
    // warm: kept under the generation of now
    await page('/dashboard', cookie)
    await names(await requireApi(get('/data/tables', cookie)))
    let done!: Promise<string[][]>
    const context = withRequestContext(() => {
      done = (async () => {
        const api = await requireApi(get('/data/tables', cookie))
        const before = await names(api)
        await api.post(`/orgs/${api.orgId}/projects/${projectId}/tables/`, { name: 'second' })
        // another loader of the same request, after the action
        const after = await names(await requireApi(get('/data/tables', cookie)))
        return [before, after]
      })()
    })
    const [before, after] = await done
    expect(context.keptReads).toBeGreaterThan(0)
    expect(before).toEqual(['first'])
    expect(after).toEqual(['first', 'second'])
  })

  it('reads everything from the cluster with reuse off (GENERATION_REUSE=off)', async () => {
    const cookie = await loginAsAdmin()
    const { projectId, tableId } = await makeTable('kept113e', 'events', [])
    const path = `/data/tables/${tableId}?project=${projectId}`
    await page(path, cookie, tableLoader, { tableId })
    const { setGenerationReuse } = await import('~/api/generation-kept.server')
    const restore = setGenerationReuse(false)
    try {
      expect((await page(path, cookie, tableLoader, { tableId })).kept).toBe(0)
    } finally {
      restore()
    }
  })
})
