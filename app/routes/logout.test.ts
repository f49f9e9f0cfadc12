import { describe, expect, it } from 'vitest'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom } from '#tests/session'
import { loader as layoutLoader } from './_console+/_layout'
import { action, loader } from './logout'

useTestCluster()

describe('logout', () => {
  it('is a POST that clears the session (not the timezone preference) and goes to /login', async () => {
    const cookie = await loginAsAdmin()
    const response = await action(args(post('/logout', {}, cookie)))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login')
    const cleared = response.headers.getSetCookie()
    expect(cleared.map((line) => line.split('=')[0])).toEqual(['cc_session', 'cc_toast'])
    // The browser then has no session: the shell sends it to login.
    const thrown = await responseFrom(() => layoutLoader(args(get('/dashboard'))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
  })

  it('does nothing on a GET', async () => {
    const response = loader()
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(response.headers.get('Set-Cookie')).toBeNull()
  })
})
