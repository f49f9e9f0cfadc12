import { E2E_CLUSTER_PORT } from './env'
import { expect, test, uniqueName } from './fixtures'
import { acceptInvite } from './outbox'
import { typeSql } from './query-editor'

/**
 * Decision 105 (issue 54 point 7): the console keeps saved queries and history with its own store
 * account, so a user with fewer rights than an admin (a Reader of one project, invited as the invite
 * form's Scope Project makes one) saves a query and sees it without any right on the store, and
 * never sees another user's private query.
 */

/** The admin's cluster token and org (the local cluster, over HTTP as the console reaches it). */
async function adminOnCluster() {
  const base = `http://127.0.0.1:${E2E_CLUSTER_PORT}/config/v1`
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = await import('./env')
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const body = (await login.json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
  const headers = { Authorization: `Bearer ${body.auth_token.access_token}`, 'Content-Type': 'application/json' }
  return { base, headers, org: body.orgs[0]!.uuid }
}

test('a Reader of one project saves a query and sees it, and not the private query another user saved', async ({
  authedPage: admin,
  browser,
}, testInfo) => {
  // an invite, a password set and a sign-in, then two saves: about 15 s on a quiet machine
  test.slow()
  const adminOnly = uniqueName('Admin only')
  await admin.goto('/queries')
  await typeSql(admin, testInfo, `SELECT 1 AS admin_only -- ${adminOnly}`)
  await admin.getByText('Save…').click()
  await admin.getByLabel('Name', { exact: true }).fill(adminOnly)
  await admin.getByRole('button', { name: 'Save query' }).click()
  await expect(admin).toHaveURL(/\/queries\?saved=[0-9a-f-]{36}$/)
  const adminLink = new URL(admin.url()).search

  // a Reader of the sample project only, as the invite form's Scope Project makes one
  const { base, headers, org } = await adminOnCluster()
  const projects = (await (await fetch(`${base}/orgs/${org}/projects/?name=sample`, { headers })).json()) as {
    results: { uuid: string }[]
  }
  const email = `${uniqueName('reader')}@console.test`.toLowerCase()
  const invited = await fetch(`${base}/invites/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, org, roles: ['reader'], scope_type: 'project', scope_id: projects.results[0]!.uuid }),
  })
  expect(invited.status).toBe(201)
  const page = await acceptInvite(browser, testInfo, email, 'reader-password-105')

  const mine = uniqueName('Reader own')
  await page.goto('/queries')
  await typeSql(page, testInfo, `SELECT count() FROM sample.web_logs -- ${mine}`)
  await page.getByText('Save…').click()
  await page.getByLabel('Name', { exact: true }).fill(mine)
  await page.getByRole('button', { name: 'Save query' }).click()
  await expect(page).toHaveURL(/\/queries\?saved=[0-9a-f-]{36}$/)
  await expect(page.getByText(`Query saved as “${mine}”`)).toBeVisible()

  await page.getByRole('navigation', { name: 'Query' }).getByRole('link', { name: 'Saved' }).click()
  await expect(page).toHaveURL(/\/queries\/saved$/)
  const table = page.getByRole('table', { name: 'Saved queries' })
  await expect(table.getByRole('rowheader', { name: mine })).toBeVisible()
  await expect(table.getByRole('row', { name: new RegExp(mine) })).toContainText('Only you')
  await expect(table.getByRole('rowheader', { name: adminOnly })).toHaveCount(0)
  // the admin's link, opened by the Reader: not found
  await page.goto(`/queries${adminLink}`)
  await expect(page.getByText(/This saved query was not found/)).toBeVisible()

  // and the admin does not see the Reader's
  await admin.goto(`/queries/saved?q=${encodeURIComponent(mine)}`)
  await expect(admin.getByText(`No saved query has “${mine}” in its name.`)).toBeVisible()
  await page.context().close()
})
