import { ADMIN_EMAIL } from './env'
import { expect, test } from './fixtures'

const DOCS_ORIGIN = 'https://docs.hydrolix.io'

test.describe('shell', () => {
  test('the user menu is labelled with the email and offers Settings, Create token and Log out', async ({
    authedPage: page,
  }) => {
    await page.goto('/dashboard')
    const menu = page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL })
    await expect(menu).toBeVisible()
    await expect(page.getByRole('link', { name: 'Settings' })).toBeHidden()
    await menu.click()
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/profile/settings')
    await expect(page.getByRole('link', { name: 'Create token' })).toHaveAttribute('href', '/profile/create-token')
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible()
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(page).toHaveURL(/\/profile\/settings$/)
  })

  test('+ add new opens the creation menu with its fifteen entries', async ({ authedPage: page }) => {
    await page.goto('/dashboard')
    await page.getByRole('button', { name: '+ add new' }).click()
    const entries = page.getByRole('list', { name: 'Create' }).getByRole('link')
    await expect(entries).toHaveCount(15)
    await expect(entries).toHaveText([
      'Alter job',
      'Summary table',
      'Table view',
      'Batch job',
      'Data function',
      'Data dictionary',
      'Table source',
      'Table transform',
      'Resource pool',
      'Data file',
      'Table',
      'User',
      'Bucket',
      'Role',
      'Credential',
    ])
    await entries.filter({ hasText: /^Table$/ }).click()
    await expect(page).toHaveURL(/\/data\/new-table$/)
    await expect(page.getByRole('heading', { level: 1, name: 'New table' })).toBeVisible()
  })

  test('the sidebar toggle collapses the sidebar to 62 px and opens it again to 180 px', async ({
    authedPage: page,
  }) => {
    await page.goto('/dashboard')
    const sidebar = page.locator('#console-sidebar')
    await expect(sidebar).toHaveCSS('width', '180px')
    await page.getByLabel('Toggle sidebar').click({ force: true })
    await expect(sidebar).toHaveCSS('width', '62px')
    await page.getByLabel('Toggle sidebar').click({ force: true })
    await expect(sidebar).toHaveCSS('width', '180px')
  })

  test('the sidebar links lead to each section, Support and Docs open in a new window', async ({
    authedPage: page,
  }) => {
    await page.goto('/dashboard')
    const nav = page.getByRole('navigation', { name: 'Main' })
    const expected: [string, string][] = [
      ['Dashboard', '/dashboard'],
      ['System Health', '/system-health/counts'],
      ['Data', '/data/tables'],
      ['Jobs', '/jobs/alter-jobs'],
      ['Scale', '/scale'],
      ['Query', '/queries'],
      ['Security', '/security/users'],
    ]
    for (const [name, href] of expected) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href)
    }
    for (const name of ['Support', 'Docs']) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('target', '_blank')
    }
    await nav.getByRole('link', { name: 'Data', exact: true }).click()
    await expect(page).toHaveURL(/\/data\/tables$/)
    await expect(nav.getByRole('link', { name: 'Data', exact: true })).toHaveAttribute('aria-current', 'page')
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
  })

  test('the breadcrumb follows the path and links back to its pages', async ({ authedPage: page }) => {
    await page.goto('/data/new-table')
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(crumbs.getByRole('listitem')).toHaveCount(2)
    await expect(crumbs.getByRole('listitem').first()).toHaveText('Data')
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('New table')

    // A table's page: "Data / Tables / <table>", with Tables linking back to the list.
    await page.goto('/data/tables/00000000-0000-4000-8000-00000000abcd')
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Table')
    await crumbs.getByRole('link', { name: 'Tables' }).click()
    await expect(page).toHaveURL(/\/data\/tables$/)
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Tables')
  })

  test('the contextual Docs link opens the page topic in a new window', async ({ authedPage: page }) => {
    const context = page.context()
    // The network is closed: answer the docs site here so the new window has something to show.
    await context.route(`${DOCS_ORIGIN}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Docs</title>' }),
    )
    await page.goto('/data/tables')
    const docs = page.getByRole('banner').getByRole('link', { name: 'Docs', exact: true })
    await expect(docs).toHaveAttribute('target', '_blank')
    const [popup] = await Promise.all([context.waitForEvent('page'), docs.click()])
    await popup.waitForLoadState()
    expect(popup.url()).toBe(`${DOCS_ORIGIN}/docs/tables`)
    expect(page.url()).toMatch(/\/data\/tables$/)
    await expect(page.getByRole('banner').getByRole('link', { name: 'API', exact: true })).toHaveAttribute(
      'target',
      '_blank',
    )
  })

  test("public/'s files are served as a deployer expects: the icons the page links, robots.txt", async ({
    authedPage: page,
  }) => {
    await page.goto('/dashboard')
    const icons = await page
      .locator('link[rel="icon"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href')))
    expect(icons).toEqual(['/favicon.ico', '/favicon.svg'])
    for (const [path, type] of [
      ['/favicon.ico', 'image/x-icon'],
      ['/favicon.svg', 'image/svg+xml'],
      ['/robots.txt', 'text/plain'],
    ]) {
      const answer = await page.request.get(path!)
      expect(answer.status(), path).toBe(200)
      expect(answer.headers()['content-type'], path).toContain(type)
    }
    expect(await (await page.request.get('/robots.txt')).text()).toContain('Disallow: /')
  })

  test('a page that does not exist says so plainly inside the shell, with the ways on', async ({
    authedPage: page,
  }) => {
    const response = await page.goto('/no/such/page')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
    await expect(page.getByText('The console has no page at /no/such/page.', { exact: false })).toBeVisible()
    await page.getByRole('link', { name: 'Dashboard', exact: true }).last().click()
    await expect(page).toHaveURL(/\/dashboard$/)
  })
})

test.describe('shell on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the sidebar is a menu button, nothing is wider than the screen, and the user menu stays on it', async ({
    authedPage: page,
  }) => {
    for (const path of [
      '/dashboard',
      '/data/tables',
      '/queries',
      '/jobs/batch-jobs',
      '/system-health/counts',
      '/profile/settings',
    ]) {
      await page.goto(path)
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(width, `${path} is ${width}px wide`).toBeLessThanOrEqual(390)
    }

    await page.goto('/dashboard')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Data', exact: true })).toBeHidden()
    await page.getByLabel('Toggle sidebar').click({ force: true })
    await expect(nav.getByRole('link', { name: 'Data', exact: true })).toBeVisible()
    await nav.getByRole('link', { name: 'Data', exact: true }).click()
    await expect(page).toHaveURL(/\/data\/tables$/)
    // the navigation closed the menu
    await expect(nav.getByRole('link', { name: 'Data', exact: true })).toBeHidden()

    const account = page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL })
    const box = await account.boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(390)
    await account.click()
    const logOut = page.getByRole('button', { name: 'Log out' })
    await expect(logOut).toBeVisible()
    const menu = await logOut.boundingBox()
    expect(menu && menu.x).toBeGreaterThanOrEqual(0)
    expect(menu && menu.x + menu.width).toBeLessThanOrEqual(390)
  })
})

test.describe('focus', () => {
  test('a focused field shows a clear ring (at least 2 px), not a faint border', async ({ authedPage: page }) => {
    await page.goto('/data/new-table')
    const name = page.getByLabel('Table name')
    // reach it with the keyboard, as a user would (focus rings show for keyboard focus)
    for (let i = 0; i < 40 && !(await name.evaluate((element) => element === document.activeElement)); i++)
      await page.keyboard.press('Tab')
    await expect(name).toBeFocused()
    const ring = await name.evaluate((element) => {
      const style = getComputedStyle(element)
      return { outline: parseFloat(style.outlineWidth), outlineStyle: style.outlineStyle, shadow: style.boxShadow }
    })
    const hasOutline = ring.outlineStyle !== 'none' && ring.outline >= 2
    expect(hasOutline, JSON.stringify(ring)).toBe(true)
  })
})
