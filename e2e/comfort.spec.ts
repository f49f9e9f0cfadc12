import type { Page } from '@playwright/test'
import { ADMIN_EMAIL } from './env'
import { expect, test } from './fixtures'

/** The page's background colour as the browser computed it (rgb(…)). */
async function pageBackground(page: Page) {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor)
}

/** True for an rgb() colour darker than mid-grey. */
function isDark(rgb: string) {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number)
  return (r! + g! + b!) / 3 < 128
}

test.describe('theme', () => {
  test('the user menu switches between light, dark and system; the server renders the choice', async ({
    authedPage: page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/data/tables?q=zzz')
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'system')
    expect(isDark(await pageBackground(page))).toBe(false)

    await page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL }).click()
    await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click()
    // back on the same page (filter kept), dark from the server's first byte
    await expect(page).toHaveURL(/\/data\/tables\?q=zzz$/)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(isDark(await pageBackground(page))).toBe(true)
    const html = await (await page.request.get('/dashboard')).text()
    expect(html).toMatch(/<html[^>]*class="dark"/)

    await page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL }).click()
    await expect(page.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('button', { name: 'Light' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(isDark(await pageBackground(page))).toBe(false) // light stays light on a dark device

    await page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL }).click()
    await page.getByRole('button', { name: 'System' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'system')
    expect(isDark(await pageBackground(page))).toBe(true) // the device is dark
  })

  test('"system" follows the device through CSS alone', async ({ authedPage: page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/dashboard')
    expect(isDark(await pageBackground(page))).toBe(true)
    await page.emulateMedia({ colorScheme: 'light' })
    expect(isDark(await pageBackground(page))).toBe(false)
  })

  test('the settings page saves the theme with the timezone', async ({ authedPage: page }) => {
    await page.goto('/profile/settings')
    const theme = page.getByRole('group', { name: 'Theme' })
    await expect(theme.getByLabel('System (follows your device)')).toBeChecked()
    await theme.getByLabel('Dark').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Settings saved')).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expect(page.getByRole('group', { name: 'Theme' }).getByLabel('Dark')).toBeChecked()
  })
})

test.describe('time zones (issue 35)', () => {
  test('a zone chosen in Settings shows every time in it, labelled, with or without scripts', async ({
    authedPage: page,
  }) => {
    await page.goto('/profile/settings')
    const zone = page.getByLabel('Timezone', { exact: true })
    await expect(zone).toHaveValue('Local')
    await zone.selectOption('Asia/Tokyo')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Settings saved')).toBeVisible()
    await expect(page.getByLabel('Timezone', { exact: true })).toHaveValue('Asia/Tokyo')
    await page.goto('/data/tables?q=web_logs')
    await page.getByRole('link', { name: 'web_logs', exact: true }).click()
    await expect(page.locator('time').first()).toHaveText(/ GMT\+9$/)
  })

  test.describe('with scripts, Local', () => {
    test.use({ timezoneId: 'Asia/Kolkata' })
    test("is the browser's zone, remembered, so the server renders it too", async ({ authedPage: page }, testInfo) => {
      test.skip(testInfo.project.use.javaScriptEnabled === false, 'the browser tells its zone with scripts')
      await page.goto('/data/tables?q=web_logs')
      await page.getByRole('link', { name: 'web_logs', exact: true }).click()
      await expect(page.locator('time').first()).toHaveText(/ GMT\+5:30$/)
      await expect
        .poll(async () => (await page.context().cookies()).find((cookie) => cookie.name === 'cc_local_zone')?.value)
        .toBeTruthy()
      // the server's own HTML (no scripts run on it) now shows Local times in that zone
      const html = await (await page.request.get(page.url())).text()
      expect(html).toMatch(/<time[^>]*>[^<]* GMT\+5:30<\/time>/)
    })
  })
})

