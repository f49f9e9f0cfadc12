import AxeBuilder from '@axe-core/playwright'
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

async function colourContrastViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze()
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${page.url()}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`))
}

test.describe('theme', () => {
  test('the user menu switches between light, dark and system; the server renders the choice', async ({ authedPage: page }) => {
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

  test('text keeps its contrast in both themes (axe colour-contrast)', async ({ authedPage: page }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'axe runs as a script in the page')
    test.setTimeout(120_000)
    const paths = ['/dashboard', '/data/tables', '/components-kit', '/profile/settings', '/security/roles?q=zzz']
    const failures: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      await page.goto('/profile/settings')
      await page.getByRole('banner').getByRole('button', { name: ADMIN_EMAIL }).click()
      await page.getByRole('button', { name: scheme === 'light' ? 'Light' : 'Dark' }).click()
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
      for (const path of paths) {
        await page.goto(path)
        failures.push(...(await colourContrastViolations(page)).map((line) => `${scheme} ${line}`))
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  })
})
