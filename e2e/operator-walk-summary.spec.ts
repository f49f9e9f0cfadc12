import { clusterCall } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * Issue 54, point 9: a summary table's page read like a raw table's (how to send it data, load the
 * sample, "data cannot be ingested until a transform is published"). It now says where its rows come
 * from: its source table (linked) and its SQL, and offers no ingest help, transforms or sources.
 */

type Named = { uuid: string; name: string }

test('a summary table page shows its source table and SQL, and no ingest help', async ({ authedPage: page }) => {
  const project = await clusterCall<Named>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('sum_p') })
  const tables = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`
  const source = await clusterCall<Named>('POST', tables, { name: uniqueName('raw') })
  await clusterCall('POST', `${tables}${source.uuid}/transforms/`, {
    name: 'raw_json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'message', datatype: { type: 'string' } },
      ],
    },
  })
  const sql = `SELECT toStartOfMinute(timestamp) AS timestamp, count() AS n FROM ${project.name}.${source.name} GROUP BY timestamp`
  const summary = await clusterCall<Named>('POST', tables, {
    name: uniqueName('per_minute'),
    type: 'summary',
    settings: { summary: { sql } },
  })

  await page.goto(`/data/tables/${summary.uuid}?project=${project.uuid}`)
  await hydrated(page)
  const panel = page.getByRole('region', { name: 'Summary of' })
  await expect(panel).toBeVisible()
  await expect(panel.getByRole('link', { name: `${project.name}.${source.name}` })).toHaveAttribute(
    'href',
    `/data/tables/${source.uuid}?project=${project.uuid}`,
  )
  await expect(panel.getByLabel('Summary SQL')).toHaveText(sql)

  // what a raw table's page offers to send it data is not there
  await expect(page.getByRole('region', { name: 'Send data over HTTP' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Transforms', exact: true })).toHaveCount(0)
  await expect(page.getByText('This table has no rows yet.')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Load the sample/ })).toHaveCount(0)

  // the source table's page is still a raw table's
  await page.goto(`/data/tables/${source.uuid}?project=${project.uuid}`)
  await expect(page.getByRole('region', { name: 'Send data over HTTP' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Summary of' })).toHaveCount(0)
})
