import type { Page } from '@playwright/test'
import { createTableThroughForm, expect, test } from './fixtures'
import { codeField } from './code-field'

// Forms whose schema the browser loads after hydration (decision 032): the server's HTML has the
// schema's constraints and hydrates without a mismatch; with scripts a field is checked on leaving
// it, with the message the server gives without them.
const FORMS = [
  {
    path: '/data/new-table',
    field: 'Table name',
    value: 'y'.repeat(64),
    next: 'Description',
    submit: 'Create table',
    message: /Name must be under 64 symbols/,
  },
  {
    path: '/jobs/alter-jobs/create',
    field: 'SQL',
    value: 'SELECT 1',
    next: 'Table',
    submit: 'Create alter job',
    message: /Only ALTER TABLE project\.table UPDATE/,
    isCode: true,
  },
  {
    path: '/jobs/batch-jobs/create',
    field: 'Name',
    value: 'y'.repeat(64),
    next: 'Description',
    submit: 'Create batch job',
    message: /Name must be under 64 symbols/,
  },
] as const

/** Console errors and uncaught errors (React reports a hydration mismatch as both), not a form's 400. */
function collectErrors(page: Page) {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 400/.test(message.text())) errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

test.describe('form validation loaded after hydration', () => {
  for (const form of FORMS) {
    test(`${form.path}: the same message in the browser and from the server, no hydration error`, async ({
      authedPage: page,
    }, testInfo) => {
      const errors = collectErrors(page)
      await page.goto(form.path)
      // a SQL field is an editor with scripts (decision 076): typed and described through it
      const code = 'isCode' in form ? codeField(page, testInfo, form.field) : null
      const field = code ? code.input : page.getByLabel(form.field, { exact: true })
      if (code) await code.fill(form.value)
      else {
        await expect(field).toHaveAttribute('required', '')
        await field.fill(form.value)
      }
      if (testInfo.project.name === 'js' && code) {
        // the editor is not a form field the browser-side check hears leave: Create checks it in the browser
        await page.getByRole('button', { name: form.submit }).click()
        await expect(field).toHaveAccessibleDescription(form.message)
        await expect(page).toHaveURL(new RegExp(`${form.path}$`))
      } else if (testInfo.project.name === 'js') {
        await page.getByLabel(form.next, { exact: true }).focus()
        await expect(field).toHaveAccessibleDescription(form.message)
        await expect(page).toHaveURL(new RegExp(`${form.path}$`))
      } else {
        await page.getByRole('button', { name: form.submit }).click()
        await expect(field).toHaveAccessibleDescription(form.message)
      }
      expect(errors).toEqual([])
    })
  }

  for (const { path, next } of [
    { path: '/login', next: 'Password' },
    { path: '/password-reset', next: 'Back to login' },
  ]) {
    test(`${path}: a wrong email format is caught in the browser, no hydration error`, async ({ page }, testInfo) => {
      // Without scripts the browser's own type="email" check stops the submission before the server.
      test.skip(testInfo.project.name !== 'js', 'a script-only check')
      const errors = collectErrors(page)
      await page.goto(path)
      const email = page.getByLabel('Email')
      await expect(email).toHaveAttribute('required', '')
      await email.fill('not-an-email')
      await (next === 'Password' ? page.getByLabel(next) : page.getByRole('link', { name: next })).focus()
      await expect(email).toHaveAccessibleDescription(/Wrong email format/)
      expect(errors).toEqual([])
    })
  }

  test('with scripts, a table picked before the schema has come fills its template in the browser, not through the action', async ({
    authedPage: page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'js', 'a script-only behaviour')
    const { project, table } = await createTableThroughForm(page)
    const path = `/jobs/alter-jobs/create?table=${encodeURIComponent(`${project}.${table}`)}&table_q=sample.web_logs`
    // The scripts the page lists load at once; any other (the schema, fetched after hydration) waits 3 s.
    const listed = await (await page.request.get(path)).text()
    await page.route(/\/assets\/[^?]*\.js(\?|$)/, async (route) => {
      if (!listed.includes(new URL(route.request().url()).pathname))
        await new Promise((resolve) => setTimeout(resolve, 3000))
      await route.continue()
    })
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() !== 'GET') posts.push(request.url())
    })
    await page.goto(path)
    await expect(page.getByRole('button', { name: 'Use template' })).toHaveCount(0) // hydrated
    const sql = codeField(page, testInfo, 'SQL').value
    await expect(sql).toHaveValue(`ALTER TABLE ${project}.${table} DELETE WHERE `)
    await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
    await expect(sql).toHaveValue('ALTER TABLE sample.web_logs DELETE WHERE ')
    expect(posts).toEqual([])
  })

  test('/profile/change-password: passwords that differ, the same message in the browser and from the server', async ({
    authedPage: page,
  }, testInfo) => {
    const errors = collectErrors(page)
    await page.goto('/profile/change-password')
    await page.getByLabel('Current password').fill('not-checked-here')
    await page.getByLabel('New password', { exact: true }).fill('first-new-password')
    const repeat = page.getByLabel('Repeat new password')
    await repeat.fill('second-new-password')
    if (testInfo.project.name === 'js') await page.getByLabel('Current password').focus()
    else await page.getByRole('button', { name: /change password/i }).click()
    await expect(repeat).toHaveAccessibleDescription(/Passwords do not match/)
    expect(errors).toEqual([])
  })
})
