import { cdnTransform } from '../tests/cdn-transform'
import { clusterCall } from './cluster-faults'
import { expect, test, uniqueName } from './fixtures'

/**
 * Issue 32: a wide transform made elsewhere (110 columns: nested types, hyphenated names, a tab
 * delimiter, unknown keys) opened in the editor and saved with nothing changed stays exactly as the
 * cluster holds it, with scripts and without.
 */
test('a wide real-world-shaped transform is opened and saved unchanged: the cluster copy is identical', async ({
  authedPage: page,
}) => {
  test.setTimeout(90_000)
  type Made = { uuid: string }
  const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('rt') })
  const table = await clusterCall<Made>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: 'cdn',
  })
  const path = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`
  const created = await clusterCall<Made>('POST', path, cdnTransform())
  const before = await clusterCall<Record<string, unknown>>('GET', `${path}${created.uuid}`)

  await page.goto(`/data/tables/${table.uuid}/transform/edit/${created.uuid}?project=${project.uuid}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Transform cloudfront-standard-logs' })).toBeVisible()
  await expect(page.getByLabel('Column 110 name')).toHaveValue('edge.meta-075')
  const started = Date.now()
  await page.getByRole('button', { name: 'Save transform' }).click()
  await expect(page.getByText('Transform cloudfront-standard-logs saved')).toBeVisible({ timeout: 45_000 })
  console.info(`${test.info().project.name}: saved in ${Date.now() - started} ms`)

  const after = await clusterCall<Record<string, unknown>>('GET', `${path}${created.uuid}`)
  const { modified: _b, ...was } = before
  const { modified: _a, ...is } = after
  expect(is).toEqual(was)
})
