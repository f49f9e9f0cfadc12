import { clearFaults, CLUSTER, clusterCall, clusterToken, holdingFaultLock, setFault } from './cluster-faults'
import { expect, logIn, newSession, test, uniqueName } from './fixtures'

/**
 * "No tables yet → create one, or load the sample" (issue 14). The e2e cluster is seeded and shared,
 * and the local cluster makes no second org, so the org is shown empty with the cluster's fault
 * switch (an empty project list, or a summary of zeros) while the page loads; the switch is cleared
 * before "Load the sample" is pressed, so the action runs against the real cluster. sample.logs is
 * removed first, so each run loads it afresh.
 */
const SAMPLE_ROWS = 480

/** Removes sample.logs when an earlier run made it (project sample, seeded, stays). */
async function removeSampleTable() {
  type Listed = { results: { uuid: string; name: string }[] }
  const projects = await clusterCall<Listed>('GET', '/config/v1/orgs/{org}/projects/?name=sample')
  for (const project of projects.results) {
    const tables = await clusterCall<Listed>('GET', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`)
    for (const table of tables.results.filter((candidate) => candidate.name === 'logs')) {
      await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}`)
    }
  }
}

test.describe('empty states', () => {
  test.describe.configure({ timeout: 90_000 })

  test('an org with no tables offers "Create your first table" and "Load the sample"; loading it lands on the new table', async ({
    authedPage: page,
  }) => {
    // The project list an earlier test read may still be in the session's 5 s read cache.
    await newSession(page)
    await holdingFaultLock(async () => {
      await removeSampleTable()
      await setFault({
        path: '^/config/v1/orgs/[^/]+/projects/?$',
        method: 'GET',
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      })
      await page.goto('/data/tables')
      await expect(page.getByText('No projects or tables yet.')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Create your first table' })).toHaveAttribute(
        'href',
        '/data/new-table',
      )
      await clearFaults()

      await page.getByRole('button', { name: 'Load the sample' }).click()
      await expect(page).toHaveURL(/\/data\/tables\/[\w-]{36}\?project=[\w-]{36}$/, { timeout: 20_000 })
      await expect(page.getByRole('heading', { level: 1, name: /logs/ })).toBeVisible()
      await expect(page.getByText(`Sample loaded: ${SAMPLE_ROWS} rows in sample.logs`)).toBeVisible()
    })
    // the rows are there: the cluster's query API counts them
    const counted = await page.request.post(
      `${CLUSTER}/query?query=${encodeURIComponent('SELECT count() FROM sample.logs')}`,
      { headers: { Authorization: `Bearer ${await clusterToken()}` } },
    )
    expect((await counted.text()).trim()).toBe(String(SAMPLE_ROWS))
  })

  test('the dashboard of an empty org offers the same two ways on', async ({ authedPage: page }) => {
    await holdingFaultLock(async () => {
      await removeSampleTable()
      await setFault({
        path: '^/config/v1/orgs/[^/]+/summary/?$',
        method: 'GET',
        status: 200,
        body: { projects: 0, tables: 0, users: 0 },
      })
      await page.goto('/dashboard')
      const empty = page.getByRole('status').filter({ hasText: 'This organization has nothing in it yet.' })
      await expect(empty.getByRole('link', { name: 'Create your first table' })).toBeVisible()
      await clearFaults()

      await empty.getByRole('button', { name: 'Load the sample' }).click()
      await expect(page).toHaveURL(/\/data\/tables\/[\w-]{36}\?project=[\w-]{36}$/, { timeout: 20_000 })
      await expect(page.getByText(`Sample loaded: ${SAMPLE_ROWS} rows in sample.logs`)).toBeVisible()
    })
  })

  test('a filter that matches nothing is not an empty org: no "Load the sample"', async ({ authedPage: page }) => {
    await page.goto('/data/tables?q=no_such_table_zzz')
    await expect(page.getByRole('link', { name: 'Clear the filter' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Load the sample' })).toHaveCount(0)
  })

  test('a user who may not create tables is not offered "Load the sample"', async ({ browser }, testInfo) => {
    const email = `${uniqueName('reader')}-${testInfo.project.name}@example.com`.toLowerCase()
    await clusterCall('POST', '/config/v1/users/', { email, password: 'a-long-password-1', roles: ['reader'] })
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    })
    const page = await context.newPage()
    await page.goto('/login')
    await logIn(page, email, 'a-long-password-1')
    await page.waitForURL('**/dashboard')
    await holdingFaultLock(async () => {
      await setFault({
        path: '^/config/v1/orgs/[^/]+/projects/?$',
        method: 'GET',
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      })
      await page.goto('/data/tables')
      await expect(page.getByText('No projects or tables yet.')).toBeVisible()
    })
    await expect(page.getByRole('button', { name: 'New table' })).toBeDisabled() // the permission is known to be missing
    await expect(page.getByRole('button', { name: 'Load the sample' })).toHaveCount(0)
    await context.close()
  })
})
