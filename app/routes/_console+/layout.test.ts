import { describe, expect, it } from 'vitest'
import { ADMIN } from '#tests/cluster'
import { dropConnection, failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, responseFrom } from '#tests/session'
import { loader } from './_layout'

useTestCluster()

describe('console layout loader', () => {
  it('sends a visitor without a session to login with prevUrl', async () => {
    const thrown = await responseFrom(() => loader(args(get('/scale/search?x=1'))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fscale%2Fsearch%3Fx%3D1')
  })

  it('loads the email for the user menu and the version line, and nothing secret', async () => {
    const cookie = await loginAsAdmin()
    const data = await loader(args(get('/dashboard', cookie)))
    expect(data).toMatchObject({ email: ADMIN.email, docsUrl: 'https://docs.hydrolix.io' })
    expect(data.version).toMatch(/^v\d/)
    expect(Object.keys(data).sort()).toEqual([
      'docsUrl',
      'email',
      'hiddenPaths',
      'localZone',
      'supportUrl',
      'timezone',
      'version',
    ])
    expect(data.hiddenPaths).toEqual([]) // the admin may do everything
  })

  it('omits the version line when the version call fails', async () => {
    const cookie = await loginAsAdmin()
    failWith('/version', 500, { detail: 'boom' })
    expect((await loader(args(get('/dashboard', cookie)))).version).toBeNull()
    dropConnection('/version')
    expect((await loader(args(get('/dashboard', cookie)))).version).toBeNull()
  })

  it('ends the session on a 401 from the user call', async () => {
    const cookie = await loginAsAdmin()
    failWith('/config/v1/users/:userId', 401, { detail: 'Invalid token.' })
    const thrown = await responseFrom(() => loader(args(get('/data/tables', cookie))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables')
    expect(thrown.headers.getSetCookie().some((line) => line.startsWith('cc_session=;'))).toBe(true)
  })

  it('keeps the shell when the user call fails otherwise', async () => {
    const cookie = await loginAsAdmin()
    failWith('/config/v1/users/:userId', 500, { detail: 'boom' })
    expect((await loader(args(get('/dashboard', cookie)))).email).toBeNull()
  })
})
