import type { Locator } from '@playwright/test'
import { clusterCall } from './cluster-faults'
import { expect, hydrated, test } from './fixtures'

/*
 * Issue 54, smaller point: the "Find a table" rows of the forms were bare browser controls under the
 * console's reset (no border, the page's type), unlike every other field of the same form. Each
 * row's search box, its table select and their labels now look like the form's other fields.
 */

type Named = { uuid: string; name: string }

/** The look of a control: what a field of the console's forms has (a border, the form's type). */
async function looksLikeAField(control: Locator) {
  await expect(control).toBeVisible()
  await expect(control).toHaveCSS('border-top-width', '1px')
  await expect(control).toHaveCSS('border-top-style', 'solid')
  await expect(control).toHaveCSS('font-size', '14px')
  const height = await control.evaluate((element) => element.getBoundingClientRect().height)
  expect(height).toBeGreaterThanOrEqual(32)
}

async function labelLooksLikeAField(control: Locator) {
  const id = await control.getAttribute('id')
  const label = control.page().locator(`label[for="${id}"]`)
  await expect(label).toHaveCSS('font-weight', '500')
  await expect(label).toHaveCSS('font-size', '14px')
}

test('the "Find a table" rows look like the form fields beside them', async ({ authedPage: page }) => {
  test.slow()
  const projects = await clusterCall<Named[] | { results: Named[] }>('GET', '/config/v1/orgs/{org}/projects/')
  const sample = (Array.isArray(projects) ? projects : projects.results).find((p) => p.name === 'sample')!
  const forms: [string, string, string?][] = [
    // a search of its own before the form (TableSearchForm)
    ['/data/new-transform', 'Find a table'],
    ['/security/users/invite-new-user', 'Find a table'],
    ['/scale/pool/create', 'Find a table'],
    ['/jobs/alter-jobs/create', 'Find a table'],
    [`/data/new-ingest-source?project=${sample.uuid}`, 'Find a table'],
    // a picker inside the form (TableSearchField): its select too
    ['/data/new-summary-table', 'Find a table', 'Parent table'],
    ['/data/new-summary-table/column-analysis', 'Find a table', 'Parent table'],
    ['/data/new-view', 'Find a table', 'Table'],
    // the role editor's scope search
    ['/security/roles/new-role', 'Find a table to scope to'],
  ]
  for (const [url, search, select] of forms) {
    await test.step(url, async () => {
      await page.goto(url)
      await hydrated(page)
      const box = page.getByRole('searchbox', { name: search, exact: true })
      await looksLikeAField(box)
      await labelLooksLikeAField(box)
      if (select) {
        const picker = page.getByRole('combobox', { name: select, exact: true })
        await looksLikeAField(picker)
        await labelLooksLikeAField(picker)
      }
    })
  }
})
