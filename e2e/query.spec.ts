import { expect, test } from './fixtures'
import { typeSql, editorSql } from './query-editor'
import { CLUSTER, clusterToken } from './cluster-faults'

/** Whether the cluster lists a running query whose SQL contains `marker` (hdx.active_queries). */
async function runningOnCluster(marker: string): Promise<boolean> {
  const sql = `SELECT count() FROM hdx.active_queries WHERE position(query, '${marker}') > 0 AND position(query, 'active_queries') = 0`
  const answer = await fetch(`${CLUSTER}/query`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await clusterToken()}` },
    body: sql,
  })
  return answer.ok && Number((await answer.text()).trim()) > 0
}

test.describe('query', () => {
  test('runs a query against sample.web_logs and shows rows, then statistics and analysis', async ({
    authedPage: page,
  }, testInfo) => {
    // the picker lists what its search finds (issue 33): other specs' tables may fill its first page
    await page.goto('/queries?table_q=sample.web_logs')
    await expect(page.getByRole('heading', { level: 1, name: 'Query' })).toBeVisible()
    await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
    if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Query this table' }).click()
    await expect(page).toHaveURL(/\/queries\?table_id=/)
    await expect.poll(() => editorSql(page, testInfo)).toBe('SELECT * FROM sample.web_logs LIMIT 100')

    await typeSql(page, testInfo, 'SELECT method, count() AS hits FROM sample.web_logs GROUP BY method ORDER BY method')
    if (testInfo.project.name === 'js') await page.keyboard.press('Control+Enter')
    else await page.getByRole('button', { name: 'Run' }).click()

    await expect(page).toHaveURL(/\/result\?sql=SELECT/)
    const table = page.getByRole('table', { name: 'Query results' })
    await expect(table.getByRole('columnheader', { name: /hits\s*UInt64/ })).toBeVisible()
    await expect(table.getByRole('cell', { name: 'GET', exact: true })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: /^\d+ rows?$/ })).toBeVisible()

    await page.getByRole('link', { name: 'Statistics' }).click()
    await expect(page).toHaveURL(/tab=statistics/)
    const stats = page.getByLabel('Query statistics')
    await expect(stats.getByText('Rows read')).toBeVisible()
    await expect(stats.getByText('Bytes read')).toBeVisible()
    await expect(stats.getByText(/^[0-9a-f]{8}-[0-9a-f-]{27}$/)).toBeVisible()

    await page.getByRole('link', { name: 'Analysis' }).click()
    await expect(page.getByRole('region', { name: 'Plan' }).locator('pre')).toContainText(
      'ReadFromMergeTree (sample.web_logs)',
    )
    await expect(page.getByRole('region', { name: 'Pipeline' }).locator('pre')).not.toBeEmpty()
  })

  test('a syntax error shows the engine message next to the editor and keeps the SQL and options', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/queries')
    const sql = 'SELECT * FROM sample.web_logs WHERE'
    await typeSql(page, testInfo, sql)
    await page.getByText('Query options').click()
    await page.getByLabel('Comment', { exact: true }).fill('kept')
    await page.getByRole('button', { name: 'Run' }).click()

    const alert = page.getByRole('alert').filter({ hasText: 'The query failed' })
    await expect(alert).toContainText('Code: 62')
    await expect(alert).toContainText('SYNTAX_ERROR')
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
    await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('kept')
    await expect(page.getByRole('table', { name: 'Query results' })).toHaveCount(0)
  })

  test('a result link reproduces the result; an empty result says so; a bad option is refused at its field', async ({
    authedPage: page,
  }) => {
    const sql =
      "SELECT status, count() AS n FROM sample.web_logs WHERE method = 'GET' GROUP BY status ORDER BY status LIMIT 3"
    await page.goto(`/result?sql=${encodeURIComponent(sql)}&hdx_query_comment=shared`)
    const table = page.getByRole('table', { name: 'Query results' })
    await expect(table.getByRole('columnheader', { name: /^n/ })).toBeVisible()
    await expect(table.locator('tbody tr')).toHaveCount(3)
    await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('shared')

    await page.goto(`/result?sql=${encodeURIComponent('SELECT * FROM sample.web_logs WHERE 0')}`)
    await expect(page.getByText('Nothing was found for the current query')).toBeVisible()

    await page.goto(`/result?sql=${encodeURIComponent(sql)}&hdx_query_max_result_rows=50000`)
    await expect(page.getByLabel('Max result rows')).toHaveAccessibleDescription(/Query UI max rows limited to 10,000/)
    await expect(page.getByLabel('Max result rows')).toHaveValue('50000')
    await expect(page.getByRole('alert').filter({ hasText: 'The query was not run' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Query results' })).toHaveCount(0)
  })

  test('the reference lists the sample table with its columns and the query options', async ({ authedPage: page }) => {
    await page.goto('/queries?table_q=sample.web_logs')
    await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
    await page.getByRole('button', { name: 'Query this table' }).click()
    await expect(page).toHaveURL(/\/queries\?table_id=/)
    // The tab carries the table and the SQL: the reference opens on that table.
    await page.getByRole('link', { name: 'Reference' }).click()
    await expect(page).toHaveURL(/\/queries\/reference\?data=SELECT.*&table_id=/)
    const columns = page.getByRole('table', { name: 'Columns of sample.web_logs' })
    await expect(columns.getByRole('cell', { name: 'method', exact: true })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Circuit breakers' }).getByText('hdx_query_max_rows')).toBeVisible()
  })

  test('a long query shows its progress; Cancel stops it, keeps the SQL, and Insights lists it as failed, opening the editor', async ({
    authedPage: page,
  }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    // Minutes of engine work unless something stops it (and at most a minute if nothing does).
    const sql =
      `SELECT count() AS hits FROM numbers(100000000000) WHERE sipHash64(number) % 7 ` +
      `= ${isJs ? 1 : 2} SETTINGS max_execution_time = 60`
    await page.goto('/queries')
    await typeSql(page, testInfo, sql)
    if (isJs) {
      await page.getByRole('button', { name: 'Run' }).click()
      // elapsed time, then the rows the engine has read so far (from the cluster's query log)
      await expect(page.getByTestId('run-progress')).toHaveText(/Running the query… \d+s · [\d,]+ rows read/, {
        timeout: 15_000,
      })
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    } else {
      // Without scripts the run is a page load; the editor page stays up meanwhile, with its Cancel button.
      // (Playwright's click waits for the pending page load, so the keyboard presses it, as a person may.)
      await expect(page.getByRole('button', { name: 'Cancel the query' })).toBeVisible()
      await page.getByRole('button', { name: 'Run' }).click({ noWaitAfter: true })
      // Cancel once the cluster is running it (its active queries list it), not after a guessed time
      await expect.poll(() => runningOnCluster('sipHash64(number) % 7 = 2'), { timeout: 15_000 }).toBe(true)
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
    }
    await expect(page).toHaveURL(/\/queries\?data=SELECT/)
    await expect(page.getByText('Query canceled: the cluster stopped it')).toBeVisible()
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
    await expect(page.getByRole('table', { name: 'Query results' })).toHaveCount(0)

    await page.getByRole('link', { name: 'Insights' }).click()
    const failed = page.getByRole('table', { name: 'Failed queries of the last hour' })
    const row = failed
      .getByRole('row')
      .filter({ hasText: `% 7 = ${isJs ? 1 : 2}` })
      .first()
    await expect(row).toContainText('QUERY_WAS_CANCELLED')
    await row.getByRole('link').click()
    await expect(page).toHaveURL(/\/queries\?data=SELECT/)
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
  })

  test('Download JSON gives the whole result as a JSON array, 64-bit integers exact', async ({ authedPage: page }) => {
    await page.goto(
      `/result?${new URLSearchParams({ sql: 'SELECT number AS n, bitNot(number) AS big FROM numbers(3)' })}`,
    )
    const link = page.getByRole('link', { name: 'Download JSON' })
    // The same link for a result past the UI's cap: the download has every row.
    const href = (await link.getAttribute('href'))!.replace('numbers%283%29', 'numbers%2812000%29')
    const response = await page.request.get(href)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-disposition']).toBe('attachment; filename="query-result.json"')
    const rows = (await response.json()) as { n: string; big: string }[]
    expect(rows).toHaveLength(12_000)
    expect(rows[0]).toEqual({ n: '0', big: '18446744073709551615' })
  })

  test('Download CSV gives the whole result as a file', async ({ authedPage: page }) => {
    await page.goto(`/result?sql=${encodeURIComponent('SELECT method FROM sample.web_logs LIMIT 5')}`)
    const link = page.getByRole('link', { name: 'Download CSV' })
    const response = await page.request.get((await link.getAttribute('href'))!)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-disposition']).toBe('attachment; filename="query-result.csv"')
    const lines = (await response.text()).trim().split('\n')
    expect(lines[0]).toBe('"method"')
    expect(lines).toHaveLength(6)
  })

  test('a statement that changes data never runs from a link: it waits for a confirmation, then becomes an alter job', async ({
    authedPage: page,
  }) => {
    // Matches no row: the sample table keeps what other specs count.
    const sql = 'ALTER TABLE sample.web_logs DELETE WHERE status = 999'
    await page.goto(`/result?${new URLSearchParams({ sql })}`)
    await expect(page.getByRole('heading', { name: 'This statement changes data' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Result' })).toBeHidden()
    // Reloading the link still runs nothing.
    await page.reload()
    await expect(page.getByRole('heading', { name: 'This statement changes data' })).toBeVisible()
    await page.getByRole('button', { name: 'Create alter job' }).click()
    await expect(page).toHaveURL(/\/jobs\/alter-jobs\?job=/)
    await expect(page.getByText('Alter job created: counting the rows it changes')).toBeVisible()
  })

  test('after a run the first result row is on screen, numbers line up on the right, and an error says where', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/queries')
    await typeSql(page, testInfo, "SELECT number AS n, concat('row_', toString(number)) AS label FROM numbers(50)")
    const isJs = testInfo.project.name === 'js'
    // With scripts the editor and Ace stay mounted through a run: only the result is rendered (decision 035).
    if (isJs) {
      await page.locator('.ace_editor').evaluate((element) => element.setAttribute('data-before-run', ''))
      expect(
        await page.locator('.ace_scrollbar-v').evaluate((element) => parseFloat((element as HTMLElement).style.height)),
      ).toBeGreaterThan(200)
    }
    await page.getByRole('button', { name: 'Run' }).click()
    await expect(page).toHaveURL(/\/result\?.*#result$/)
    const firstRow = page.getByRole('row', { name: /^1 0 row_0$/ })
    await expect(firstRow).toBeInViewport()
    await expect(firstRow.getByRole('cell').first()).toHaveCSS('text-align', 'end')
    await expect(firstRow.getByRole('cell').last()).not.toHaveCSS('text-align', 'end')
    if (isJs) {
      await expect(page.locator('.ace_editor[data-before-run]')).toHaveCount(1)
      // Ace follows its compact box above the result by itself (its own resize observer), after the rows paint.
      const aceHeight = () =>
        page.locator('.ace_scrollbar-v').evaluate((element) => parseFloat((element as HTMLElement).style.height))
      await expect.poll(aceHeight).toBeLessThanOrEqual(110)
      await expect.poll(aceHeight).toBeGreaterThan(60)
      // A second run from the result page keeps it too, and shows the new rows.
      await typeSql(page, testInfo, 'SELECT 7 AS seven')
      await page.getByRole('button', { name: 'Run' }).click()
      await expect(page.getByRole('row', { name: /^1 7$/ })).toBeVisible()
      await expect(page.locator('.ace_editor[data-before-run]')).toHaveCount(1)
    }

    await page.goto(`/result?${new URLSearchParams({ sql: 'SELECT 1,\n  nonsense FROM' })}`)
    await expect(page.getByText('The query failed at the end of line 2')).toBeVisible()
    await expect(page.getByTestId('error-position')).toHaveText('  nonsense FROM\n               ^')
    await expect(page.getByText(/result_overflow_mode/)).toHaveCount(0)
  })

  test('a 10,000-row result: with scripts every row streams into a virtual grid; without, pages of 500 keep the query in the URL', async ({
    authedPage: page,
  }, testInfo) => {
    const sql = 'SELECT number AS n, bitNot(number) AS big FROM numbers(10000)'
    await page.goto(`/result?${new URLSearchParams({ sql, hdx_query_comment: 'paged' })}`)
    await expect(page.getByRole('status').filter({ hasText: /^10,000 rows/ })).toBeVisible()
    const table = page.getByRole('table', { name: 'Query results' })
    // 64-bit integers are exact to the last digit.
    await expect(table.getByRole('row', { name: '1 0 18446744073709551615' })).toBeVisible()
    if (testInfo.project.name === 'js') {
      const grid = page.getByTestId('result-grid')
      // Only the rows in view are in the page.
      await expect.poll(() => table.locator('tbody tr').count()).toBeLessThan(100)
      await expect.poll(() => grid.evaluate((element) => element.scrollHeight)).toBeGreaterThan(10_000 * 28)
      await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight))
      await expect(table.getByRole('row', { name: '10000 9999 18446744073709541616' })).toBeVisible()
      await expect(page.getByRole('navigation', { name: 'Result pages' })).toHaveCount(0)
    } else {
      const pages = page.getByRole('navigation', { name: 'Result pages' })
      await expect(pages).toContainText('Rows 1–500 of 10,000')
      await expect(table.locator('tbody tr')).toHaveCount(500)
      await pages.getByRole('link', { name: 'Next' }).click()
      await expect(page).toHaveURL(/page=2/)
      await expect(page).toHaveURL(/hdx_query_comment=paged/)
      await expect(table.getByRole('row', { name: /^501 500 / })).toBeVisible()
      await pages.getByRole('link', { name: 'Page 20' }).click()
      await expect(pages).toContainText('Rows 9,501–10,000 of 10,000')
      await expect(table.getByRole('row', { name: '10000 9999 18446744073709541616' })).toBeVisible()
      await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('paged')
    }
  })

  test('the schema tree lists projects, tables and columns; with scripts a click inserts the name at the cursor', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/queries')
    const tree = page.getByRole('navigation', { name: 'Schema' })
    // a project and a table load when opened (issue 33): with scripts on the toggle, without by a link
    await tree.getByText('sample', { exact: true }).click()
    if (testInfo.project.name === 'no-js') await tree.getByRole('link', { name: 'Show the tables of sample' }).click()
    await tree.getByText('web_logs', { exact: true }).click()
    if (testInfo.project.name === 'no-js')
      await tree.getByRole('link', { name: 'Show the columns of sample.web_logs' }).click()
    const columns = tree.getByRole('list', { name: 'Columns of sample.web_logs' })
    if (testInfo.project.name === 'js') {
      await expect(page.locator('.ace_editor')).toBeVisible()
      await columns.getByRole('button', { name: 'Insert sample.web_logs' }).click()
      await expect.poll(() => editorSql(page, testInfo)).toBe('sample.web_logs')
      await page.keyboard.insertText(' WHERE ')
      await columns.getByRole('button', { name: 'Insert method' }).click()
      await expect.poll(() => editorSql(page, testInfo)).toBe('sample.web_logs WHERE method')
    } else {
      await expect(columns.getByText('method', { exact: true })).toBeVisible()
      await columns.getByRole('link', { name: 'Query sample.web_logs' }).click()
      await expect.poll(() => editorSql(page, testInfo)).toBe('SELECT * FROM sample.web_logs LIMIT 100')
    }
  })
})
