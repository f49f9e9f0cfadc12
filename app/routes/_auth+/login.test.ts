import { describe, expect, it } from 'vitest'
import { ADMIN } from '#tests/cluster'
import { failWith, server, useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, post, responseFrom, unwrap } from '#tests/session'
import { getZodConstraint } from '@conform-to/zod/v4'
import { LoginFormSchema } from '~/schemas/auth'
import { action, loader } from './login'
import { TEST_CONSOLE_URL } from '#tests/env'
import { MALFORMED_FORM_MESSAGE } from '~/utils/form-shape'
import { FAILED_SIGN_IN_MS } from './__throttle.server'

useTestCluster()

async function submit(form: Record<string, string>, path = '/login') {
  const response = await action(args(post(path, form)))
  return response
}

describe('login', () => {
  it('asks for the email and password, word for word', async () => {
    const { data, status } = unwrap(await submit({}))
    expect(status).toBe(400)
    expect(data.result.error).toMatchObject({ email: ['Email is required'], password: ['Password is required'] })
  })

  it('refuses a malformed email and keeps what was typed (but not the password)', async () => {
    const { data } = unwrap(await submit({ email: 'not-an-email', password: 'secret' }))
    expect(data.result.error).toMatchObject({ email: ['Wrong email format'] })
    expect(data.result.initialValue).toMatchObject({ email: 'not-an-email' })
    expect(data.result.initialValue?.password).toBeUndefined()
  })

  it("shows the server's detail on a 401", async () => {
    const { data, status } = unwrap(await submit({ email: ADMIN.email, password: 'wrong-password' }))
    expect(status).toBe(401)
    expect(data.result.error?.['']).toEqual(['Invalid username or password.'])
  })

  it('sends no Authorization header', async () => {
    let authorization: string | null = 'unset'
    server.events.on('request:start', ({ request }) => {
      authorization = request.headers.get('Authorization')
    })
    await submit({ email: ADMIN.email, password: ADMIN.password })
    server.events.removeAllListeners()
    expect(authorization).toBeNull()
  })

  it('stores the session and goes back to prevUrl', async () => {
    const response = asResponse(
      await submit({ email: ADMIN.email, password: ADMIN.password, prevUrl: '/data/tables?page=2' }),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/data/tables?page=2')
    const setCookie = response.headers.get('Set-Cookie')!
    expect(setCookie).toMatch(/^cc_session=.*Max-Age=86400; Path=\/; HttpOnly; SameSite=Strict$/)
  })

  it('a prevUrl sent twice (a hidden field the page sets) says the form could not be read, at the top, email kept', async () => {
    const body = new URLSearchParams([
      ['email', ADMIN.email],
      ['password', ADMIN.password],
      ['prevUrl', '/data/tables'],
      ['prevUrl', '/jobs'],
    ])
    const request = new Request(`${TEST_CONSOLE_URL}/login`, { method: 'POST', body })
    const { data, status } = unwrap<{
      result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
    }>(await action(args(request)))
    expect(status).toBe(400)
    expect(data.result.error?.['']).toEqual([MALFORMED_FORM_MESSAGE])
    expect(data.result.initialValue?.email).toBe(ADMIN.email)
  })

  it('never redirects off the site', async () => {
    for (const prevUrl of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const response = asResponse(await submit({ email: ADMIN.email, password: ADMIN.password, prevUrl }))
      expect(response.headers.get('Location')).toBe('/dashboard')
    }
  })

  it('marks the cookie Secure on https', async () => {
    const response = asResponse(
      await action(
        args(
          post('/login', { email: ADMIN.email, password: ADMIN.password }, undefined, { 'X-Forwarded-Proto': 'https' }),
        ),
      ),
    )
    expect(response.headers.get('Set-Cookie')).toMatch(/; Secure/)
  })

  it('shows the catalogue message when the cluster fails', async () => {
    failWith('/config/v1/login', 503, '')
    const { data } = unwrap(await submit({ email: ADMIN.email, password: ADMIN.password }))
    expect(data.result.error?.['']).toEqual(['Service Unavailable.'])
  })

  it('sends a signed-in visitor on from the login page', async () => {
    const response = asResponse(await submit({ email: ADMIN.email, password: ADMIN.password }))
    const thrown = await responseFrom(() => loader(args(get('/login?prevUrl=%2Fscale', cookieFrom(response)))))
    expect(thrown.headers.get('Location')).toBe('/scale')
    // The form's HTML constraints come from the loader; the browser loads the schema later (decision 032).
    const { constraint } = await loader(args(get('/login')))
    expect(constraint).toEqual(getZodConstraint(LoginFormSchema))
    expect(constraint.email).toMatchObject({ required: true })
  })

  it('drops a prevUrl a Location header cannot carry (non-Latin-1, a space) and goes to the start page, no 500', async () => {
    let cookie = ''
    for (const prevUrl of ['/€', '/data/tables?q=é', '/a b', '/\u0100']) {
      const response = asResponse(await submit({ email: ADMIN.email, password: ADMIN.password, prevUrl }))
      expect(response.status, prevUrl).toBe(302)
      expect(response.headers.get('Location'), prevUrl).toBe('/dashboard')
      cookie = cookieFrom(response)
    }
    // signed in already, the page's own redirect drops it too
    const thrown = await responseFrom(() => loader(args(get('/login?prevUrl=%2F%E2%82%AC', cookie))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/dashboard')
  })
})

/** A login POST from `clientAddress`, as server/index.ts passes it in the load context. */
async function submitFrom(clientAddress: string, form: Record<string, string>) {
  return action({ ...args(post('/login', form)), context: { clientAddress } })
}

describe('login throttling (issue 49)', () => {
  it('after 5 wrong passwords for an account from one address: 429, form error, Retry-After, email kept, password not echoed', async () => {
    const email = 'guessed@console.test'
    for (let i = 0; i < 5; i++) {
      const { status } = unwrap(await submitFrom('198.51.100.20', { email, password: `guess-${i}` }))
      expect(status).toBe(401)
    }
    const refused = await submitFrom('198.51.100.20', { email, password: 'guess-5' })
    const { data, status } = unwrap<{
      result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
    }>(refused)
    expect(status).toBe(429)
    expect(data.result.error?.['']).toEqual(['Too many sign-in attempts. Try again in 30 seconds.'])
    expect(data.result.initialValue?.email).toBe(email)
    expect(data.result.initialValue?.password).toBeUndefined()
    expect(JSON.stringify(data)).not.toContain('guess-5')
    const { init } = refused as unknown as { init?: ResponseInit }
    expect(new Headers(init?.headers).get('Retry-After')).toBe('30')
  })

  it('a throttled attempt never reaches the cluster, even with the right password', async () => {
    for (let i = 0; i < 5; i++) await submitFrom('198.51.100.21', { email: ADMIN.email, password: `wrong-${i}` })
    let calls = 0
    server.events.on('request:start', () => void calls++)
    const { status } = unwrap(await submitFrom('198.51.100.21', { email: ADMIN.email, password: ADMIN.password }))
    server.events.removeAllListeners()
    expect(status).toBe(429)
    expect(calls).toBe(0)
    // from another address the admin still logs in
    const response = asResponse(await submitFrom('198.51.100.22', { email: ADMIN.email, password: ADMIN.password }))
    expect(response.status).toBe(302)
  })

  it('answers an unknown account as a known one: same status, same message, no faster', async () => {
    const timed = async (email: string) => {
      const started = performance.now()
      const { data, status } = unwrap(await submitFrom('198.51.100.23', { email, password: 'not-the-password' }))
      return { status, message: data.result.error?.[''], ms: performance.now() - started }
    }
    const known = await timed(ADMIN.email)
    const unknown = await timed('nobody-here@console.test')
    expect(unknown.status).toBe(known.status)
    expect(unknown.message).toEqual(known.message)
    expect(known.ms).toBeGreaterThanOrEqual(FAILED_SIGN_IN_MS - 5)
    expect(unknown.ms).toBeGreaterThanOrEqual(FAILED_SIGN_IN_MS - 5)
  })
})
