import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, logIn, test } from './fixtures'
import { E2E_BASE_URL, E2E_PORT } from './env'
import { startSecondConsole } from './second-console'

/**
 * Frames, scripts and CSRF in a real browser. The console under test is at 127.0.0.1; "another
 * site" is a page served from localhost (a different site to the browser) that frames it.
 */

/** Serves one page that frames `src` (and can post a form to it) from http://localhost:<port>. */
async function otherSite(src: string, host = 'localhost'): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html')
    res.end(
      `<!doctype html><title>Another site</title><h1>Another site</h1>` +
        `<iframe name="console" title="Console" src="${src}" width="1200" height="760"></iframe>`,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, resolve))
  return { url: `http://${host}:${(server.address() as AddressInfo).port}/`, server }
}

test.describe('default mode', () => {
  test('the console refuses to be framed by another site', async ({ page }) => {
    const site = await otherSite(`${E2E_BASE_URL}/login`)
    try {
      await page.goto(site.url)
      await expect(page.getByRole('heading', { name: 'Another site' })).toBeVisible()
      // the frame's document never becomes the login page (X-Frame-Options DENY, frame-ancestors 'none')
      await page.waitForLoadState('load')
      const frame = page.frame({ name: 'console' })
      expect(frame).not.toBeNull()
      await expect(page.frameLocator('iframe[name=console]').getByLabel('Email')).toHaveCount(0)
      expect(frame!.url()).not.toBe(`${E2E_BASE_URL}/login`)
    } finally {
      site.server.close()
    }
  })

  test('every script the console writes carries the nonce of its Content-Security-Policy; an injected one does not run', async ({
    page,
    request,
  }, testInfo) => {
    const answer = await request.get('/login')
    const csp = answer.headers()['content-security-policy'] ?? ''
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce, csp).toBeTruthy()
    const html = await answer.text()
    const scripts = html.match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)

    test.skip(testInfo.project.name === 'no-js', 'injecting a script needs scripts on')
    await page.goto('/login')
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.head.appendChild(script)
      await new Promise((resolve) => setTimeout(resolve, 50))
      return (window as unknown as { __injected?: boolean }).__injected === true
    })
    expect(ran).toBe(false)
  })

  test('each request for the same page gets a nonce of its own, on every script of that page', async ({ request }) => {
    const nonceOf = (csp: string) => /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1] ?? ''
    const get = async () => {
      const answer = await request.get('/login')
      expect(answer.status()).toBe(200)
      return { nonce: nonceOf(answer.headers()['content-security-policy'] ?? ''), html: await answer.text() }
    }
    const first = await get()
    const second = await get()
    expect(first.nonce).toBeTruthy()
    expect(second.nonce).not.toBe(first.nonce)
    expect(second.html).not.toContain(first.nonce)
    const scripts = second.html.match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${second.nonce}"`)
  })
})

test.describe('ALLOW_EMBEDDING=true', () => {
  // A second console on the same local cluster, started by this spec with embedding allowed.
  // one port per project: the js and no-js workers may run this at the same time
  const portOf = (project: string) => E2E_PORT + 50 + (project === 'js' ? 0 : 1)
  // localhost: Chromium keeps Secure cookies on http://localhost (not on http://127.0.0.1)
  let consoleUrl = ''
  let second: Awaited<ReturnType<typeof startSecondConsole>> | undefined

  test.beforeAll(async ({}, testInfo) => {
    const port = portOf(testInfo.project.name)
    consoleUrl = `http://localhost:${port}`
    second = await startSecondConsole(['npx', 'tsx', 'server/index.ts'], port, { ALLOW_EMBEDDING: 'true' })
  })

  test.afterAll(async () => {
    await second?.stop()
  })

  test('inside another site’s frame the user logs in and works: the session cookie is SameSite=None; Secure; Partitioned', async ({
    page,
  }) => {
    const login = await fetch(`${consoleUrl}/login`)
    expect(login.headers.get('x-frame-options')).toBeNull()
    expect(login.headers.get('content-security-policy')).not.toContain('frame-ancestors')

    const site = await otherSite(`${consoleUrl}/login`, '127.0.0.1')
    try {
      await page.goto(site.url)
      const frame = page.frameLocator('iframe[name=console]')
      await expect(frame.getByLabel('Email')).toBeVisible()
      await logIn(frame as unknown as Parameters<typeof logIn>[0])
      // the session cookie came back on the next request inside the frame: the dashboard, not the login
      await expect(frame.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
      const cookies = await page.context().cookies(consoleUrl)
      const session = cookies.find((cookie) => cookie.name === 'cc_session')
      expect(session).toMatchObject({ sameSite: 'None', secure: true, httpOnly: true })
      // a page further in works too
      await frame.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data', exact: true }).click()
      await expect(frame.getByRole('heading', { level: 1, name: 'Tables' })).toBeVisible()
    } finally {
      site.server.close()
    }
  })

  test('a write the other site sends is refused (the Origin check is the CSRF protection here)', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'the other site sends its form with a script')
    const site = await otherSite(`${consoleUrl}/login`, '127.0.0.1')
    try {
      await page.goto(site.url)
      const frame = page.frameLocator('iframe[name=console]')
      await expect(frame.getByLabel('Email')).toBeVisible()
      // the other site posts a form into the console's frame: a cross-site write with the user's cookies
      await page.evaluate((target) => {
        const form = document.createElement('form')
        form.method = 'post'
        form.action = `${target}/logout`
        form.target = 'console'
        document.body.appendChild(form)
        form.submit()
      }, consoleUrl)
      await expect(frame.getByRole('heading', { name: 'Request refused' })).toBeVisible()
      await expect(frame.getByText('This change was sent from another site')).toBeVisible()
    } finally {
      site.server.close()
    }
  })
})
