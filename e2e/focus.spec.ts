import { holdingFaultLock, setFault } from './cluster-faults'
import { expect, test, uniqueName } from './fixtures'

/**
 * Focus after a submission with scripts (issue 14): the page does not load again, so `autoFocus`
 * (what comfort.spec.ts checks without scripts) does not apply. An error only the server finds
 * takes focus as it does without scripts, and a success leaves focus somewhere sensible.
 */
test.describe('focus after a submission, with scripts', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(
      testInfo.project.use.javaScriptEnabled === false,
      'without scripts comfort.spec.ts checks the autofocus on load',
    )
  })

  test('a name the cluster refuses as taken: focus moves to that field, which names the reason', async ({
    authedPage: page,
  }) => {
    await page.goto('/data/new-table')
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'sample' })
    const name = page.getByLabel('Table name')
    await name.fill('web_logs') // valid for the browser's check; only the cluster knows it is taken
    await page.getByRole('button', { name: 'Create table' }).click()
    await expect(name).toHaveAccessibleDescription(/already exists/)
    await expect(name).toBeFocused()
    await expect(page).toHaveURL(/\/data\/new-table$/)
  })

  test("the cluster's refusal of the whole form: focus moves to the form's error", async ({ authedPage: page }) => {
    await holdingFaultLock(async () => {
      await page.goto('/data/new-table')
      await page.getByLabel('Project', { exact: true }).selectOption({ label: 'sample' })
      await page.getByLabel('Table name').fill(uniqueName('focus'))
      await setFault({
        path: '^/config/v1/orgs/[^/]+/projects/[^/]+/tables/?$',
        method: 'POST',
        status: 400,
        body: { non_field_errors: ['The cluster refuses this table.'] },
        times: 1,
      })
      await page.getByRole('button', { name: 'Create table' }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'The cluster refuses this table.' })
      await expect(alert).toBeVisible()
      await expect(alert).toBeFocused()
    })
  })

  test('a saved form that goes to another page: focus on its toast, then on the page heading when the toast goes', async ({
    authedPage: page,
  }) => {
    const table = uniqueName('focus_ok')
    // Holding the fault switch: a fault another worker set on table creation would refuse this one.
    await holdingFaultLock(async () => {
      await page.goto('/data/new-table')
      await page.getByLabel('Project', { exact: true }).selectOption({ label: 'sample' })
      await page.getByLabel('Table name').fill(table)
      await page.getByRole('button', { name: 'Create table' }).click()
      const heading = page.getByRole('heading', { level: 1, name: new RegExp(table) })
      await expect(heading).toBeVisible()
      await expect(page.getByRole('status').filter({ hasText: `Table ${table} created` })).toBeFocused()
      await expect(heading).toBeFocused({ timeout: 5_000 })
    })
  })

  test('a saved form that stays on its page: focus on its toast too (its button was disabled while sending), then on the heading', async ({
    authedPage: page,
  }) => {
    await page.goto('/profile/settings')
    await page.getByRole('button', { name: 'Save', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeFocused()
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused({ timeout: 5_000 })
  })
})
