import { expect, hydrated, test, uniqueName } from './fixtures'
import { typeSql, editorSql } from './query-editor'

test.describe('saved queries and history', () => {
  test('save a query with a name, find it on the Saved tab, open it without running it, delete it', async ({
    authedPage: page,
  }, testInfo) => {
    const name = uniqueName('Saved e2e')
    const sql = `SELECT status, count() AS n FROM sample.web_logs GROUP BY status -- ${name}`
    await page.goto('/queries')
    await typeSql(page, testInfo, sql)
    await page.getByText('Query options').click()
    await page.getByLabel('Comment', { exact: true }).fill('saved option')
    await page.getByText('Save…').click()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('button', { name: 'Save query' }).click()

    await expect(page).toHaveURL(/\/queries\?saved=[0-9a-f-]{36}$/)
    await expect(page.getByText(`Query saved as “${name}”`)).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: `Saved query ${name} by` })).toBeVisible()
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
    await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('saved option')

    await page.getByRole('navigation', { name: 'Query' }).getByRole('link', { name: 'Saved' }).click()
    await expect(page).toHaveURL(/\/queries\/saved$/)
    await page.getByLabel('Filter by name').fill(name)
    await page.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/\/queries\/saved\?q=/)
    const table = page.getByRole('table', { name: 'Saved queries' })
    await expect(table.getByRole('rowheader', { name })).toBeVisible()
    await expect(table.getByRole('row', { name: new RegExp(name) })).toContainText('admin@')

    await table.getByRole('link', { name: `Open ${name}` }).click()
    await expect(page).toHaveURL(/\/queries\?saved=/)
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
    await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('saved option')
    // Opened, not run: no result on the page.
    await expect(page.getByRole('table', { name: 'Query results' })).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Result' })).toHaveCount(0)

    await page.goto(`/queries/saved?q=${encodeURIComponent(name)}`)
    // A click while the list hydrates can be lost (it was, once, in CI): wait for the page first.
    await hydrated(page)
    await page.getByRole('link', { name: `Delete ${name}` }).click()
    await expect(page.getByRole('heading', { name: `Delete saved query “${name}”?` })).toBeVisible()
    await page.getByRole('button', { name: 'Delete saved query' }).click()
    await expect(page.getByText('Saved query deleted')).toBeVisible()
    await expect(page.getByText(`No saved query has “${name}” in its name.`)).toBeVisible()
  })

  test('a save without a name is refused at the name field and keeps the SQL', async ({
    authedPage: page,
  }, testInfo) => {
    const sql = 'SELECT 1 AS kept_when_refused'
    await page.goto('/queries')
    await typeSql(page, testInfo, sql)
    await page.getByText('Save…').click()
    await page.getByRole('button', { name: 'Save query' }).click()
    await expect(page.getByText('Give the query a name to save it')).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
  })

  test('a run shows in the History, whose link opens it in the editor without running it', async ({
    authedPage: page,
  }, testInfo) => {
    const marker = uniqueName('history')
    const sql = `SELECT '${marker}' AS marker`
    await page.goto('/queries')
    await typeSql(page, testInfo, sql)
    await page.getByRole('button', { name: 'Run' }).click()
    await expect(page.getByRole('table', { name: 'Query results' }).getByRole('cell', { name: marker })).toBeVisible()

    await page.goto('/queries')
    await page.getByText(/^History \(\d+\)$/).click()
    const entry = page.getByRole('list', { name: 'Query history' }).getByRole('link', { name: sql })
    await expect(entry).toBeVisible()
    await entry.click()
    await expect(page).toHaveURL(/\/queries\?data=/)
    await expect.poll(() => editorSql(page, testInfo)).toBe(sql)
    await expect(page.getByRole('table', { name: 'Query results' })).toHaveCount(0)
  })
})
