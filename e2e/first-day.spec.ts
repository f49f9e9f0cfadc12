import type { Browser, TestInfo } from '@playwright/test'
import { clusterCall } from './cluster-faults'
import { expect, hydrated, newSession, test, uniqueName } from './fixtures'

/*
 * Issue 36 ("an operator's first day"): what a Reader is offered on pages opened by their URL, and
 * how the console's own store shows. Both projects: the same with and without scripts.
 */

const PASSWORD = 'a-long-password-1'

type Named = { uuid: string; name: string }
const listOf = <T>(body: T[] | { results: T[] }) => (Array.isArray(body) ? body : body.results)

/** A Reader made on the cluster, signed in on a context of their own. */
async function signInReader(browser: Browser, testInfo: TestInfo) {
  const email = `${uniqueName('reader').toLowerCase()}@example.com`
  await clusterCall('POST', '/config/v1/users/', { email, password: PASSWORD, roles: ['reader'] })
  const { baseURL, javaScriptEnabled } = testInfo.project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL('**/dashboard')
  return page
}

/** The console's own store, made on the cluster when no save has made it yet. */
async function consoleStore(): Promise<Named> {
  const projects = listOf(await clusterCall<Named[] | { results: Named[] }>('GET', '/config/v1/orgs/{org}/projects/'))
  const found = projects.find((project) => project.name === 'cluster_console')
  if (found) return found
  const made = await clusterCall<Named>('POST', '/config/v1/orgs/{org}/projects/', { name: 'cluster_console' })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${made.uuid}/tables/`, { name: 'query_history' })
  return made
}

test.describe('a Reader on pages opened by their URL', () => {
  test.slow()
  test('creation forms say what is missing, a refused list offers no Try again, Ingest the sample is disabled', async ({
    browser,
  }, testInfo) => {
    const reader = await signInReader(browser, testInfo)
    for (const [path, needs, submit] of [
      ['/data/new-table', 'add_table', 'Create table'],
      ['/data/new-transform', 'add_transform', 'Publish transform'],
      ['/scale/pool/create', 'add_pool', 'Create pool'],
      ['/data/functions/new-custom-function', 'add_function', 'Create function'],
      ['/data/files/new-file', 'add_dictionaryfile', 'Upload file'],
      ['/jobs/alter-jobs/create', 'add_alterjob', 'Create alter job'],
    ] as const) {
      await reader.goto(path)
      await expect(reader.getByText(`Needs ${needs}: ask an org admin.`), path).toBeVisible()
      await expect(reader.getByRole('button', { name: submit }), path).toHaveCount(0)
    }

    const answer = await reader.goto('/security/users')
    expect(answer?.status()).toBe(403)
    await expect(reader.getByRole('heading', { name: 'The users could not be loaded' })).toBeVisible()
    await expect(reader.getByRole('link', { name: 'Try again' })).toHaveCount(0)

    const projects = listOf(await clusterCall<Named[] | { results: Named[] }>('GET', '/config/v1/orgs/{org}/projects/'))
    const sample = projects.find((project) => project.name === 'sample')!
    const tables = listOf(
      await clusterCall<Named[] | { results: Named[] }>('GET', `/config/v1/orgs/{org}/projects/${sample.uuid}/tables/`),
    )
    const table = tables.find((entry) => entry.name === 'web_logs')!
    const transforms = listOf(
      await clusterCall<Named[] | { results: Named[] }>(
        'GET',
        `/config/v1/orgs/{org}/projects/${sample.uuid}/tables/${table.uuid}/transforms/`,
      ),
    )
    const transform = transforms.find((entry) => entry.name === 'web_logs_json')!
    await reader.goto(`/data/tables/${table.uuid}/transform/edit/${transform.uuid}?project=${sample.uuid}`)
    await hydrated(reader)
    await expect(reader.getByRole('button', { name: 'Ingest the sample' })).toBeDisabled()
    await expect(reader.getByText('Needs insert_sql on table sample.web_logs', { exact: true })).toBeVisible()
    await reader.context().close()
  })
})

test.describe("the console's own store", () => {
  test('is marked in the tables list and its panel; its delete step says what goes with it', async ({
    authedPage: page,
  }) => {
    const store = await consoleStore()
    // a session of its own: the store may have been made just now, after this session read the projects
    await newSession(page)
    await page.goto('/data/tables?q=cluster_console')
    const row = page.getByRole('row', { name: /cluster_console/ }).first()
    await expect(row.getByText('console store', { exact: true })).toBeVisible()
    await page.goto(`/data/tables?manage-project=${store.uuid}`)
    await expect(
      page.getByText(
        "The console's own store: every user's saved queries and query history, and the sessions logged out.",
      ),
    ).toBeVisible()
    await page.goto(`/data/tables?delete-project=${store.uuid}`)
    await expect(page.getByRole('heading', { name: 'Delete project cluster_console?' })).toBeVisible()
    await expect(page.getByText(/every user's saved queries and query history go with it/)).toBeVisible()
  })
})

test.describe('the SQL editor', () => {
  test('each line leaves room below the baseline for an underscore, in both colour schemes', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'without scripts the SQL is a plain textarea')
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.goto('/queries')
      await hydrated(page)
      const line = page.locator('.ace_text-layer .ace_line').first()
      await expect(line).toBeVisible()
      // Ace paints each line in a box of its height with `contain: strict`: at the font's own height
      // the underscore of `web_logs` fell outside it and was not drawn (issue 36)
      const { height, fontSize } = await line.evaluate((element) => ({
        height: element.getBoundingClientRect().height,
        fontSize: parseFloat(getComputedStyle(element).fontSize),
      }))
      expect(height, colorScheme).toBeGreaterThanOrEqual(fontSize * 1.4)
    }
  })
})
