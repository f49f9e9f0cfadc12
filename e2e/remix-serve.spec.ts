import { expect, logIn, test } from './fixtures'
import { E2E_PORT } from './env'
import { startSecondConsole } from './second-console'

/**
 * `remix-serve build/server/index.js` is a supported way to run the console (decision 017): the
 * pages set the same security headers themselves, and a user can log in and work.
 */
test.describe('run with remix-serve', () => {
  // one port per project: the js and no-js workers may run this at the same time
  const portOf = (project: string) => E2E_PORT + 60 + (project === 'js' ? 0 : 1)
  let second: Awaited<ReturnType<typeof startSecondConsole>> | undefined

  test.beforeAll(async ({}, testInfo) => {
    const port = portOf(testInfo.project.name)
    second = await startSecondConsole(['npx', 'remix-serve', 'build/server/index.js'], port)
  })

  test.afterAll(async () => {
    await second?.stop()
  })

  test('pages carry the CSP with a nonce on every script, frames are denied, and a user logs in', async ({ page }) => {
    const answer = await fetch(`${second!.url}/login`)
    expect(answer.headers.get('x-frame-options')).toBe('DENY')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = answer.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce, csp).toBeTruthy()
    const scripts = (await answer.text()).match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)

    await page.goto(`${second!.url}/login`)
    await logIn(page)
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Tables' })).toBeVisible()
  })
})
