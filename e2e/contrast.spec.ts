import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { cookieHeader, createTableByPost } from './routes'

/**
 * Colour contrast in both themes (issue 14: "axe colour-contrast clean in both themes"). a11y.spec.ts
 * runs axe on every page in the default theme (system, a light device); here a representative set
 * of pages, in the states that bring out most colours (a form with its errors shown, a query
 * result, toasts, badges), is checked with the theme set to dark and to light. With scripts only:
 * the colours are the server's either way, and the open menus and charts need scripts.
 */
type Visit = { name: string; open: (page: Page) => Promise<void> }

const VISITS: Visit[] = [
  { name: 'dashboard', open: (page) => page.goto('/dashboard').then(() => undefined) },
  { name: 'tables list', open: (page) => page.goto('/data/tables').then(() => undefined) },
  {
    name: 'a form with its errors shown',
    open: async (page) => {
      await page.goto('/data/new-table')
      await page.getByLabel('Table name').fill('x'.repeat(70))
      await page.getByRole('button', { name: 'Create table' }).click()
      await expect(page.getByText('Name must be under 64 symbols')).toBeVisible()
    },
  },
  {
    name: 'query result',
    open: async (page) => {
      await page.goto(
        `/result?sql=${encodeURIComponent('SELECT method, count() AS hits FROM sample.web_logs GROUP BY method ORDER BY method')}`,
      )
      await expect(page.getByRole('table', { name: 'Query results' })).toBeVisible()
    },
  },
  { name: 'query page', open: (page) => page.goto('/queries').then(() => undefined) },
  { name: 'system health', open: (page) => page.goto('/system-health/counts').then(() => undefined) },
  { name: 'security users', open: (page) => page.goto('/security/users').then(() => undefined) },
  {
    name: 'profile settings with its toast',
    open: async (page) => {
      await page.goto('/profile/settings')
      await page.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByText('Settings saved')).toBeVisible()
    },
  },
]

for (const theme of ['dark', 'light'] as const) {
  test(`axe colour contrast holds on the main pages in the ${theme} theme`, async ({
    authedPage: page,
    sessionState,
  }, testInfo) => {
    test.skip(
      testInfo.project.use.javaScriptEnabled === false,
      'the js project checks the colours; they are the same server HTML',
    )
    test.setTimeout(180_000)
    const tableId = await createTableByPost(cookieHeader(sessionState), `contrast_${theme}`)
    const visits: Visit[] = [
      ...VISITS,
      { name: 'a table detail', open: (p) => p.goto(`/data/tables/${tableId}`).then(() => undefined) },
    ]

    const set = await page.request.post('/resources/theme', {
      form: { theme, redirectTo: '/dashboard' },
      maxRedirects: 0,
    })
    expect(set.status()).toBe(302)
    const failures: string[] = []
    for (const visit of visits) {
      await visit.open(page)
      await page.waitForLoadState('load')
      await expect(page.locator('html'), visit.name).toHaveAttribute('data-theme', theme)
      // transitions (hover, toasts sliding in) would make axe read colours half-way
      await page.addStyleTag({
        content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
      })
      const results = await new AxeBuilder({ page }).withRules(['color-contrast', 'link-in-text-block']).analyze()
      for (const violation of results.violations) {
        for (const node of violation.nodes) {
          failures.push(
            `${visit.name} (${page.url()}): ${violation.id} ${node.target.join(' ')} ` +
              `— ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`,
          )
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  })
}