test.describe('keyboard', () => {
  test('? opens the shortcuts sheet and Escape closes it; g then a letter jumps to a section', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'shortcuts are scripts')
    await page.goto('/dashboard')
    await page.locator('main').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(sheet).toBeVisible()
    await expect(sheet).toContainText('Go to Tables')
    await page.keyboard.press('Escape')
    await expect(sheet).toBeHidden()

    // Query comes last: its page puts the focus in the SQL editor once the editor has loaded (by
    // design), and letters typed there are SQL, not shortcuts.
    for (const [key, path, heading] of [
      ['t', '/data/tables', 'Tables'],
      ['j', '/jobs/alter-jobs', 'Jobs'],
      ['d', '/dashboard', 'Dashboard'],
      ['q', '/queries', 'Query'],
    ] as const) {
      // The shortcut applies wherever the focus is outside a field (here: nowhere, on the page).
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await page.keyboard.press('g')
      await page.keyboard.press(key)
      await expect(page).toHaveURL(new RegExp(`${path}$`))
      await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible()
    }
  })

  test('Ctrl+Enter sends the form the focus is in; letters typed in a field are not shortcuts', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'shortcuts are scripts')
    await page.goto('/security/roles')
    const filter = page.getByLabel('Filter by role name')
    await filter.fill('')
    await filter.pressSequentially('gt?zzz') // would jump to Tables or open the sheet if it were a shortcut
    await expect(page).toHaveURL(/\/security\/roles$/)
    await filter.press('Control+Enter')
    await expect(page).toHaveURL(/q=gt%3Fzzz/)
    await expect(page.getByText('No roles match “gt?zzz”.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Clear the filter' })).toHaveAttribute('href', '/security/roles')
  })

  test('after a refused submission the page loads with focus on the first field in error', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(
      testInfo.project.use.javaScriptEnabled !== false,
      'with scripts the page does not load again (autofocus applies on load)',
    )
    await page.goto('/profile/change-password')
    await page.getByLabel('Current password').fill('not-checked-yet')
    await page.getByLabel('New password', { exact: true }).fill('abcdefgh1')
    await page.getByLabel('Repeat new password').fill('abcdefgh2')
    await page.getByRole('button', { name: /change password/i }).click()
    await expect(page.getByLabel('Repeat new password')).toHaveAccessibleDescription(/Passwords do not match/)
    await expect(page.getByLabel('Repeat new password')).toBeFocused()
  })

  test('after a saved form the page loads with focus on its toast', async ({ authedPage: page }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled !== false, 'with scripts the page does not load again')
    await page.goto('/profile/settings')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeFocused()
  })
})

test.describe('small screens', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  /** How far the page is wider than the viewport (0 when nothing overflows). */
  async function overflow(page: Page) {
    return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  }

  test('nothing is wider than a 390 px phone; the sidebar is a menu button', async ({ authedPage: page }) => {
    for (const path of [
      '/dashboard',
      '/data/tables',
      '/components-kit',
      '/data/new-table',
      '/profile/settings',
      '/security/roles?q=zzz',
    ]) {
      await page.goto(path)
      expect(await overflow(page), path).toBeLessThanOrEqual(0)
    }
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav).toBeHidden()
    await page.getByLabel('Toggle sidebar').check({ force: true })
    await expect(nav).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeInViewport()
  })

  test('a wide table scrolls inside its card with its first column kept in view', async ({ authedPage: page }) => {
    await page.goto('/security/auth-logs')
    const card = page
      .locator('[role=group][tabindex="0"]')
      .filter({ has: page.getByRole('table') })
      .first()
    const sizes = await card.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }))
    expect(sizes.scroll).toBeGreaterThan(sizes.client)
    const firstCell = card.locator('tbody tr > :first-child').first()
    const before = (await firstCell.boundingBox())!
    await card.evaluate((element) => element.scrollBy(200, 0))
    const after = (await firstCell.boundingBox())!
    expect(Math.round(after.x)).toBe(Math.round(before.x))
    expect(await overflow(page)).toBeLessThanOrEqual(0)
  })
})

test('the sidebar runs the full height of a long page', async ({ authedPage: page }) => {
  await page.setViewportSize({ width: 1280, height: 500 })
  await page.goto('/components-kit')
  const heights = await page.evaluate(() => ({
    page: document.documentElement.scrollHeight,
    sidebar: document.getElementById('console-sidebar')!.getBoundingClientRect().height,
  }))
  expect(heights.page).toBeGreaterThan(1500)
  expect(heights.sidebar).toBeGreaterThanOrEqual(heights.page - 1)
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toBeInViewport()
})
