import { CLUSTER, clusterCall, clusterToken } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * Issue 54, point 1: "Ingest the sample" on a transform's page showed its result only at the top of
 * a long page, and a second click ingested again (count 400). The result now shows beside the
 * button (in view, a status; focused with scripts), and the page's one-time token makes a repeat,
 * or a double POST, load nothing more (decision 098).
 */

type Named = { uuid: string; name: string }

const SAMPLE = [
  { timestamp: '2026-12-01T10:00:00.000Z', message: 'one' },
  { timestamp: '2026-12-01T10:01:00.000Z', message: 'two' },
  { timestamp: '2026-12-01T10:02:00.000Z', message: 'three' },
]
  .map((row) => JSON.stringify(row))
  .join('\n')

async function madeTable() {
  const project = await clusterCall<Named>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('walk_p') })
  const table = await clusterCall<Named>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: uniqueName('walk_t'),
  })
  const transform = await clusterCall<Named>(
    'POST',
    `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`,
    {
      name: 'walk_json',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          {
            name: 'timestamp',
            datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
          },
          { name: 'message', datatype: { type: 'string' } },
        ],
      },
    },
  )
  return { project, table, transform }
}

async function rowCount(project: string, table: string): Promise<number> {
  const answer = await fetch(`${CLUSTER}/query`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await clusterToken()}` },
    body: `SELECT count() AS n FROM ${project}.${table} FORMAT JSONEachRow`,
  })
  expect(answer.status).toBe(200)
  return Number((JSON.parse((await answer.text()).trim()) as { n: string | number }).n)
}

test('Ingest the sample answers beside the button; a second click and a double POST load it once', async ({
  authedPage: page,
}, testInfo) => {
  const isScripted = testInfo.project.use.javaScriptEnabled !== false
  const { project, table, transform } = await madeTable()
  const url = `/data/tables/${table.uuid}/transform/edit/${transform.uuid}?project=${project.uuid}`
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto(url)
  await hydrated(page)
  await page.getByLabel('Sample data (CSV with a header line, or JSON)').fill(SAMPLE)
  const button = page.getByRole('button', { name: 'Ingest the sample' })
  await button.click()

  const result = page.locator('#ingest-result')
  await expect(result).toHaveAttribute('role', 'status')
  await expect(result).toContainText(`Ingested 3 rows into ${project.name}.${table.name} with transform walk_json.`)
  // where the user is: in view beside the button, not at the top of the page
  await expect(result).toBeInViewport()
  if (isScripted) await expect(result).toBeFocused()
  expect(await rowCount(project.name, table.name)).toBe(3)

  // the second click (the result unseen, or a resubmitted form) loads nothing more
  await page.getByRole('button', { name: 'Ingest the sample' }).click()
  await expect(result).toContainText('This sample was already sent from this page, so it was not loaded again.')
  await expect(result).toContainText('Ingested 3 rows')
  expect(await rowCount(project.name, table.name)).toBe(3)

  // a double POST of a fresh page's form (two at once, as a double click without scripts sends them)
  await page.goto(url)
  await hydrated(page)
  const token = await page.locator('input[name="ingestToken"]').getAttribute('value')
  expect(token).toBeTruthy()
  const fields = await page
    .locator('#transform-editor')
    .evaluate((form: HTMLFormElement) =>
      [...new FormData(form).entries()].filter(([, value]) => typeof value === 'string'),
    )
  const multipart: Record<string, string> = {}
  for (const [name, value] of fields as [string, string][]) multipart[name] = value
  multipart.sampleData = SAMPLE
  multipart.intent = 'ingest'
  const post = () => page.request.post(url, { multipart, maxRedirects: 0 })
  const answers = await Promise.all([post(), post()])
  for (const answer of answers) expect(answer.status()).toBe(200)
  expect(await rowCount(project.name, table.name)).toBe(6)
})
