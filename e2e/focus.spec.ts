import { holdingFaultLock, setFault } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

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

/**
 * Focus after a refused submission (issue 36, item 7): the first field marked invalid (or the form's
 * own errors) takes focus, whoever refused: the browser-side check with scripts, the server without.
 */
test.describe('focus after a refused submission', () => {
  /** The element that has focus is a field marked invalid, and the first one of its form. */
  async function expectFirstInvalidFocused(page: import('@playwright/test').Page, where: string) {
    await expect(page.locator(':focus'), where).toHaveAttribute('aria-invalid', 'true')
    const isFirst = await page.evaluate(() => {
      const active = document.activeElement as HTMLInputElement | null
      return Boolean(active?.form && active.form.querySelector('[aria-invalid="true"]') === active)
    })
    expect(isFirst, where).toBe(true)
  }

  test('with scripts, the browser-side check that stops a submit moves focus to the first invalid field', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled === false, 'the browser-side check is a script')
    const forms = [
      { url: '/data/new-table', fill: { 'Table name': '1 bad name' }, submit: 'Create table' },
      { url: '/data/dictionaries/new-data-dictionary', fill: {}, submit: 'Create dictionary' },
      { url: '/security/users/invite-new-user', fill: {}, submit: 'Send invite' },
      { url: '/security/roles/new-role', fill: {}, submit: 'Create role' },
    ]
    for (const form of forms) {
      await page.goto(form.url)
      await hydrated(page)
      for (const [label, value] of Object.entries(form.fill)) await page.getByLabel(label, { exact: true }).fill(value)
      await page.getByRole('button', { name: form.submit, exact: true }).click()
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible()
      await expect(page).toHaveURL(new RegExp(`${form.url}$`))
      await expectFirstInvalidFocused(page, form.url)
    }
  })

  test('without scripts, the page the server answers with loads with focus on the first invalid field', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.use.javaScriptEnabled !== false, 'with scripts the check above refuses first')
    // the new role form, empty
    await page.goto('/security/roles/new-role')
    await page.getByRole('button', { name: 'Create role', exact: true }).click()
    await expectFirstInvalidFocused(page, 'new role')
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused()
    // an alter job whose SQL the server refuses
    await page.goto('/jobs/alter-jobs/create?table_q=sample.web_logs')
    await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
    await page.getByLabel('SQL', { exact: true }).fill('SELECT 1')
    await page.getByRole('button', { name: 'Create alter job', exact: true }).click()
    await expect(page.getByLabel('SQL', { exact: true })).toBeFocused()
    await expectFirstInvalidFocused(page, 'alter job')
  })
})
