import { createCookieSessionStorage } from '@remix-run/node'
import type { Response } from '@playwright/test'
import { SESSION_SECRET } from './env'
import { createTableThroughForm, expect, logIn, test } from './fixtures'

/** Every cluster token is a JWT: three base64url parts, the first one starting `eyJ` (`{"`). */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/

test('the session token never appears in any HTML, data or script the browser receives', async ({ page, context }) => {
  const bodies: { url: string; text: string }[] = []
  const pending: Promise<void>[] = []
  page.on('response', (response: Response) => {
    pending.push(
      response
        .body()
        .then((body) => void bodies.push({ url: response.url(), text: body.toString('latin1') }))
        .catch(() => undefined), // redirects have no body
    )
  })

  await page.goto('/dashboard')
  await logIn(page)
  await expect(page).toHaveURL(/\/dashboard$/)

  // The token the console holds for this browser, read from its signed (not encrypted) cookie.
  const cookie = (await context.cookies()).find((c) => c.name === 'cc_session')
  expect(cookie, 'the session cookie').toBeDefined()
  expect(cookie!.httpOnly).toBe(true)
  expect(cookie!.sameSite).toBe('Strict')
  const storage = createCookieSessionStorage({ cookie: { name: 'cc_session', secrets: [SESSION_SECRET] } })
  const session = await storage.getSession(`cc_session=${cookie!.value}`)
  const token = String(session.get('token'))
  expect(token, 'a cluster token is a JWT').toMatch(JWT)

  // Walk the pages of this section, the shell's menus and a form round trip.
  const { url } = await createTableThroughForm(page)
  await page.goto('/data/tables')
  await page.goto('/data/new-table')
  await page.getByRole('button', { name: 'Create table' }).click()
  await expect(page.getByLabel('Table name')).toHaveAttribute('aria-invalid', 'true')
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data', exact: true }).click()
  await expect(page).toHaveURL(/\/data\/tables$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await Promise.all(pending)

  const documents = bodies.filter((body) => body.url.startsWith(new URL(page.url()).origin))
  expect(documents.length).toBeGreaterThan(5)
  if (test.info().project.name === 'js') {
    // Scripts and single-fetch data were read too, not only HTML.
    expect(documents.some((body) => body.url.endsWith('.js'))).toBe(true)
    expect(documents.some((body) => body.url.includes('.data'))).toBe(true)
  }
  for (const { url: from, text } of documents) {
    expect(text.includes(token), `the token in ${from}`).toBe(false)
    expect(text.match(JWT)?.[0], `a JWT-shaped string in ${from}`).toBeUndefined()
  }
})
