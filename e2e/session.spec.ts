import { createCookieSessionStorage } from '@remix-run/node'
import { E2E_BASE_URL, SESSION_SECRET } from './env'
import { expect, logIn, test } from './fixtures'

const SESSION_COOKIE = 'cc_session'

test.describe('session', () => {
  test('logging in from a protected page lands back on that page', async ({ page }) => {
    await page.goto('/data/tables?q=nothing')
    await expect(page).toHaveURL(/\/login\?prevUrl=%2Fdata%2Ftables%3Fq%3Dnothing$/)
    await logIn(page)
    await expect(page).toHaveURL(/\/data\/tables\?q=nothing$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Tables' })).toBeVisible()
  })

  test('logging in straight from /login lands on the dashboard', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/login\?prevUrl=/)
    await page.goto('/login')
    await logIn(page)
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  })

  test('a wrong password keeps the user on the login page with an error', async ({ page }) => {
    await page.goto('/login')
    await logIn(page, undefined, 'not-the-password')
    await expect(page).toHaveURL(/\/login/)
    await expect(page.getByRole('alert')).toBeVisible()
    await expect(page.getByLabel('Email')).not.toHaveValue('')
  })

  test('logging out ends the session and returns to the login page', async ({ page, context }) => {
    await page.goto('/login')
    await logIn(page)
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.getByRole('banner').getByRole('button', { name: /@/ }).click()
    await page.getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/login/)
    expect((await context.cookies()).filter((cookie) => cookie.name.startsWith('cc_'))).toEqual([])
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login\?prevUrl=%2Fdashboard$/)
  })

  test('a missing session redirects to login with the page as prevUrl', async ({ page }) => {
    await page.goto('/data/new-table')
    await expect(page).toHaveURL(/\/login\?prevUrl=%2Fdata%2Fnew-table$/)
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  })

  test('an expired session redirects to login with the page as prevUrl', async ({ page, context }) => {
    // A correctly signed session whose token expired a minute ago: only the expiry check can refuse it.
    const storage = createCookieSessionStorage({ cookie: { name: SESSION_COOKIE, secrets: [SESSION_SECRET] } })
    const session = await storage.getSession()
    session.set('token', 'expired-token')
    session.set('userId', '00000000-0000-4000-8000-000000000000')
    session.set('orgId', '00000000-0000-4000-8000-000000000001')
    session.set('expiresIn', 60)
    session.set('expiresAt', Date.now() - 60_000)
    const setCookie = await storage.commitSession(session)
    const value = setCookie.slice(`${SESSION_COOKIE}=`.length, setCookie.indexOf(';'))
    await context.addCookies([{ name: SESSION_COOKIE, value, url: E2E_BASE_URL }])

    await page.goto('/data/tables')
    await expect(page).toHaveURL(/\/login\?prevUrl=%2Fdata%2Ftables$/)
    // The stale cookie is cleared, not kept.
    expect((await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined()
  })
})
