import { clusterCall } from './cluster-faults'
import { expect, test, uniqueName } from './fixtures'
import { acceptInvite } from './outbox'
import type { Page } from '@playwright/test'

/*
 * Issue 54 (smaller point): a restricted user's dashboard showed the org's counts. A Reader invited
 * to one project (as the invite form's Scope Project makes one) sees that project's tables on its
 * dashboard, not the org's, and no Users or Roles cards (it may not list them). Both with and
 * without scripts: the dashboard is server HTML.
 */

/** A dashboard card's figure, by its label ("Tables"), in the Resources group. */
const card = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Resources' })
    .getByRole('listitem')
    .filter({ has: page.locator('[data-label]', { hasText: new RegExp(`^${label}$`) }) })

test("a Reader of one project sees its project's table count on the dashboard, not the org's", async ({
  browser,
}, testInfo) => {
  // an invite, a password set and a sign-in: about 10 s on a quiet machine
  test.slow()
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', {
    name: uniqueName('scoped'),
  })
  for (const name of ['first', 'second'])
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, { name: uniqueName(name) })
  const org = await clusterCall<{ tables: number; projects: number }>('GET', '/config/v1/orgs/{org}/summary')
  // the org holds more (the sample and what other specs made): the figure below is the project's
  expect(org.tables).toBeGreaterThan(2)
  expect(org.projects).toBeGreaterThan(1)

  const email = `${uniqueName('reader')}@console.test`.toLowerCase()
  await clusterCall('POST', '/config/v1/invites/', {
    email,
    roles: ['reader'],
    scope_type: 'project',
    scope_id: project.uuid,
  })
  const page = await acceptInvite(browser, testInfo, email, 'reader-password-54')

  await expect(card(page, 'Tables').locator('[data-value]')).toHaveText('2')
  await expect(card(page, 'Projects').locator('[data-value]')).toHaveText('1')
  // what a Reader may not list has no card (its users/ and roles/ answer 403), rather than a 0
  await expect(card(page, 'Users')).toHaveCount(0)
  await expect(card(page, 'Roles')).toHaveCount(0)
  await page.context().close()
})
