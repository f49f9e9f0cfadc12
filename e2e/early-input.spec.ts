import type { Page } from '@playwright/test'
import { createTableThroughForm, expect, hydrated, test } from './fixtures'

/**
 * Opens `path` with the console's scripts held back, runs `early` on the page as the server rendered
 * it (a user on a slow link changing fields before the page hydrates), then lets the scripts load and
 * waits for hydration.
 */
async function beforeHydration(page: Page, path: string, early: () => Promise<void>) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await released
    await route.continue()
  })
  await page.goto(path, { waitUntil: 'commit' })
  await expect(page.locator('html[data-hydrated]')).toHaveCount(0)
  await early()
  await expect(page.locator('html[data-hydrated]')).toHaveCount(0) // still the server's page
  release()
  await hydrated(page)
}

test.describe('changes made before the page hydrates', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'hydration is scripts')
  })

  test("batch job: a table and transform picked early are kept, and the transforms listed are that table's", async ({
    authedPage: page,
  }) => {
    const table = page.getByLabel('Table', { exact: true })
    const transform = page.getByLabel('Transform', { exact: true })
    // the page comes with another table picked (a deep link), so picking the sample table is a change
    const { project, table: other } = await createTableThroughForm(page)
    // the form offers what its search finds (issue 33): the sample table, and the one the link picks
    await beforeHydration(
      page,
      `/jobs/batch-jobs/create?table=${project}.${other}&table_q=sample.web_logs`,
      async () => {
        await expect(table).toHaveValue(`${project}.${other}`)
        await table.selectOption('sample.web_logs')
        await transform.selectOption('sample.web_logs:web_logs_csv') // not the table's default
      },
    )
    await expect(transform).toHaveValue('sample.web_logs:web_logs_csv')
    // with scripts the list holds only the picked table's transforms (the form's state follows the page)
    await expect(transform.locator('optgroup')).toHaveCount(1)
    await expect(transform.locator('optgroup')).toHaveAttribute('label', 'sample.web_logs')
    // and the form keeps reacting: no table, no transforms; the table again brings its default one
    await table.selectOption('')
    await expect(transform.locator('optgroup')).toHaveCount(0)
    await table.selectOption('sample.web_logs')
    await expect(transform).toHaveValue('sample.web_logs:web_logs_json')
  })

  test('alter job: a table picked early fills in its template; SQL typed early is kept', async ({
    authedPage: page,
  }) => {
    const table = page.getByLabel('Table', { exact: true })
    const sql = page.getByLabel('SQL', { exact: true })
    // what the form sends: the textarea, or the hidden field once the code editor has replaced it
    // (it loads on its own time after hydration: asserting on the textarea raced it)
    const sent = page.locator('[name=sql]')
    await createTableThroughForm(page) // a second table to pick
    // a table other than the one the page comes with
    const pickOther = async () => {
      const current = await table.inputValue()
      const other = await table
        .locator('option')
        .evaluateAll(
          (options, skip) =>
            options.map((option) => (option as HTMLOptionElement).value).find((value) => value !== skip) ?? '',
          current,
        )
      expect(other).not.toBe('')
      await table.selectOption(other)
      return other
    }
    let picked = ''
    await beforeHydration(page, '/jobs/alter-jobs/create', async () => {
      picked = await pickOther()
    })
    await expect(sent).toHaveValue(new RegExp(`^ALTER TABLE ${picked.replace('.', '\\.')} `))

    const typed = 'ALTER TABLE sample.web_logs DELETE WHERE status = 999'
    await beforeHydration(page, '/jobs/alter-jobs/create', async () => {
      await sql.fill(typed)
      await pickOther()
    })
    await expect(sent).toHaveValue(typed)
  })

  test('query: SQL typed before hydration is what the editor holds after it', async ({ authedPage: page }) => {
    const sql = 'SELECT 42 AS typed_early'
    await beforeHydration(page, '/queries', async () => {
      await page.getByLabel('SQL', { exact: true }).fill(sql)
    })
    await expect(page.locator('.ace_editor')).toBeVisible()
    await expect(page.locator('input[type=hidden][name=sql]')).toHaveValue(sql)
    await expect(page.locator('.ace_content')).toContainText(sql)
  })
})

test.describe('issue 54, point 10: a choice made before hydration is what the form sends', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'hydration is scripts')
  })

  test('invite: Scope "Project" and a project picked early stay picked, and the invite is scoped to it', async ({
    authedPage: page,
  }) => {
    const email = `early_${Date.now().toString(36)}@console.test`
    const scope = page.getByLabel('Scope', { exact: true })
    const resource = page.getByLabel('Resource', { exact: true })
    await beforeHydration(page, '/security/users/invite-new-user', async () => {
      await page.getByLabel('Email', { exact: true }).fill(email)
      // Publisher: the scoped role it makes is the one security-people.spec.ts makes too (a scoped
      // Reader role would be a second "Reader" checkbox on that spec's Edit user page)
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Publisher' })
      await scope.selectOption({ label: 'Project' })
      await resource.selectOption({ label: 'sample' })
    })
    // what the user sees once the page is React's: the project they picked, in a list of projects
    await expect(scope).toHaveValue('project')
    await expect(resource.locator('option:checked')).toHaveText('sample')
    await expect(resource.locator('optgroup')).toHaveAttribute('label', 'Projects')
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page).toHaveURL(/\/security\/pending-invites$/)
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Project sample')
  })

  test('summary: a parent table picked early stays picked when the search typed early lists it again', async ({
    authedPage: page,
  }) => {
    const parent = page.getByLabel('Parent table', { exact: true })
    await beforeHydration(page, '/data/new-summary-table', async () => {
      await parent.selectOption({ label: 'a_crowd_1.crowd_003' })
      await page.getByRole('searchbox', { name: 'Find a table', exact: true }).fill('a_crowd_1')
    })
    // the search typed before hydration is run once the page hydrates: its list replaces the first one
    await expect(page.getByText('40 tables matching “a_crowd_1”.')).toBeVisible()
    await expect(parent.locator('option:checked')).toHaveText('a_crowd_1.crowd_003')
  })

  test('role: a table search typed early is run once the page hydrates', async ({ authedPage: page }) => {
    await beforeHydration(page, '/security/roles/new-role', async () => {
      await page.getByLabel('Find a table to scope to', { exact: true }).fill('a_crowd_2')
    })
    await expect(page.getByText('The scope list offers 40 tables matching “a_crowd_2”.')).toBeVisible()
  })
})
