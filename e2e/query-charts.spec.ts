import AxeBuilder from '@axe-core/playwright'
import type { Page, TestInfo } from '@playwright/test'
import { expect, hydrated, test, uniqueName } from './fixtures'
import { typeSql } from './query-editor'

const PER_MINUTE =
  'SELECT toStartOfMinute(timestamp) AS minute, count() AS requests FROM sample.web_logs GROUP BY minute ORDER BY minute'
const BY_STATUS = 'SELECT count() AS c FROM sample.web_logs WHERE status = {status:UInt16}'

async function run(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === 'js') await page.keyboard.press('Control+Enter')
  else await page.getByRole('button', { name: 'Run', exact: true }).click()
}

/** The chart on screen is of `kind`: a Plotly plot with scripts, the server's SVG without them. */
async function expectChart(page: Page, testInfo: TestInfo, kind: 'line' | 'bar', label: RegExp) {
  if (testInfo.project.name === 'js') {
    const plot = page.getByTestId('chart-plot')
    await expect(plot).toHaveAttribute('data-chart-kind', kind)
    await expect(plot).toHaveAccessibleName(label)
    // Plotly drew it: its own SVG, with a trace of that kind
    await expect(plot.locator('.main-svg').first()).toBeVisible()
    await expect(plot.locator(kind === 'bar' ? '.barlayer .trace' : '.scatterlayer .trace').first()).toBeAttached()
  } else {
    const svg = page.getByRole('img', { name: label })
    await expect(svg).toBeVisible()
    await expect(svg).toHaveAttribute('data-chart-kind', kind)
    // its title, both axis titles, and the legend
    await expect(svg.locator('title')).toHaveText(label)
    await expect(svg.locator('text', { hasText: /^minute$/ })).toHaveCount(1)
    await expect(svg.locator('g.qc-s0 > text')).toHaveText('requests')
  }
}

test.describe('charts of a result and typed parameters (issue 51)', () => {
  test('a per-minute count opens as a line chart, turns into bars by the controls; the URL, a reload, a saved query keep it', async ({
    authedPage: page,
  }, testInfo) => {
    test.setTimeout(90_000)
    await page.goto('/queries')
    await hydrated(page)
    await typeSql(page, testInfo, PER_MINUTE)
    await run(page, testInfo)
    await expect(page).toHaveURL(/\/result\?sql=SELECT/)
    await expect(page.getByRole('table', { name: 'Query results' })).toBeVisible()

    await page.getByRole('navigation', { name: 'Result' }).getByRole('link', { name: 'Chart' }).click()
    await expect(page).toHaveURL(/tab=chart/)
    await expectChart(page, testInfo, 'line', /^Line chart: requests by minute$/)
    await expect(page.getByLabel('Chart type')).toHaveValue('line')
    await expect(page.getByLabel('X axis')).toHaveValue('minute')
    await expect(page.getByRole('checkbox', { name: 'requests' })).toBeChecked()
    await expect(page.getByRole('link', { name: 'The data as a table' })).toBeVisible()

    await page.getByLabel('Chart type').selectOption('bar')
    if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Show chart' }).click()
    await expect(page).toHaveURL(/[?&]chart=bar(&|$)/)
    await expect(page).toHaveURL(/[?&]x=minute(&|$)/)
    await expectChart(page, testInfo, 'bar', /^Bars chart: requests by minute$/)

    await page.reload()
    await expectChart(page, testInfo, 'bar', /^Bars chart: requests by minute$/)

    // the chart as an image of its own: an SVG with its title
    const image = await page.request.get(
      (await page.getByRole('link', { name: 'The chart as an SVG image' }).getAttribute('href'))!,
    )
    expect(image.headers()['content-type']).toBe('image/svg+xml; charset=utf-8')
    const body = await image.text()
    expect(body).toContain('Bars chart: requests by minute</title>')
    expect(body.length).toBeLessThan(200_000)

    // a saved query keeps the chart: its Run opens the same bars
    await hydrated(page)
    const name = uniqueName('Chart e2e')
    await page.getByText('Save…').click()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('button', { name: 'Save query' }).click()
    await expect(page).toHaveURL(/\/queries\?saved=[0-9a-f-]{36}$/)
    await expect(page.getByText(`Query saved as “${name}”`)).toBeVisible()
    await hydrated(page)
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page).toHaveURL(/tab=chart&chart=bar/)
    await expectChart(page, testInfo, 'bar', /^Bars chart: requests by minute$/)
  })

  test('the chart page fits a 390 px screen and has no serious axe finding', async ({ authedPage: page }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'axe runs as a script: the no-script page is walked by a11y.spec.ts')
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto(`/result?${new URLSearchParams({ sql: PER_MINUTE, tab: 'chart', split: '' })}`)
    await expectChart(page, testInfo, 'line', /^Line chart: requests by minute$/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([])
  })

  test('a {status:UInt16} placeholder gets an input; a bad value shows the cluster message on it; 200 counts as the literal', async ({
    authedPage: page,
  }, testInfo) => {
    const literal = await page.request.get(
      `/result?${new URLSearchParams({ sql: BY_STATUS.replace('{status:UInt16}', '200') })}`,
    )
    expect(literal.ok()).toBe(true)

    await page.goto('/queries')
    await hydrated(page)
    await typeSql(page, testInfo, BY_STATUS)
    const input = page.getByLabel('status', { exact: true })
    if (testInfo.project.name === 'js') {
      // with scripts the input appears as the SQL is typed, its type as its hint
      await expect(input).toBeVisible()
      await expect(input).toHaveAccessibleDescription('UInt16')
      await input.fill('abc')
      await page.getByRole('button', { name: 'Run', exact: true }).click()
    } else {
      // without scripts a Run shows the page again with the input, and the cluster's word that it is not set
      await run(page, testInfo)
      await expect(input).toHaveAccessibleDescription(/UInt16.*Substitution `status` is not set/s)
      await input.fill('abc')
      await page.getByRole('button', { name: 'Run', exact: true }).click()
    }
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    await expect(input).toHaveAccessibleDescription(/Value abc cannot be parsed as UInt16 for query parameter 'status'/)
    await expect(page.getByText('the cluster refused the value of parameter')).toBeVisible()
    if (testInfo.project.name === 'js') {
      const axe = await new AxeBuilder({ page }).include('form[aria-label="Query"]').analyze()
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
    }

    await input.fill('200')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page).toHaveURL(/[?&]param_status=200(&|$)/)
    const cell = page.getByRole('table', { name: 'Query results' }).locator('tbody td').first()
    await expect(cell).toHaveText(/^\d+$/)
    await expect(input).not.toHaveAttribute('aria-invalid', 'true')
    // the same count as the query with 200 written in
    const written = await page.context().newPage()
    await written.goto(`/result?${new URLSearchParams({ sql: BY_STATUS.replace('{status:UInt16}', '200') })}`)
    const writtenCell = written.getByRole('table', { name: 'Query results' }).locator('tbody td').first()
    await expect(writtenCell).toHaveText(/^\d+$/)
    expect(await cell.textContent()).toBe(await writtenCell.textContent())
    // the SQL stayed as typed: the value is beside it, not in it
    await expect(page).toHaveURL(
      /sql=SELECT\+count%28%29\+AS\+c\+FROM\+sample\.web_logs\+WHERE\+status\+%3D\+%7Bstatus%3AUInt16%7D/,
    )
  })
})
