import { readFile } from 'node:fs/promises'
import { expect, test } from './fixtures'

// Issue 49, point 5 (decision 095): the statement is read as the engine reads it.
test.describe('query guards', () => {
  test('a link whose comment hides an ALTER (-- /*⏎ALTER …) asks to confirm and runs nothing', async ({
    authedPage: page,
  }) => {
    // Matches no row, should it ever run: the sample table keeps what other specs count.
    await page.goto('/result?sql=--%20/*%0AALTER%20TABLE%20sample.web_logs%20DELETE%20WHERE%20status%20=%20999')
    await expect(page.getByRole('heading', { name: 'This statement changes data' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Run this statement' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Result' })).toBeHidden()
    // several statements are not read as the first one
    await page.goto(`/result?${new URLSearchParams({ sql: 'SELECT 1 PARALLEL WITH DROP TABLE sample.web_logs' })}`)
    await expect(page.getByRole('heading', { name: 'This statement may change data' })).toBeVisible()
    await expect(page.getByText(/more than one statement/)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Result' })).toBeHidden()
  })

  test('Download CSV of a statement with its own FORMAT CSVWithNames has the formula guard applied', async ({
    authedPage: page,
  }) => {
    await page.goto(`/result?${new URLSearchParams({ sql: "SELECT '=1+1' AS x FORMAT CSVWithNames" })}`)
    // the result page shows the answer as the statement asked for it
    await expect(page.getByText('The answer is in CSVWithNames format')).toBeVisible()
    const downloading = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download CSV' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('query-result.csv')
    expect(await readFile((await download.path())!, 'utf8')).toBe(`"x"\n"'=1+1"\n`)
  })
})
