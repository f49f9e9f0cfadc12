import type { Browser, Page, TestInfo } from '@playwright/test'
import { expect, hydrated, test, uniqueName } from './fixtures'
import { clusterCall } from './cluster-faults'
import { ADMIN_EMAIL } from './env'
import { acceptInvite } from './outbox'

/** A unique email for one test run. */
const uniqueEmail = (prefix: string) => `${uniqueName(prefix).toLowerCase()}@example.com`

test.describe('security → users and invites', () => {
  test('the users list marks you and says why you cannot delete yourself', async ({ authedPage: page }) => {
    await page.goto('/security')
    await expect(page).toHaveURL(/\/security\/users$/)
    await expect(page.getByRole('heading', { level: 2, name: 'Users' })).toBeVisible()
    const me = page.getByRole('row', { name: new RegExp(ADMIN_EMAIL) })
    await expect(me.getByText('Delete not available: this is you')).toBeVisible()
    await expect(me.getByRole('link', { name: /^Delete/ })).toHaveCount(0)
  })

  test('an invite with bad input shows the rules at the fields, keeps what was typed; a good one is pending, resent, deleted', async ({
    authedPage: page,
  }) => {
    const email = uniqueEmail('invitee')
    await page.goto('/security/users')
    await page.getByRole('link', { name: 'Invite user' }).click()
    await expect(page).toHaveURL(/\/security\/users\/invite-new-user$/)
    await page.getByLabel('Email', { exact: true }).fill('not-an-email')
    await page.getByLabel('Role').selectOption({ label: 'Publisher' })
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByLabel('Email', { exact: true })).toHaveAccessibleDescription(/Wrong email format/)
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('not-an-email')
    await expect(page.getByLabel('Role')).toHaveValue('publisher')

    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Scope', { exact: true }).selectOption({ label: 'Project' })
    await page.getByLabel('Resource').selectOption({ label: 'sample' })
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page).toHaveURL(/\/security\/pending-invites$/)
    await expect(page.getByText(`Invite sent to ${email}`)).toBeVisible()
    const row = page.getByRole('row', { name: new RegExp(email) })
    await expect(row).toContainText('Publisher')
    await expect(row).toContainText('Project sample')

    await row.getByRole('button', { name: `Resend the invite to ${email}` }).click()
    await expect(page.getByText(`Invite sent again to ${email}`)).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('(2 times)')

    await page.getByRole('link', { name: `Delete the invite for ${email}` }).click()
    await expect(page.getByRole('heading', { name: `Delete the invite for ${email}?` })).toBeVisible()
    await page.getByRole('button', { name: 'Delete invite' }).click()
    await expect(page.getByText(`Invite for ${email} deleted`)).toBeVisible()
    await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0)
  })

  test('an invited user shows in Users; their roles are edited, then the user is deleted', async ({
    authedPage: page,
  }) => {
    const email = uniqueEmail('member')
    await page.goto('/security/users/invite-new-user')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Role').selectOption({ label: 'Reader' })
    await page.getByRole('button', { name: 'Send invite' }).click()
    await expect(page.getByText(`Invite sent to ${email}`)).toBeVisible()

    await page.goto(`/security/users?q=${encodeURIComponent(email)}`)
    const row = page.getByRole('row', { name: new RegExp(email) })
    await expect(row).toContainText('Invited')
    await expect(row).toContainText('Reader')
    await row.getByRole('link', { name: `Edit roles of ${email}` }).click()
    await expect(page.getByRole('heading', { level: 2, name: `Edit ${email}` })).toBeVisible()
    await expect(page.getByRole('checkbox', { name: 'Reader (built-in)', exact: true })).toBeChecked()
    await page.getByRole('checkbox', { name: 'Reader (built-in)', exact: true }).uncheck()
    await page.getByRole('checkbox', { name: 'Operator (built-in)', exact: true }).check()
    await page.getByRole('button', { name: 'Save roles' }).click()
    await expect(page).toHaveURL(/\/security\/users$/)
    await expect(page.getByText(`${email}: added Operator; removed Reader`)).toBeVisible()

    await page.goto(`/security/users?q=${encodeURIComponent(email)}`)
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Operator')
    await page.getByRole('link', { name: `Delete ${email}` }).click()
    await expect(page.getByRole('heading', { name: `Delete ${email}?` })).toBeVisible()
    await page.getByRole('button', { name: 'Delete user' }).click()
    await expect(page.getByText(`${email} deleted`)).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(email).replace(/\./g, '\\.')}`))
    await expect(page.getByText(/No users match/)).toBeVisible()
  })
})

test.describe('security → roles', () => {
  test('policies are staged (Add policy, List All, Remove) with the name kept, and published only when the role is saved', async ({
    authedPage: page,
  }) => {
    test.setTimeout(60_000) // a dozen round trips: each staging click is one
    const name = uniqueName('e2e_role')
    await page.goto('/security/roles')
    await expect(page.getByRole('row', { name: /Org admin/ })).toContainText('built-in')
    await expect(page.getByRole('link', { name: 'New role' })).toHaveAttribute('href', '/security/roles/new-role')
    // (loaded directly: after a click, getByLabel('Name', { exact: true }) could still match the list's "Filter by role name")
    await page.goto('/security/roles/new-role')

    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Description').fill('Reads the sample logs')
    // Organization level, the organization as scope (preselected): two permissions.
    await page.getByRole('checkbox', { name: 'view_table', exact: true }).check()
    await page.getByRole('checkbox', { name: 'select_sql', exact: true }).check()
    await page.getByRole('button', { name: 'Add policy' }).click()
    const staged = page.getByRole('region', { name: 'Policies' })
    await expect(staged.getByText('Organization', { exact: true })).toBeVisible()
    await expect(
      staged.getByText(/2 permissions: view_table, select_sql|2 permissions: select_sql, view_table/),
    ).toBeVisible()
    await expect(page.getByText(/Unsaved changes/)).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
    await expect(page.getByLabel('Description')).toHaveValue('Reads the sample logs')

    // A project scope with List All (view permissions only).
    await page.getByLabel('Scope level').selectOption({ label: 'Project' })
    await page.getByLabel('Scope', { exact: true }).selectOption({ label: 'sample' })
    await page.getByRole('button', { name: 'List All' }).click()
    await expect(staged.getByText('Project sample')).toBeVisible()

    // Nothing is published yet.
    await page.goto('/security/roles')
    await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0)
    // (the staged state lived in that page's form; start again: add, remove, save)
    await page.goto('/security/roles/new-role')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('button', { name: 'Add All' }).click()
    await expect(staged.getByText('Organization', { exact: true })).toBeVisible()
    await page.getByLabel('Scope level').selectOption({ label: 'Table' })
    // tables are a search away (issue 33): the search posts the form, the staged policies kept
    await page.getByRole('searchbox', { name: 'Find a table to scope to' }).fill('sample.web_logs')
    await page.getByRole('button', { name: 'Find', exact: true }).click()
    await expect(page.getByText(/matching “sample\.web_logs” offered as scopes/)).toBeVisible()
    await expect(staged.getByText('Organization', { exact: true })).toBeVisible()
    await page.getByLabel('Scope level').selectOption({ label: 'Table' })
    await page.getByLabel('Scope', { exact: true }).selectOption({ label: 'sample.web_logs' })
    await page.getByRole('button', { name: 'List All' }).click()
    await expect(staged.getByText('Table sample.web_logs')).toBeVisible()
    await page.getByRole('button', { name: 'Remove the policy on Organization' }).click()
    await expect(staged.getByText('Organization', { exact: true })).toHaveCount(0)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
    await page.getByRole('button', { name: 'Create role' }).click()

    await expect(page).toHaveURL(/\/security\/roles$/)
    await expect(page.getByText(`Role ${name} created`)).toBeVisible()
    const row = page.getByRole('row', { name: new RegExp(name) })
    await expect(row).toContainText(/Table sample\.web_logs: \d+ permissions/)

    // Edit: the saved policy is there; a rename is saved.
    await row.getByRole('link', { name }).click()
    await expect(page.getByRole('heading', { level: 2, name: `Edit role ${name}` })).toBeVisible()
    await expect(page.getByText('No unsaved policy changes.')).toBeVisible()
    await page.getByLabel('Name', { exact: true }).fill(`${name}_2`)
    await page.getByRole('button', { name: 'Save role' }).click()
    await expect(page.getByText(`Role ${name}_2 saved`)).toBeVisible()
  })

  test('the table scope is a search: with scripts it suggests as one types, past the first page; without them Find posts it', async ({
    authedPage: page,
  }, testInfo) => {
    test.setTimeout(120_000)
    const isNoJs = testInfo.project.use.javaScriptEnabled === false
    // a project of more tables than a picker lists (50): its last table is never on the first page
    const project = uniqueName('zz_scopes').toLowerCase()
    const created = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: project })
    try {
      for (let index = 0; index <= 50; index++)
        await clusterCall('POST', `/config/v1/orgs/{org}/projects/${created.uuid}/tables/`, {
          name: `t_${String(index).padStart(3, '0')}`,
        })
      await page.goto('/security/roles/new-role')
      await hydrated(page)
      const scope = page.getByLabel('Scope', { exact: true })
      const last = `${project}.t_050`
      await expect(scope.locator('option', { hasText: last })).toHaveCount(0)
      const search = page.getByRole('searchbox', { name: 'Find a table to scope to' })
      const find = async (q: string) => {
        await search.fill(q)
        // with scripts the list follows the typing; without them Find posts the form
        if (isNoJs) await page.getByRole('button', { name: 'Find', exact: true }).click()
      }
      await find(last)
      await expect(page.locator('#scope-q-status')).toHaveText(`The scope list offers 1 table matching “${last}”.`)
      await page.getByLabel('Scope level').selectOption({ label: 'Table' })
      await scope.selectOption({ label: last })
      await page.getByRole('button', { name: 'List All' }).click()
      await expect(page.getByRole('region', { name: 'Policies' }).getByText(`Table ${last}`)).toBeVisible()

      // a search that finds nothing says so; the staged table is still offered
      await find('no_such_scope_table')
      await expect(page.locator('#scope-q-status')).toHaveText('No table matches “no_such_scope_table”.')
      await expect(scope.locator('option', { hasText: `${project}.t_0` })).toHaveCount(1)
    } finally {
      await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${created.uuid}`)
    }
  })

  test('saving without policies or a name says so and keeps what was staged', async ({ authedPage: page }) => {
    await page.goto('/security/roles/new-role')
    await page.getByRole('button', { name: 'List All' }).click()
    await expect(
      page.getByRole('region', { name: 'Policies' }).getByText('Organization', { exact: true }),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Create role' }).click()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/Name is required/)
    await expect(
      page.getByRole('region', { name: 'Policies' }).getByText('Organization', { exact: true }),
    ).toBeVisible()

    await page.getByRole('button', { name: 'Remove the policy on Organization' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Policy removed' })).toBeVisible()
    // the builder keeps its choices: the organization is still the scope
    await expect(page.getByLabel('Scope', { exact: true }).locator('option:checked')).toHaveText('This organization')
    await page.getByLabel('Name', { exact: true }).fill('no_policies')
    await page.getByRole('button', { name: 'Create role' }).click()
    await expect(page.getByText('Permissions are required')).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('no_policies')
  })

  test('a built-in role is shown read-only', async ({ authedPage: page }) => {
    await page.goto('/security/roles')
    await page.getByRole('link', { name: 'Reader', exact: true }).click()
    await expect(page.getByText('Built-in roles cannot be changed; create a custom role instead.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Save role' })).toHaveCount(0)
  })
})

