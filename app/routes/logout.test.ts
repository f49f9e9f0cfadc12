import { describe, expect, it } from 'vitest'
import { forgetRevokedHere } from '~/utils/session.server'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom } from '#tests/session'
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

  it('ends the session everywhere: a cookie copied before Log out is refused after it, here and on another replica (issue 37)', async () => {
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

  it('does nothing on a GET', async () => {
    const response = loader()
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(response.headers.get('Set-Cookie')).toBeNull()
  })
})
