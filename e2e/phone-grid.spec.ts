import { expect, hydrated, test } from './fixtures'

/*
 * Issue 54, smaller point: at 390 px the query result grid showed one column (the timestamp, its
 * type line and slack set every width) and nothing said the grid scrolls sideways. On a phone the
 * grid now sizes its columns from their values in a smaller type, says how many columns it has and
 * that it scrolls, and keeps the row numbers in view while it does.
 */

const WIDTH = 390

test('phone: the result grid shows more than one column, says it scrolls sideways, and keeps the row numbers', async ({
  authedPage: page,
}) => {
  await page.setViewportSize({ width: WIDTH, height: 844 })
  await page.goto('/result?sql=SELECT+timestamp%2C+method%2C+status%2C+path+FROM+sample.web_logs+LIMIT+20')
  await hydrated(page)
  const grid = page.getByTestId('result-grid')
  await expect(grid.getByRole('columnheader', { name: /^method/ })).toBeVisible()
  await grid.scrollIntoViewIfNeeded()
  const box = (await grid.boundingBox())!
  // the timestamp and the method column, both whole inside the grid's box
  for (const name of [/^timestamp/, /^method/]) {
    const header = (await grid.getByRole('columnheader', { name }).boundingBox())!
    expect(header.x + header.width, `${name} ends inside the grid`).toBeLessThanOrEqual(box.x + box.width)
  }
  await expect(page.getByText('4 columns: scroll the grid sideways to see them all.')).toBeVisible()

  // sideways: a later column comes into view, the row numbers stay
  await page.mouse.move(box.x + box.width / 2, box.y + 120)
  await page.mouse.wheel(600, 0)
  await expect.poll(() => grid.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
  const rowHeader = grid.getByRole('rowheader', { name: '1', exact: true })
  const rowNumber = (await rowHeader.boundingBox())!
  expect(rowNumber.x).toBeGreaterThanOrEqual(box.x)
  // in view and on top: not under the cells that scrolled past it
  const onTop = await rowHeader.evaluate((element) => {
    const rect = element.getBoundingClientRect()
    return document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2) === element
  })
  expect(onTop).toBe(true)
  const path = (await grid.getByRole('columnheader', { name: /^path/ }).boundingBox())!
  expect(path.x).toBeLessThan(box.x + box.width)
})

test('a wide screen keeps the grid as it was: no sideways note', async ({ authedPage: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/result?sql=SELECT+timestamp%2C+method+FROM+sample.web_logs+LIMIT+5')
  await hydrated(page)
  await expect(page.getByTestId('result-grid').getByRole('columnheader', { name: /^method/ })).toBeVisible()
  await expect(page.getByText('2 columns: scroll the grid sideways to see them all.')).toBeHidden()
})
