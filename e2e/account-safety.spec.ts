import type { Browser, TestInfo } from '@playwright/test'
import { expect, findTable, hydrated, logIn, test, uniqueName } from './fixtures'
import { clusterCall } from './cluster-faults'
import { ADMIN_PASSWORD } from './env'
import { refreshUntil, withJobsLock } from './jobs-helpers'
import { E2E_CLUSTER_DATA_DIR, mailsTo, nextLinkTo } from './outbox'

/**
 * Issue 49 in the browser, as an attacker with a low-privileged account would try it on the console
 * as `npm start` gives it (the local cluster): read an admin's reset link from the logs, load the
 * cluster's own files through a batch job, keep a session going after its password changed.
 */

const PASSWORD = 'account-safety-password-1'

/** A user of the e2e org with `role`, made through the cluster's API as another tool would. */
async function userWith(role: string, prefix: string): Promise<string> {
  const email = `${uniqueName(prefix).toLowerCase()}@example.com`
  await clusterCall('POST', '/config/v1/users', { email, password: PASSWORD, roles: [role] })
  return email
}

/** A fresh context with the project's scripts setting, signed in as `email`. */
async function signedIn(browser: Browser, testInfo: TestInfo, email: string, password = PASSWORD) {
  const { baseURL, javaScriptEnabled } = testInfo.project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await page.goto('/login')
  await logIn(page, email, password)
  await page.waitForURL('**/dashboard')
  return page
}

test.describe('account safety (issue 49)', () => {
  test("a reader cannot read an admin's reset link: not in System Health → Logs, not through a query", async ({
    browser,
  }, testInfo) => {
    const admin = await userWith('super_admin', 'victim_admin')
    const reader = await signedIn(browser, testInfo, await userWith('reader', 'curious_reader'))

    // the attacker asks for the admin's reset, without a session
    const anonymous = await (await browser.newContext({ ...testInfo.project.use })).newPage()
    await anonymous.goto('/password-reset')
    await anonymous.getByLabel('Email').fill(admin)
    await anonymous.getByRole('button', { name: 'Send recovery email' }).click()
    const link = await nextLinkTo(admin) // the mail is in the operator's outbox
    const token = link.split('/').at(-1)!

    await reader.goto(`/system-health/logs?q=${encodeURIComponent(`password reset requested for ${admin}`)}`)
    await expect(reader.getByText(`password reset requested for ${admin}`).first()).toBeVisible()
    expect(await reader.content()).not.toContain(token)
    expect(await reader.content()).not.toContain('/verifyaccount/')

    await reader.goto(
      `/result?sql=${encodeURIComponent(
        "SELECT message FROM hydro.logs WHERE message LIKE '%verifyaccount%' OR message LIKE '%" + token + "%'",
      )}`,
    )
    await expect(reader.getByText('Nothing was found for the current query')).toBeVisible()
    expect(await reader.content()).not.toContain(`/verifyaccount/`)
    await reader.context().close()
    await anonymous.context().close()
  })

  test("a batch job cannot load the cluster's own files (admin password, signing key)", async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000)
    const operator = await signedIn(browser, testInfo, await userWith('operator', 'batch_operator'))
    await withJobsLock(async () => {
      const name = uniqueName('e2e_loot')
      await operator.goto('/jobs/batch-jobs/create')
      await findTable(operator, 'sample.web_logs')
      await hydrated(operator)
      await operator.getByLabel('Name', { exact: true }).fill(name)
      await operator.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
      await operator.getByLabel('Transform', { exact: true }).selectOption('sample.web_logs:web_logs_json')
      await operator.getByLabel('URL', { exact: true }).fill(`file://${E2E_CLUSTER_DATA_DIR}/admin.json`)
      // a dry run: before the fix it read the file; it must not load rows other specs count either way
      await operator.getByText('Advanced options').click()
      await operator.getByLabel('Dry run', { exact: true }).check()
      await operator.getByRole('button', { name: 'Create batch job' }).click()
      const panel = operator.getByRole('region', { name: `Batch job ${name}` })
      await refreshUntil(operator, panel.getByText(/read only from the cluster's import directory/))
      await expect(panel.locator('[data-status]').first()).toHaveText('failed')
      const html = await operator.content()
      expect(html).not.toContain(ADMIN_PASSWORD)
      expect(html).not.toMatch(/"password"\s*:/)
    })
    await operator.context().close()
  })

  test("a new password ends the user's other sessions; the one that changed it goes on", async ({
    browser,
  }, testInfo) => {
    const email = await userWith('reader', 'changer')
    const mine = await signedIn(browser, testInfo, email)
    const stolen = await signedIn(browser, testInfo, email) // a copy elsewhere (another device, a stolen cookie)
    const next = 'account-safety-password-2'
    await mine.goto('/profile/change-password')
    await mine.getByLabel('Current password').fill(PASSWORD)
    await mine.getByLabel('New password', { exact: true }).fill(next)
    await mine.getByLabel('Repeat new password').fill(next)
    await mine.getByRole('button', { name: /change password/i }).click()
    await expect(mine.getByText('Your password has been changed.')).toBeVisible()

    await stolen.goto('/dashboard')
    await expect(stolen).toHaveURL(/\/login/)
    await mine.goto('/dashboard')
    await expect(mine).toHaveURL(/\/dashboard$/)
    expect(mailsTo(email)).toHaveLength(0)
    await mine.context().close()
    await stolen.context().close()
  })
})
