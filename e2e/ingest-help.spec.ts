import { clusterCall, CLUSTER } from './cluster-faults'
import { expect, hydrated, test } from './fixtures'

/*
 * Issue 36 ("an operator's first day"), items 9 and 10: a table page says how to send it data over
 * HTTP, and inferring a CloudFront-style TSV sample fills the CSV format fields as they read.
 * Both projects: the same with and without scripts (the Copy button is the scripts' extra).
 */

type Named = { uuid: string; name: string }
const listOf = <T>(body: T[] | { results: T[] }) => (Array.isArray(body) ? body : body.results)

async function sampleWebLogs() {
  const projects = listOf(await clusterCall<Named[] | { results: Named[] }>('GET', '/config/v1/orgs/{org}/projects/'))
  const sample = projects.find((project) => project.name === 'sample')!
  const tables = listOf(
    await clusterCall<Named[] | { results: Named[] }>('GET', `/config/v1/orgs/{org}/projects/${sample.uuid}/tables/`),
  )
  return { project: sample, table: tables.find((entry) => entry.name === 'web_logs')! }
}

const CLOUDFRONT = [
  'date\ttime\tx-edge-location\tsc-bytes\tc-ip\tcs-method\tcs-uri-stem\tsc-status',
  '2024-05-01\t10:00:00\tFRA2-C1\t2048\t10.0.0.1\tGET\t/index.html\t200',
  '2024-05-01\t23:59:58\tFRA2-C1\t512\t10.0.0.2\tGET\t/app.js\t304',
].join('\n')

test('a table page shows its ingest address, headers and a curl example with a token placeholder, and links to ingesting a sample', async ({
  authedPage: page,
}, testInfo) => {
  const { project, table } = await sampleWebLogs()
  const isJs = testInfo.project.use.javaScriptEnabled !== false
  if (isJs) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(`/data/tables/${table.uuid}?project=${project.uuid}`)
  await hydrated(page)
  const panel = page.getByRole('region', { name: 'Send data over HTTP' })
  await expect(panel.getByText(`POST ${CLUSTER}/ingest/event`, { exact: true })).toBeVisible()
  await expect(panel.getByText('x-hdx-table: sample.web_logs', { exact: true })).toBeVisible()
  await expect(panel.getByText('x-hdx-transform: web_logs_json', { exact: true })).toBeVisible()
  await expect(panel.getByText('Authorization: Bearer $HDX_TOKEN', { exact: true })).toBeVisible()
  const curl = panel.getByTestId('ingest-curl')
  const text = (await curl.textContent())!
  expect(text).toContain(`curl -X POST '${CLUSTER}/ingest/event'`)
  expect(text).toContain(`-H "Authorization: Bearer $HDX_TOKEN"`)
  expect(text).toContain(`-H 'x-hdx-table: sample.web_logs'`)
  expect(text).toContain(`-H 'x-hdx-transform: web_logs_json'`)
  // never the token itself (a JWT starts "ey")
  expect(await page.content()).not.toMatch(/Bearer ey/)

  const copy = panel.getByRole('button', { name: 'Copy curl command' })
  if (isJs) {
    await copy.click()
    await expect(panel.getByRole('status')).toHaveText('Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text)
  } else {
    // without scripts the text is there to select
    await expect(copy).toHaveCount(0)
    await expect(curl).toHaveCSS('user-select', 'all')
  }

  await panel.getByRole('link', { name: 'ingest a sample through transform web_logs_json' }).click()
  await expect(page).toHaveURL(/\/transform\/edit\/[\w-]+\?project=[\w-]+#sample-data$/)
  await expect(page.getByRole('heading', { name: 'Sample data', level: 2 })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: 'Ingest the sample' })).toBeVisible()
})

test('a TSV sample inferred while Type is JSON: Delimiter \\t, Quote, Comment, Escape filled; the primary joins date and time', async ({
  authedPage: page,
}) => {
  await page.goto('/data/new-transform')
  await hydrated(page)
  await page.getByLabel('Sample data (CSV with a header line, or JSON)').fill(CLOUDFRONT)
  await page.getByRole('button', { name: 'Infer columns from sample' }).click()
  const notice = page.getByRole('status').filter({ hasText: 'Proposed from the sample' })
  await expect(notice).toContainText('Read a header and 2 TSV rows; Skip head is 1 so the header line is not ingested.')
  await expect(notice).not.toContainText('set Skip head')
  await expect(notice).not.toContainText('CSV rows')
  await expect(notice).toContainText('keeps its time of day')
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('csv')
  await expect(page.getByLabel('Delimiter', { exact: true })).toHaveValue('\\t')
  await expect(page.getByLabel('Quote', { exact: true })).toHaveValue('"')
  await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('#')
  await expect(page.getByLabel('Escape', { exact: true })).toHaveValue('"')
  await expect(page.getByLabel('Skip head (lines)', { exact: true })).toHaveValue('1')
  await expect(page.getByLabel('Column 1 name', { exact: true })).toHaveValue('timestamp')
  await expect(page.getByLabel('Column 1 primary', { exact: true })).toBeChecked()
  await expect(page.getByLabel('Column 1 extra', { exact: true })).toHaveValue(
    `{"virtual":true,"script":"row['date'] + ' ' + row['time']"}`,
  )
  await expect(page.getByLabel('Column 2 name', { exact: true })).toHaveValue('date')
  await expect(page.getByLabel('Column 2 type', { exact: true })).toHaveValue('string')
})
