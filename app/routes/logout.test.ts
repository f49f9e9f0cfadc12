import { describe, expect, it, vi } from 'vitest'
import { forgetRevokedHere } from '~/utils/session.server'
import { failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom, returnedOrThrown } from '#tests/session'
import { loader as layoutLoader } from './_console+/_layout'
import { action, loader } from './logout'

useTestCluster()

describe('logout', () => {
  it('is a POST that clears every console cookie (session, toast, the zone the browser reported) and goes to /login', async () => {
    const cookie = await loginAsAdmin()
    const response = await action(args(post('/logout', {}, cookie)))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login')
    const cleared = response.headers.getSetCookie()
    expect(cleared.map((line) => line.split('=')[0])).toEqual(['cc_session', 'cc_toast', 'cc_local_zone'])
    // The browser then has no session: the shell sends it to login.
    const thrown = await responseFrom(() => layoutLoader(args(get('/dashboard'))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
  })

  it('ends the session everywhere: a cookie copied before Log out is refused after it, here and on other replicas (issue 37)', async () => {
    const cookie = await loginAsAdmin()
    const copied = cookie
    expect((await layoutLoader(args(get('/dashboard', copied)))) as unknown).toBeTruthy()
    await action(args(post('/logout', {}, cookie)))
    // this replica refuses the copy at once
    const here = await responseFrom(() => layoutLoader(args(get('/dashboard', copied))))
    expect(here.status).toBe(302)
    expect(here.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
    // another replica (which never saw the logout) is refused by the cluster: the token was revoked there
    forgetRevokedHere()
    const elsewhere = await responseFrom(() => layoutLoader(args(get('/dashboard', copied))))
    expect(elsewhere.status).toBe(302)
    expect(elsewhere.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
    expect(elsewhere.headers.getSetCookie().join('\n')).toMatch(/cc_session=;/)
  })

  /** A replica: its own copy of the console's modules (its own memory), same secret, same cluster. */
  async function replica() {
    vi.resetModules()
    return {
      layout: await import('./_console+/_layout'),
      logout: await import('./logout'),
      session: await import('~/utils/session.server'),
      client: await import('~/api/client.server'),
      store: await import('~/api/saved-queries.server'),
      revocations: await import('~/api/revocations.server'),
    }
  }
  const opens = async (r: Awaited<ReturnType<typeof replica>>, cookie: string) =>
    !((await returnedOrThrown(() => r.layout.loader(args(get('/dashboard', cookie))))) instanceof Response)

  it('on a cluster without a revoke call, Log out is shared through the store: another replica that had read it refuses a copied cookie within its refresh (decision 080)', async () => {
    const cookie = await loginAsAdmin()
    const [a, b] = [await replica(), await replica()]
    // the store is on (an operator turned History on)
    await a.store.ensureStore(a.client.createClusterApi(await a.session.requireSession(get('/dashboard', cookie))))
    // both replicas serve the session, so both have read the (empty) list of revocations
    expect(await opens(a, cookie)).toBe(true)
    expect(await opens(b, cookie)).toBe(true)
    failWith('/config/v1/logout', 404)
    const out = await a.logout.action(args(post('/logout', {}, cookie)))
    expect(out.headers.get('Location')).toBe('/login')
    const loggedOutAt = Date.now()
    expect(await opens(a, cookie)).toBe(false)
    // b reads the store again once its copy is REFRESH_MS old
    await expect.poll(() => opens(b, cookie), { timeout: b.revocations.REFRESH_MS + 3_000, interval: 250 }).toBe(false)
    const lag = Date.now() - loggedOutAt
    expect(lag).toBeLessThanOrEqual(b.revocations.REFRESH_MS + 1_000)
    // a third replica, started after, refuses it on its first request
    expect(await opens(await replica(), cookie)).toBe(false)
  }, 20_000)

  it('without a revoke call and without the store, Log out says other replicas still accept a copy (decision 080)', async () => {
    const cookie = await loginAsAdmin()
    const [a, b] = [await replica(), await replica()]
    const api = a.client.createClusterApi(await a.session.requireSession(get('/dashboard', cookie)))
    const store = (
      await api.get<{ results: { uuid: string; name: string }[] }>(`/orgs/${api.orgId}/projects/`)
    ).results.find((project) => project.name === 'cluster_console')
    if (store) await api.del(`/orgs/${api.orgId}/projects/${store.uuid}/?force_operation=true`)
    failWith('/config/v1/logout', 404)
    const out = await a.logout.action(args(post('/logout', {}, cookie)))
    expect(out.headers.get('Location')).toBe('/login?notice=here-only')
    expect(await opens(a, cookie)).toBe(false)
    // the stated limit: another replica accepts the copy until the token expires
    expect(await opens(b, cookie)).toBe(true)
  })

  it('does nothing on a GET', async () => {
    const response = loader()
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(response.headers.get('Set-Cookie')).toBeNull()
  })
})
