import type { Page } from '@playwright/test'
import { clusterCall, holdingFaultLock, setFault } from './cluster-faults'
import { expect, newSession, test, uniqueName } from './fixtures'

/**
 * The spec's error catalogue (section 8) as a user sees it, with the local cluster's fault switch
 * (cluster/README.md): on a list, a detail page and a form, each row's message shows in the page's
 * own error panel while the shell (sidebar, header) stays, and the next link works. A 401 ends the
 * session and login comes back to the page. The 300 s time-out is left to the vitest matrix
 * (app/routes/_console+/error-catalogue.test.ts), which also covers every row against the handler.
 */
const SUPPORT = 'Internal server error. If this is reoccurring, please contact us at support@hydrolix.io'

type Fault = { status?: number; body?: unknown; raw?: boolean; drop?: boolean }
type Row = { name: string; fault: Fault; message: string }

const ROWS: Row[] = [
  {
    name: '403',
    fault: { status: 403, body: { detail: 'You do not have permission to perform this action.' } },
    message: 'You do not have permission to perform this action.',
  },
  { name: '404', fault: { status: 404, body: { detail: 'Not found.' } }, message: '404 Error: Not Found.' },
  {
    name: '409',
    fault: { status: 409, body: { detail: 'A job is already running on this table.' } },
    message: 'A job is already running on this table.',
  },
  {
    name: '429',
    fault: { status: 429, body: { detail: 'Request was throttled.' } },
    message: 'Request was throttled.',
  },
  { name: '500', fault: { status: 500, body: { detail: 'boom' } }, message: SUPPORT },
  { name: '502', fault: { status: 502, body: {} }, message: 'Bad Gateway.' },
  { name: '503', fault: { status: 503, body: {} }, message: 'Service Unavailable.' },
  {
    name: 'dropped connection',
    fault: { drop: true },
    message: "API unavailable at the moment, we'll be back shortly.",
  },
  { name: 'bad JSON', fault: { status: 200, body: '{"results": [', raw: true }, message: 'Bad Gateway.' },
]

/** Runs `run` with `fault` set, holding the fault switch (the js and no-js workers take turns). */
function withFault<T>(fault: Fault & { path: string; method?: string }, run: () => Promise<T>): Promise<T> {
  return holdingFaultLock(async () => {
    await setFault(fault)
    return run()
  })
}

/** The page around the error is there: the shell's navigation, with a link that loads (`follow`). */
async function shellStillWorks(page: Page, { follow = false } = {}) {
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav).toBeVisible()
  if (!follow) return
  await nav.getByRole('link', { name: 'Dashboard' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 20_000 })
}

test.describe('the error catalogue on a list, a detail page and a form', () => {
  test.describe.configure({ timeout: 240_000 })
  let userId = ''
  let projectId = ''

  test.beforeAll(async ({}, testInfo) => {
    const user = await clusterCall<{ uuid: string }>('POST', '/config/v1/users/', {
      email: `${uniqueName('catalogue')}-${testInfo.project.name}@example.com`.toLowerCase(),
      password: 'a-long-password-1',
      roles: ['reader'],
    })
    userId = user.uuid
    // a project of this run's own: the form's faults name it, so another worker's table writes (the
    // fault switch is the whole cluster's) never meet them (they failed a summary table and a setup
    // call of first-day.spec.ts when they matched every project)
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', {
      name: uniqueName('catalogue_p').toLowerCase(),
    })
    projectId = project.uuid
  })

  test('a list (/data/tables) shows each row in its panel, and a 401 goes to login', async ({ authedPage: page }) => {
    // The project list an earlier test read may still be in the session's 5 s read cache.
    await newSession(page)
    const fault = { path: '^/config/v1/orgs/[^/]+/projects/?$', method: 'GET' }
    for (const [index, row] of ROWS.entries()) {
      await withFault({ ...fault, ...row.fault }, async () => {
        await page.goto('/data/tables')
        await expect(
          page.getByRole('alert').filter({ hasText: 'The tables could not be loaded' }),
          row.name,
        ).toContainText(row.message)
      })
      await shellStillWorks(page, { follow: index === ROWS.length - 1 })
    }
    await withFault({ ...fault, status: 401, body: { detail: 'Token expired.' } }, async () => {
      await page.goto('/data/tables?page=1')
      await expect(page).toHaveURL(/\/login\?prevUrl=%2Fdata%2Ftables%3Fpage%3D1$/)
    })
  })

  test('a detail page (a user) shows each row in its panel, and a 401 goes to login', async ({ authedPage: page }) => {
    const fault = { path: `^/config/v1/users/${userId}/?$`, method: 'GET' }
    for (const [index, row] of ROWS.entries()) {
      await withFault({ ...fault, ...row.fault }, async () => {
        await page.goto(`/security/users/${userId}/edit-user`)
        await expect(
          page.getByRole('alert').filter({ hasText: 'The user could not be shown' }),
          row.name,
        ).toContainText(row.message)
      })
      await shellStillWorks(page, { follow: index === ROWS.length - 1 })
    }
    await withFault({ ...fault, status: 401, body: { detail: 'Token expired.' } }, async () => {
      await page.goto(`/security/users/${userId}/edit-user`)
      await expect(page).toHaveURL(new RegExp(`/login\\?prevUrl=%2Fsecurity%2Fusers%2F${userId}%2Fedit-user$`))
    })
  })

  test('a form (new table) shows field errors on its fields, other errors at the top as typed; a 401 goes to login', async ({
    authedPage: page,
  }) => {
    const fault = { path: `^/config/v1/orgs/[^/]+/projects/${projectId}/tables/?$`, method: 'POST' }
    const send = async () => {
      await page.goto(`/data/new-table?project=${projectId}`)
      await page.getByLabel('Table name').fill(uniqueName('catalogue'))
      await page.getByRole('button', { name: 'Create table' }).click()
    }
    await withFault(
      {
        ...fault,
        status: 400,
        body: { name: ['The cluster refuses this name.'], non_field_errors: ['Check the table.'] },
      },
      async () => {
        await send()
        await expect(page.getByText('The cluster refuses this name.')).toBeVisible()
        await expect(page.getByText('Check the table.')).toBeVisible()
        await expect(page.getByLabel('Table name')).toHaveValue(/^catalogue_/)
      },
    )
    // every other row: the catalogue's message at the top of the form, focused, what was typed kept (issue 37)
    for (const [index, row] of ROWS.entries()) {
      await withFault({ ...fault, ...row.fault }, async () => {
        await send()
        const alert = page.getByRole('alert').filter({ hasText: row.message })
        await expect(alert, row.name).toBeVisible()
        await expect(alert, row.name).toBeFocused()
        await expect(page.getByLabel('Table name'), row.name).toHaveValue(/^catalogue_/)
      })
      await shellStillWorks(page, { follow: index === ROWS.length - 1 })
    }
    await withFault({ ...fault, status: 401, body: { detail: 'Token expired.' } }, async () => {
      await send()
      await expect(page).toHaveURL(new RegExp(`/login\\?prevUrl=%2Fdata%2Fnew-table%3Fproject%3D${projectId}$`))
    })
  })
})
