import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures'

const CONSOLE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version

test.describe('support', () => {
  test('says how to reach support, with both versions and the docs', async ({ authedPage: page }) => {
    // The sidebar's version line leads here (its Support entry is the external support site).
    await page.goto('/dashboard')
    await page.getByRole('link', { name: /^Version \S+$/ }).click()
    await expect(page).toHaveURL(/\/support$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible()

    const contact = page.getByRole('region', { name: 'Contact support' })
    const email = contact.getByRole('link', { name: /^[^@\s]+@[^@\s]+$/ })
    const address = (await email.textContent())!.trim()
    await expect(email).toHaveAttribute('href', new RegExp(`^mailto:${address.replace(/[.+]/g, '\\$&')}\\?`))
    // The mail already names the versions support asks for first.
    await expect(email).toHaveAttribute(
      'href',
      new RegExp(`body=.*${encodeURIComponent(`Console version: ${CONSOLE_VERSION}`).replace(/[.]/g, '\\.')}`),
    )
    const site = contact.getByRole('link', { name: 'the support site' })
    await expect(site).toHaveAttribute('href', /^https?:\/\//)
    await expect(site).toHaveAttribute('target', '_blank')

    const versions = page.getByLabel('Versions', { exact: true })
    await expect(versions.getByRole('definition').first()).toHaveText(CONSOLE_VERSION)
    // The cluster's version is the one the sidebar shows.
    const sidebarVersion = (await page.getByText(/^Version \S+$/).textContent())!.replace('Version ', '')
    await expect(versions.getByRole('definition').nth(1)).toHaveText(sidebarVersion)

    const docs = page.getByRole('region', { name: 'Documentation' }).getByRole('link', { name: 'the documentation' })
    await expect(docs).toHaveAttribute('href', /^https?:\/\//)
    await expect(docs).toHaveAttribute('target', '_blank')

    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Support')
  })
})
