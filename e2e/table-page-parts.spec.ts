import { clusterCall } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * The table page (issue 54): a project-scoped user's own table page shows what the role allows and
 * marks each part it may not read (point 6; decision 107), and the data part's times are in the user's timezone
 * preference, labelled (the smaller point). Both with and without scripts: the page is server HTML.
 */

/** A project of its own with one table (`ts` primary, `kind`) holding `rows`, made through the API. */
async function projectWithTable(rows: { ts: string; kind: string }[]) {
  const project = await clusterCall<{ uuid: string; name: string }>('POST', '/config/v1/orgs/{org}/projects/', {
    name: uniqueName('parts'),
  })
  const name = uniqueName('events')
  const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name,
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: `${name}_json`,
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'kind', datatype: { type: 'string' } },
      ],
    },
  })
  await clusterCall('POST', '/ingest/event', rows, { 'x-hdx-table': `${project.name}.${name}` })
  return { project, table: { uuid: table.uuid, name }, path: `/data/tables/${table.uuid}?project=${project.uuid}` }
}

test('a user whose role reads one project’s table and rows, nothing more, gets the page with each other part marked', async ({
  browser,
}, testInfo) => {
  const now = new Date().toISOString().slice(0, 19) + 'Z'
  const made = await projectWithTable([{ ts: now, kind: 'scoped-row' }])
  const role = uniqueName('rows_only')
  await clusterCall('POST', '/config/v1/roles/', {
    name: role,
    policies: [
      { permissions: ['view_project', 'view_table', 'select_sql'], scope_type: 'project', scope_id: made.project.uuid },
    ],
  })
  const email = `${role}@console.test`
  const password = 'a-long-password-1'
  await clusterCall('POST', '/config/v1/users/', { email, password, roles: [role] })
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL('**/dashboard')

  const response = await page.goto(made.path)
  expect(response?.status()).toBe(200)
  await hydrated(page)
  await expect(page.getByRole('heading', { level: 1, name: made.table.name })).toBeVisible()
  // what the role allows: the details and the rows
  await expect(page.getByRole('region', { name: 'Details' }).getByText(made.table.uuid)).toBeVisible()
  const rows = page.getByRole('table', { name: /Rows of the table, newest first/ })
  await expect(rows.getByRole('cell', { name: 'scoped-row' })).toBeVisible()
  // and each part it may not read, marked in its own place
  for (const [part, what] of [
    ['Statistics', 'the statistics of this table'],
    ['Transforms', 'the transforms of this table'],
    ['Views', 'the views of this table'],
    ['Ingest sources', 'the ingest sources of this table'],
  ] as const) {
    await expect(
      page.getByRole('region', { name: part, exact: true }).getByText(`You do not have permission to view ${what}.`),
      part,
    ).toBeVisible()
  }
  await context.close()
})

test('the data part shows its rows, arrival labels and figures window in the timezone preference', async ({
  authedPage: page,
}) => {
  const now = new Date().toISOString().slice(0, 19) + 'Z'
  const made = await projectWithTable([
    { ts: now, kind: 'arrived' },
    { ts: '2026-01-15T06:30:00Z', kind: 'older' },
  ])
  await page.goto('/profile/settings')
  await page.getByLabel('Timezone', { exact: true }).selectOption('Asia/Tokyo')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  await page.goto(`${made.path}&data_column=ts&data_window=1h`)
  await hydrated(page)
  // a row's primary timestamp, 06:30 UTC, in Tokyo (UTC+9), in the engine's layout and labelled
  const rows = page.getByRole('table', { name: /Rows of the table, newest first/ })
  await expect(rows.getByRole('rowheader', { name: '2026-01-15 15:30:00.000 GMT+9' })).toBeVisible()
  await expect(rows.locator('time[datetime="2026-01-15T06:30:00.000Z"]')).toHaveCount(1)
  // the arrival bars' labels are Tokyo's clock, and nothing says UTC
  const arrival = page.getByRole('region', { name: 'Is data arriving?' })
  await expect(arrival.getByText(/^\d\d:\d\d GMT\+9$/).first()).toBeVisible()
  await expect(arrival.getByText(/^\d\d-\d\d \d\d:\d\d GMT\+9$/).first()).toBeVisible()
  await expect(arrival).not.toContainText('UTC')
  // the figures' window starts an hour ago, in Tokyo's clock
  const figures = page.getByRole('region', { name: /Figures of ts/ })
  await expect(
    figures.getByText(/primary timestamp is from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} GMT\+9/),
  ).toBeVisible()
})
