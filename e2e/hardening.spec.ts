import { expect, test } from './fixtures'

/**
 * Issue 49: the console's own defences, as an attacker meets them and as a user sees them, with
 * and without scripts. Every account here is one of this spec's own (unknown to the cluster, which
 * the console must treat as a known one), so the e2e admin is never throttled.
 */

/** An email no other test or run uses. */
const freshEmail = (what: string) =>
  `${what}-${test.info().project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@console.test`

test.describe('login throttling', () => {
  test('after 5 wrong passwords the form says to wait, keeps the email, never echoes the password; 429 with Retry-After', async ({
    page,
  }, testInfo) => {
    test.slow()
    const email = freshEmail('guess')
    await page.goto('/login')
    const alert = page.getByRole('alert')
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(`wrong-password-${i}`)
      await page.getByRole('button', { name: 'Log in' }).click()
      await expect(alert).toContainText('Invalid username or password.')
      // a fresh answer each time (without scripts a new page; with them the same alert again)
      await page.goto('/login')
    }
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('wrong-password-5')
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(alert).toContainText(/Too many sign-in attempts\. Try again in (30|[12]\d) seconds\./)
    await expect(page.getByLabel('Email')).toHaveValue(email)
    // without scripts the page is the server's answer: the password is not in it (with them the field keeps what was
    // typed, as after any refusal)
    if (testInfo.project.name === 'no-js') await expect(page.getByLabel('Password')).toHaveValue('')
    await expect(page).toHaveURL(/\/login$/)

    // the same refusal to a client without a browser: 429 and when to come back
    const answer = await page.request.post('/login', {
      form: { email, password: 'wrong-password-6' },
      maxRedirects: 0,
    })
    expect(answer.status()).toBe(429)
    expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0)
    expect(await answer.text()).not.toContain('wrong-password-6')
  })

  test('recovery emails for one address are limited: the 6th in an hour says to wait', async ({ page }) => {
    const email = freshEmail('flood')
    for (let i = 0; i < 5; i++) {
      await page.goto('/password-reset')
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Send recovery email' }).click()
      await expect(page.getByText('Recovery email sent')).toBeVisible()
    }
    await page.goto('/password-reset')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send recovery email' }).click()
    await expect(page.getByRole('alert')).toContainText(
      /Too many recovery emails asked for\. Try again in \d+ minutes\./,
    )
    await expect(page.getByText('Recovery email sent')).toHaveCount(0)
    await expect(page.getByLabel('Email')).toHaveValue(email)
  })
})

test.describe('request bodies', () => {
  test('a form past its limit answers 413 with a page that says so (a 100 KB password on the login form)', async ({
    page,
  }, testInfo) => {
    await page.goto('/login')
    await page.getByLabel('Email').fill(freshEmail('big'))
    await page.getByLabel('Password').fill('p'.repeat(100 * 1024))
    const posted = page.waitForResponse((response) => response.request().method() === 'POST')
    await page.getByRole('button', { name: 'Log in' }).click()
    expect((await posted).status()).toBe(413)
    if (testInfo.project.name === 'no-js') {
      await expect(page.getByRole('heading', { level: 1, name: 'The form is too big' })).toBeVisible()
    }
    // with scripts the route's error says it, from the same answer
    await expect(page.getByText(/This form is too big for the console: at most 64 KB can be sent here/)).toBeVisible()
    await expect(page.getByRole('link', { name: /Go to the console|Back to the dashboard/ })).toBeVisible()
  })

  test('a body that is not a form answers 415 with a page, never a 500; a broken one 400', async ({ page }) => {
    for (const [type, data] of [
      ['application/json', JSON.stringify({ email: 'a@console.test', password: 'x' })],
      ['text/plain', 'email=a@console.test'],
      ['application/xml', '<login/>'],
    ] as const) {
      for (const path of ['/login', '/password-reset', '/data/new-table']) {
        const answer = await page.request.post(path, {
          headers: { 'Content-Type': type, Accept: 'text/html' },
          data,
          maxRedirects: 0,
        })
        expect(answer.status(), `${type} to ${path}`).toBe(415)
        expect(await answer.text()).toContain('Not a form the console reads')
      }
    }
    const broken = await page.request.post('/login', {
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', Accept: 'text/html' },
      data: 'not multipart at all',
      maxRedirects: 0,
    })
    expect(broken.status()).toBe(400)
    expect(await broken.text()).toContain('The form could not be read')
    // and the console still answers
    await page.goto('/login')
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  })

  test('a theme redirectTo that is not a plain path goes to the start page, never a 500', async ({
    authedPage: page,
  }) => {
    const answer = await page.request.post('/resources/theme', {
      form: { theme: 'dark', redirectTo: '/€' },
      maxRedirects: 0,
    })
    expect(answer.status()).toBe(302)
    expect(answer.headers()['location']).toBe('/dashboard')
  })
})

test.describe('origin check', () => {
  test('refuses the same host over another scheme, and a forwarded host no trusted proxy sent', async ({
    page,
    baseURL,
  }) => {
    const host = new URL(baseURL!).host
    const attempts: Record<string, string>[] = [
      { Origin: `https://${host}` },
      { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    ]
    for (const headers of attempts) {
      const answer = await page.request.post('/password-reset', {
        headers,
        form: { email: freshEmail('origin') },
        maxRedirects: 0,
      })
      expect(answer.status(), JSON.stringify(headers)).toBe(403)
      expect(await answer.text()).toContain('Request refused')
    }
  })
})