/**
 * Invites `email` with `role` as the admin, takes the set-password link from the local cluster's
 * outbox (it has no mail server), sets a password and signs in, in a fresh context
 * with the project's scripts setting. Returns the signed-in page.
 */
async function signInInvited(admin: Page, browser: Browser, testInfo: TestInfo, email: string, role: string) {
  await admin.goto('/security/users/invite-new-user')
  await admin.getByLabel('Email', { exact: true }).fill(email)
  await admin.getByLabel('Role').selectOption({ label: role })
  await admin.getByRole('button', { name: 'Send invite' }).click()
  await expect(admin.getByText(`Invite sent to ${email}`)).toBeVisible()

  // the link is in the local cluster's outbox (its operator's file), never in its logs (issue 49)
  return acceptInvite(browser, testInfo, email, 'invited-password-1')
}

test.describe('security → walks as other roles (permission-aware pages)', () => {
  // Each walk invites a user, signs them in and visits a dozen pages: 20-30 s on a quiet machine.
  test.slow()
  test('an invited operator is offered no change they cannot make, each with the reason', async ({
    authedPage: page,
    browser,
  }, testInfo) => {
    const email = uniqueEmail('operator')
    const operator = await signInInvited(page, browser, testInfo, email, 'Operator')

    await operator.goto('/security/users')
    await expect(operator.getByRole('button', { name: 'Invite user' })).toBeDisabled()
    await expect(operator.getByRole('button', { name: 'Invite user' })).toHaveAccessibleDescription('Needs add_invite')
    const me = operator.getByRole('row', { name: new RegExp(email) })
    await expect(me.getByText('Delete: needs delete_user')).toBeVisible()
    await expect(operator.getByRole('link', { name: /^Delete/ })).toHaveCount(0)

    await operator.getByRole('link', { name: `Roles of ${email}` }).click()
    await expect(operator.getByText('Needs change_user: ask an org admin.')).toBeVisible()
    await expect(operator.getByRole('button', { name: 'Save roles' })).toHaveCount(0)
    await expect(operator.getByRole('region', { name: 'Effective permissions' })).toContainText(
      /Organization: \d+ permissions/,
    )

    await operator.goto('/security/roles')
    await expect(operator.getByRole('button', { name: 'New role' })).toBeDisabled()
    await operator.goto('/security/users/invite-new-user')
    await expect(operator.getByText('Needs add_invite: ask an org admin.')).toBeVisible()
    await expect(operator.getByRole('button', { name: 'Send invite' })).toHaveCount(0)
    await operator.context().close()
  })

  test("a reader's Security tabs say the cluster's refusal inside the page, never a 500", async ({
    authedPage: page,
    browser,
  }, testInfo) => {
    const reader = await signInInvited(page, browser, testInfo, uniqueEmail('reader'), 'Reader')
    for (const [path, title] of [
      ['/security/users', 'The users could not be loaded'],
      ['/security/roles', 'The roles could not be loaded'],
      ['/security/pending-invites', 'The invites could not be loaded'],
    ] as const) {
      const answer = await reader.goto(path)
      expect(answer?.status()).toBe(403)
      await expect(reader.getByRole('heading', { name: title })).toBeVisible()
      await expect(reader.getByText(/permission/i).first()).toBeVisible()
      // the section's tabs stay, so the reader can go elsewhere
      await expect(reader.getByRole('navigation', { name: 'Security areas' })).toBeVisible()
    }
    // nothing offers what the cluster would refuse: no creation menu, and New table disabled with the permission named
    await reader.goto('/data/tables')
    await expect(reader.getByRole('button', { name: '+ add new' })).toHaveCount(0)
    await expect(reader.getByRole('button', { name: 'New table' })).toBeDisabled()
    await expect(reader.getByText('Needs add_table', { exact: true })).toBeVisible()
    await expect(reader.getByRole('link', { name: 'New table' })).toHaveCount(0)
    await expect(reader.getByRole('button', { name: 'New project' })).toBeDisabled()
    // a table's page: rename, truncate, delete and each settings Edit are disabled with the permission and the table named
    await reader.goto('/data/tables?q=web_logs')
    // straight to its address (a click while the list hydrates can be lost; the click itself is tested in tables.spec)
    await reader.goto((await reader.getByRole('link', { name: 'web_logs', exact: true }).getAttribute('href'))!)
    await expect(reader.getByRole('heading', { level: 1, name: /web_logs/ })).toBeVisible()
    for (const name of ['Rename…', 'Truncate…', 'Delete table…']) {
      await expect(reader.getByRole('button', { name })).toBeDisabled()
      await expect(reader.getByRole('link', { name })).toHaveCount(0)
    }
    await expect(reader.getByText('Needs delete_table on table sample.web_logs', { exact: true })).toBeVisible()
    await expect(reader.getByRole('link', { name: /^Edit / })).toHaveCount(0)
    // the step opened by its URL says why and offers no confirm
    await reader.goto(
      `${new URL(reader.url()).pathname}${new URL(reader.url()).search}&delete=${new URL(reader.url()).pathname.split('/').pop()}`,
    )
    await expect(reader.getByRole('button', { name: 'Delete table', exact: true })).toBeDisabled()
    await expect(reader.getByRole('textbox', { name: /FORCE/ })).toHaveCount(0)
    // jobs: Purge is disabled, the list says what is not offered
    await reader.goto('/jobs/alter-jobs')
    await expect(reader.getByRole('button', { name: 'Purge finished jobs…' })).toBeDisabled()
    await expect(reader.getByText(/Not offered to you: .*delete \(Needs delete_alterjob\)/)).toBeVisible()
    await reader.context().close()
  })
})
