import { test as base, expect, type Browser, type Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './env'

export { expect }

/** Fills and sends the login form on the current page (which must be /login). */
export async function logIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/**
 * Signs the page in again: a session of its own, so nothing an earlier test read is in the console's
 * per-session read cache (5 s, decision 036). For a test whose cluster fault must be what a page reads.
 */
export async function newSession(page: Page) {
  await page.context().clearCookies()
  await page.goto('/login')
  await logIn(page)
  await page.waitForURL('**/dashboard')
}

/**
 * With scripts, waits until React has the page (`<html data-hydrated>`, root.tsx): a click on a
 * link while the page still hydrates can be lost. Without scripts the page is ready as it loads.
 */
export async function hydrated(page: Page) {
  if (base.info().project.use.javaScriptEnabled === false) return
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
}

/**
 * Finds a table with a form's "Find a table" search (issue 33: a form offers the tables its search
 * finds, not every table of the org) and waits until the form offers what it found. Without scripts
 * (and for a search form of its own) "Find" loads the page again, so call it before typing elsewhere.
 */
export async function findTable(page: Page, q: string) {
  await page.getByRole('searchbox', { name: 'Find a table', exact: true }).fill(q)
  await page.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(page.getByText(new RegExp(`matching “${q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`))).toBeVisible()
}

/** A unique, valid table or project name for one test run (letters, digits, underscores). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
}

type WorkerFixtures = { sessionState: Awaited<ReturnType<typeof logInOnce>> }
type TestFixtures = { authedPage: Page }

/** Logs in once per worker; tests reuse the cookie, as a returning user would. */
async function logInOnce(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await page.goto('/login')
  await logIn(page)
  await page.waitForURL('**/dashboard')
  const state = await context.storageState()
  await context.close()
  return state
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  sessionState: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, javaScriptEnabled } = workerInfo.project.use
      await use(await logInOnce(browser, baseURL!, javaScriptEnabled !== false))
    },
    { scope: 'worker' },
  ],
  authedPage: async ({ browser, sessionState }, use, testInfo) => {
    const { baseURL, javaScriptEnabled } = testInfo.project.use
    const context = await browser.newContext({ baseURL, javaScriptEnabled, storageState: sessionState })
    const page = await context.newPage()
    // Every page a spec visits runs under the console's Content-Security-Policy: anything it blocks
    // (an inline script without the nonce, an eval, a foreign origin) fails the test that caused it.
    const blocked: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text())
    })
    await use(page)
    await context.close()
    expect(blocked, 'Content-Security-Policy violations').toEqual([])
  },
})

/**
 * Creates a table (and a new project for it) through the form, as a user would, and returns
 * its names once its detail page shows.
 */
export async function createTableThroughForm(page: Page, options: { project?: string; table?: string } = {}) {
  const project = options.project ?? uniqueName('e2e_project')
  const table = options.table ?? uniqueName('e2e_table')
  await page.goto('/data/new-table')
  await page.getByLabel('Project', { exact: true }).selectOption({ label: 'New project…' })
  await page.getByLabel('New project name').fill(project)
  await page.getByLabel('Table name').fill(table)
  await page.getByRole('button', { name: 'Create table' }).click()
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(table) })).toBeVisible()
  return { project, table, url: page.url() }
}
