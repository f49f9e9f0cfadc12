import '#tests/env'
import { describe, expect, it } from 'vitest'
import {
  commitSession,
  getSession,
  getTimezone,
  commitTimezone,
  isHttps,
  logout,
  requireSession,
  safeRedirect,
} from './session.server'

const SESSION = { token: 'tok-abc', userId: 'u1', expiresIn: 3600, orgId: 'o1' }
const pair = (setCookie: string) => setCookie.split(';')[0]!

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a thrown Response')
}

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Strict, path /, and expires with the token', async () => {
    const cookie = await commitSession(new Request('http://console.test/login'), SESSION)
    expect(cookie).toMatch(/^cc_session=/)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Strict/)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).toMatch(/Max-Age=3600/)
    expect(cookie).not.toMatch(/Secure/)
  })

  it('is Secure on https, directly or behind a proxy', async () => {
    expect(await commitSession(new Request('https://console.test/login'), SESSION)).toMatch(/; Secure/)
    const proxied = new Request('http://console.test/login', { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(isHttps(proxied)).toBe(true)
    expect(await commitSession(proxied, SESSION)).toMatch(/; Secure/)
  })

  it('with ALLOW_EMBEDDING every console cookie is SameSite=None; Secure (a frame on another site sends no other kind)', async () => {
    const before = process.env.ALLOW_EMBEDDING
    process.env.ALLOW_EMBEDDING = 'true'
    try {
      const request = new Request('http://console.test/login')
      const session = await commitSession(request, SESSION)
      expect(session).toMatch(/; SameSite=None/)
      expect(session).toMatch(/; Secure/)
      expect(session).toMatch(/; Partitioned/)
      const timezone = await commitTimezone(request, 'UTC')
      for (const attribute of ['; SameSite=None', '; Secure', '; Partitioned']) expect(timezone).toContain(attribute)
      const { createToastHeaders } = await import('./toast.server')
      const toast = await createToastHeaders({ title: 'Saved' })
      expect(toast).toMatch(/SameSite=None/)
      expect(toast).toMatch(/Secure/)
      const cleared = (await logout(request)).headers.getSetCookie()
      expect(cleared.length).toBeGreaterThan(0)
      for (const line of cleared) expect(line).toMatch(/; SameSite=None; Secure; Partitioned$/)
    } finally {
      if (before === undefined) delete process.env.ALLOW_EMBEDDING
      else process.env.ALLOW_EMBEDDING = before
    }
    // back to the default: Strict, not Secure on http
    expect(await commitSession(new Request('http://console.test/login'), SESSION)).toMatch(
      /; SameSite=Strict(?!.*Secure)/,
    )
  })

  it('stores token, user id, expires-in, expiry date and org id, and does not leak the token in clear', async () => {
    const now = Date.UTC(2026, 0, 1)
    const cookie = await commitSession(new Request('http://console.test/'), SESSION, now)
    expect(cookie).not.toContain('tok-abc')
    const request = new Request('http://console.test/', { headers: { Cookie: pair(cookie) } })
    expect(await getSession(request, now + 1000)).toEqual({ ...SESSION, expiresAt: now + 3_600_000 })
  })

  it('is refused when tampered with', async () => {
    const cookie = pair(await commitSession(new Request('http://console.test/'), SESSION))
    const [name, value] = cookie.split('=')
    const forged = `${name}=${value!.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'))}`
    expect(await getSession(new Request('http://console.test/', { headers: { Cookie: forged } }))).toBeNull()
  })

  it('once read, is still refused when tampered with or expired, and still read from a rotated secret list', async () => {
    const now = Date.UTC(2026, 0, 2)
    const cookie = pair(await commitSession(new Request('http://console.test/'), SESSION, now))
    const read = (value: string, at: number) =>
      getSession(new Request('http://console.test/', { headers: { Cookie: `cc_theme=dark; ${value}` } }), at)
    expect(await read(cookie, now + 1000)).toMatchObject({ token: 'tok-abc' })
    expect(await read(cookie, now + 2000)).toMatchObject({ token: 'tok-abc' })
    // the signature's last character changed: not the value read before
    expect(
      await read(
        cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        now + 3000,
      ),
    ).toBeNull()
    expect(await read(cookie, now + 3_600_000)).toBeNull()
    const secret = process.env.SESSION_SECRET
    process.env.SESSION_SECRET = `a-new-secret-first-0123456789,${secret}`
    try {
      expect(await read(cookie, now + 4000)).toMatchObject({ token: 'tok-abc' })
      process.env.SESSION_SECRET = 'only-a-new-secret-0123456789'
      expect(await read(cookie, now + 5000)).toBeNull()
    } finally {
      process.env.SESSION_SECRET = secret
    }
  })
})

describe('requireSession', () => {
  it('redirects to /login with prevUrl (path and query) when there is no session', async () => {
    const response = await thrown(requireSession(new Request('http://console.test/data/tables?page=2&filter=a b')))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables%3Fpage%3D2%26filter%3Da%2520b')
  })

  it('redirects when the session has expired, and drops the stale cookie', async () => {
    const past = Date.now() - 2 * 3_600_000
    const cookie = pair(await commitSession(new Request('http://console.test/'), SESSION, past))
    const response = await thrown(
      requireSession(new Request('http://console.test/dashboard', { headers: { Cookie: cookie } })),
    )
    expect(response.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_session=;.*Expires=Thu, 01 Jan 1970/)
  })

  it('returns the session while it is valid', async () => {
    const cookie = pair(await commitSession(new Request('http://console.test/'), SESSION))
    const session = await requireSession(new Request('http://console.test/dashboard', { headers: { Cookie: cookie } }))
    expect(session.token).toBe('tok-abc')
    expect(session.orgId).toBe('o1')
  })
})

describe('safeRedirect', () => {
  it.each([
    ['/data/tables?page=2', '/data/tables?page=2'],
    ['/dashboard', '/dashboard'],
    ['//evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
    ['data/tables', '/dashboard'],
    ['/\t/evil.example', '/dashboard'],
    ['/€', '/dashboard'],
    ['/\u0100', '/dashboard'],
    ['/data/tables?q=é', '/dashboard'],
    ['/a b', '/dashboard'],
    ['/data/tables?q=%C3%A9', '/data/tables?q=%C3%A9'],
    ['', '/dashboard'],
    [null, '/dashboard'],
    [undefined, '/dashboard'],
  ])('%s → %s', (to, expected) => {
    expect(safeRedirect(to)).toBe(expected)
  })
})

describe('logout and timezone', () => {
  it('logout clears the session and toast cookies, keeps the timezone preference, and goes to /login', async () => {
    const response = await logout(new Request('http://console.test/logout', { method: 'POST' }))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login')
    const cleared = response.headers.getSetCookie().map((line) => line.split('=')[0])
    expect(cleared).toEqual(['cc_session', 'cc_toast', 'cc_local_zone'])
    for (const line of response.headers.getSetCookie()) expect(line).toMatch(/Max-Age=0/)
  })

  it('timezone is Local by default and remembers UTC in its own cookie', async () => {
    expect(await getTimezone(new Request('http://console.test/'))).toBe('Local')
    const cookie = await commitTimezone(new Request('http://console.test/'), 'UTC')
    expect(cookie).toMatch(/^cc_timezone=/)
    expect(await getTimezone(new Request('http://console.test/', { headers: { Cookie: pair(cookie) } }))).toBe('UTC')
  })
})
