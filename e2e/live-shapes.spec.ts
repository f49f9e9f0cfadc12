import fc from 'fast-check'
import { differences, liveTable, liveTransform, withoutServerKeys } from '../tests/live-cluster-shapes'
import { clusterCall } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/**
 * Issue 50 point 2: objects in a live cluster's shape (nulls on every column's flags, flattening
 * null on CSV, null strategy parts, table_type and rate_limit null, unknown keys) opened in the
 * editors and saved with nothing changed stay exactly as the cluster holds them (`modified` aside),
 * with scripts and without. With scripts the transform editor hides the other type's format section;
 * before, its fields went unposted and read as cleared (a JSON transform with CSV details could not
 * be saved at all).
 */

type Stored = Record<string, unknown> & { uuid: string }
const same = (before: Stored, after: Stored) =>
  differences(withoutServerKeys(before, ['modified']), withoutServerKeys(after, ['modified']), true)

async function makeProject() {
  return clusterCall<Stored>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('live') })
}

for (const type of ['json', 'csv'] as const) {
  test(`a live ${type} transform of ~60 columns saved unchanged is identical`, async ({ authedPage: page }) => {
    test.setTimeout(90_000)
    const project = await makeProject()
    const table = await clusterCall<Stored>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
      name: 'events',
    })
    const [shape] = fc.sample(
      liveTransform('live', 60).filter((t) => t.type === type),
      { numRuns: 1, seed: type === 'csv' ? 7 : 8 },
    )
    const path = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`
    const created = await clusterCall<Stored>('POST', path, shape)
    const before = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
    await page.goto(`/data/tables/${table.uuid}/transform/edit/${created.uuid}?project=${project.uuid}`)
    const columns = (shape!.settings as { output_columns: unknown[] }).output_columns.length
    await expect(page.getByLabel(`Column ${columns} name`)).toHaveValue(/./)
    await hydrated(page)
    await page.getByRole('button', { name: 'Save transform' }).click()
    await expect(page.getByText('Transform live saved')).toBeVisible({ timeout: 45_000 })
    expect(same(before, await clusterCall<Stored>('GET', `${path}${created.uuid}`))).toEqual([])
  })
}

test('a live table: each settings group saved unchanged leaves it identical', async ({ authedPage: page }) => {
  test.setTimeout(90_000)
  const project = await makeProject()
  const [shape] = fc.sample(liveTable(uniqueName('live_t')), { numRuns: 1, seed: 9 })
  const path = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`
  const created = await clusterCall<Stored>('POST', path, shape)
  const before = await clusterCall<Stored>('GET', `${path}${created.uuid}/`)
  for (const [group, title] of [
    ['lifecycle', 'data lifecycle'],
    ['index', 'index'],
    ['merge', 'merge'],
    ['stream', 'stream'],
    ['query', 'query options'],
  ] as const) {
    await page.goto(`/data/tables/${created.uuid}?project=${project.uuid}&edit=${group}#edit-settings`)
    await hydrated(page)
    const save = page.getByRole('button', { name: new RegExp(`^Save ${title}$`, 'i') })
    await save.click()
    await expect(page.getByText(/ saved$|: nothing changed$/).first()).toBeVisible()
  }
  expect(same(before, await clusterCall<Stored>('GET', `${path}${created.uuid}/`))).toEqual([])
})
