import { ADMIN_EMAIL } from './env'
import { expect, test } from './fixtures'

test.describe('system health', () => {
  test('Counts shows each panel with its data table, and with scripts a chart over it', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/system-health')
    await expect(page).toHaveURL(/\/system-health\/counts$/)
    await expect(
      page.getByRole('navigation', { name: 'System health' }).getByRole('link', { name: 'Counts' }),
    ).toHaveAttribute('aria-current', 'page')

    const requests = page.getByRole('region', { name: 'Requests per service', exact: true })
    await expect(requests).toBeVisible()
    for (const title of ['Errors per service', 'Queries by result', 'Rows ingested per service']) {
      await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible()
    }
    await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()

    const table = requests.getByRole('table', { name: 'Requests per service per interval, newest first' })
    await expect(requests.getByText(/requests in range/)).toBeVisible()
    if (testInfo.project.name === 'js') {
      // The chart replaces the table as the panel's face; the table stays one click away.
      await expect(requests.locator('[data-chart="requests"] svg.main-svg').first()).toBeVisible({ timeout: 20_000 })
      await expect(table).toBeHidden()
      await requests.getByText('Show data').click()
      await expect(table).toBeVisible()
    } else {
      await expect(table).toBeVisible()
      await expect(requests.locator('svg.main-svg')).toHaveCount(0)
    }
    await expect(table.getByRole('columnheader', { name: 'Interval ending (UTC)' })).toBeVisible()
    await expect(table.getByRole('columnheader', { name: 'turbine-api' })).toBeVisible()
    // The default hour in 1-minute intervals.
    await expect(table.locator('tbody tr')).toHaveCount(60)
  })

  test('the time range and service stay in the URL; a custom range over 6 hours is refused with a message', async ({
    authedPage: page,
  }) => {
    await page.goto('/system-health/counts')
    await page.getByLabel('Time range', { exact: true }).selectOption({ label: 'Last 15 minutes' })
    await page.getByLabel('Service', { exact: true }).selectOption('turbine-api')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(/range=15m/)
    await expect(page).toHaveURL(/service=turbine-api/)
    await expect(page.getByText(/Last 15 minutes · .* 30-second intervals/)).toBeVisible()
    const requests = page.getByRole('region', { name: 'Requests per service', exact: true })
    // The data table is in the page with and without scripts (folded under the chart with them).
    await expect(requests.locator('table tbody tr')).toHaveCount(30)
    await expect(requests.locator('table thead th')).toHaveText(['Interval ending (UTC)', 'turbine-api'])

    // A reload (or a shared link) shows the same.
    await page.reload()
    await expect(page.getByLabel('Time range', { exact: true })).toHaveValue('15m')
    await expect(page.getByLabel('Service', { exact: true })).toHaveValue('turbine-api')

    await page.getByLabel('Time range', { exact: true }).selectOption({ label: 'Custom range (UTC)' })
    await page.getByLabel('From (UTC)').fill('2026-01-01T00:00')
    await page.getByLabel('To (UTC)').fill('2026-01-01T07:00')
    await page.getByRole('button', { name: 'Apply' }).click()
    const to = page.getByLabel('To (UTC)')
    await expect(to).toHaveAccessibleDescription(/Custom time ranges are limited to 6 hours/)
    await expect(to).toHaveValue('2026-01-01T07:00')

    await to.fill('2026-01-01T05:00')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(/range=custom&from=2026-01-01T00%3A00&to=2026-01-01T05%3A00/)
    await expect(page.getByText(/10-minute intervals/)).toBeVisible()
    await expect(
      page.getByRole('region', { name: 'Requests per service', exact: true }).getByText('No requests in this range.'),
    ).toBeVisible()
  })

  test('a pool (spec section 3) narrows Counts and Logs and stays in the URL', async ({ authedPage: page }) => {
    // a query on the default query pool, so the pool has something counted
    await page.goto('/result?sql=SELECT%201')
    await page.goto('/system-health/counts?range=1h')
    await page.getByLabel('Pool', { exact: true }).selectOption('query-peer')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(/pool=query-peer/)
    const queries = page.getByRole('region', { name: 'Queries by result', exact: true })
    await expect(queries.locator('table thead th').first()).toHaveText('Interval ending (UTC)')
    // on the query pool only the query head's requests count: the config API runs on no pool
    await expect(
      page.getByRole('region', { name: 'Requests per service', exact: true }).locator('table thead th'),
    ).toHaveText(['Interval ending (UTC)', 'query-head'])

    await page.goto('/system-health/logs?range=1h&pool=query-peer')
    await expect(page.getByLabel('Pool', { exact: true })).toHaveValue('query-peer')
  })

  test('Logs: filtering by level and searching narrows the rows, in UTC, newest first', async ({
    authedPage: page,
  }, testInfo) => {
    // Something to find: a password reset request is written to the cluster log.
    await page.goto('/password-reset')
    await page.getByLabel('Email').fill(ADMIN_EMAIL)
    await page.getByRole('button', { name: 'Send recovery email' }).click()
    await expect(page.getByText('Recovery email sent')).toBeVisible()

    await page.goto('/system-health/logs')
    await expect(
      page.getByRole('navigation', { name: 'System health' }).getByRole('link', { name: 'Logs' }),
    ).toHaveAttribute('aria-current', 'page')
    const table = page.getByRole('table', { name: 'Cluster log entries, newest first' })
    await expect(table.getByRole('columnheader', { name: 'Time (UTC)' })).toBeVisible()
    const rows = table.locator('tbody tr')
    const allCount = await rows.count()
    expect(allCount).toBeGreaterThan(1)
    await expect(rows.filter({ hasNotText: 'password reset requested' }).first()).toBeVisible()
    if (testInfo.project.name === 'js') await expect(page.getByLabel('Live (every 5 s)')).toBeVisible()
    else await expect(page.getByLabel('Live (every 5 s)')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Refresh' })).toBeVisible()

    await page.getByLabel('Log level', { exact: true }).selectOption('info')
    await page.getByLabel('Search', { exact: true }).fill('password reset requested')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/level=info/)
    await expect(page).toHaveURL(/q=password\+reset\+requested/)
    await expect(rows.first()).toContainText(`password reset requested for ${ADMIN_EMAIL}`)
    // Narrowed: every row left matches (the unfiltered page had others). Not a smaller count: with
    // the suite's many password resets in the range, both pages can be full (25 rows). Counted once
    // no other row is left (a count taken while the rows were being replaced was stale in CI).
    await expect(rows.filter({ hasNotText: 'password reset requested' })).toHaveCount(0)
    const narrowed = await rows.count()
    expect(narrowed).toBeLessThanOrEqual(allCount)
    for (let i = 0; i < narrowed; i++) {
      await expect(rows.nth(i)).toContainText('password reset requested')
      await expect(rows.nth(i).locator('[data-level]')).toHaveText('info')
    }
    await expect(rows.first().locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/)

    await page.getByLabel('Log level', { exact: true }).selectOption('error')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('No log entries match these filters in this time range.')).toBeVisible()
    await page.getByRole('link', { name: 'Clear the filters' }).click()
    await expect(page).toHaveURL(/\/system-health\/logs$/)
    await expect(rows.first()).toBeVisible()
  })

  test('Logs page with scripts: Live keeps itself in the URL and refreshes the list', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'js', 'Live polling needs scripts; without them the Refresh link is the way')
    await page.goto('/system-health/logs?range=15m')
    const updated = page.getByText(/Updated \d{4}-\d\d-\d\d/)
    const before = await updated.textContent()
    await page.getByLabel('Live (every 5 s)').check()
    await expect(page).toHaveURL(/live=1/)
    await expect(updated).not.toHaveText(before!, { timeout: 15_000 })
  })
})
