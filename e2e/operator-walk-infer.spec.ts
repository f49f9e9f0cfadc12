import type { Page, Request } from '@playwright/test'
import { clusterCall } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * Issue 54, point 3: pressing Validate (or Publish) while "Infer columns from sample" was still
 * running left the form at its defaults (one `timestamp` column, a comma delimiter), and Publish then
 * published that transform. With scripts Validate and Publish wait for Infer (disabled while it
 * runs); without scripts the browser drops Infer's answer and posts the form as it was, so the
 * server fills the columns inferred from the sample in place of the untouched defaults.
 */

type Named = { uuid: string; name: string }
type Transform = { name: string; type: string; settings: { output_columns: { name: string }[] } }

const SAMPLE = ['ts,status,path', '2026-12-01T10:00:00Z,200,/a', '2026-12-01T10:00:01Z,404,/b'].join('\n')
const INFERRED = ['ts', 'status', 'path']

async function madeTable() {
  const project = await clusterCall<Named>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('infer_p') })
  const table = await clusterCall<Named>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: uniqueName('infer_t'),
  })
  return { project, table }
}

async function transformsOf(project: Named, table: Named): Promise<Transform[]> {
  const answer = await clusterCall<Transform[] | { results: Transform[] }>(
    'GET',
    `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`,
  )
  return Array.isArray(answer) ? answer : answer.results
}

const isInfer = (request: Request) =>
  request.method() === 'POST' && /name="intent"\r\n\r\ninfer\r\n/.test(request.postDataBuffer()?.toString() ?? '')

/**
 * Presses "Infer columns from sample", holds its post until `button` has been pressed, then lets it
 * go. The second press is a mouse click at where the button is: while a page without scripts waits
 * for its next document, Playwright cannot look into it (a locator or an evaluate hangs).
 */
async function pressWhileInferRuns(page: Page, button: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let sent!: () => void
  const held = new Promise<void>((resolve) => (sent = resolve))
  await page.route(
    (url) => url.pathname.startsWith('/data/new-transform'),
    async (route) => {
      if (!isInfer(route.request())) return route.fallback()
      sent()
      await released
      // the browser may have dropped the request meanwhile (without scripts a second submit does)
      await route.continue().catch(() => undefined)
    },
  )
  const second = page.getByRole('button', { name: button, exact: true })
  await second.scrollIntoViewIfNeeded()
  const box = (await second.boundingBox())!
  // Infer by the keyboard, so the page does not scroll away from the second button
  await page
    .getByRole('button', { name: 'Infer columns from sample' })
    .evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }))
  await page.keyboard.press('Enter')
  await held
  if (test.info().project.use.javaScriptEnabled !== false) {
    // with scripts the button waits while Infer runs, and the page says why (the page is drawn
    // again a moment after the post leaves: a click in that moment is the server's to catch, as
    // without scripts)
    await expect(second).toBeDisabled()
    await expect(page.getByRole('status').filter({ hasText: 'Inferring the columns from the sample' })).toBeVisible()
  }
  // with scripts a click on the disabled button does nothing
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  release()
}

async function openForm(page: Page) {
  const { project, table } = await madeTable()
  await page.goto(`/data/new-transform?project=${project.uuid}&table=${table.uuid}`)
  await hydrated(page)
  const name = uniqueName('inferred')
  await page.getByLabel('Transform name').fill(name)
  await page.getByLabel('Sample data (CSV with a header line, or JSON)').fill(SAMPLE)
  return { project, table, name }
}

async function expectInferred(page: Page) {
  for (const [index, column] of INFERRED.entries())
    await expect(page.getByLabel(`Column ${index + 1} name`, { exact: true })).toHaveValue(column)
  await expect(page.getByLabel('Column 4 name', { exact: true })).toHaveCount(0)
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('csv')
  await expect(page.getByLabel('Column 1 primary', { exact: true })).toBeChecked()
}

test.describe('issue 54, point 3: Infer is not lost to a Validate or Publish pressed while it runs', () => {
  test('Validate pressed while Infer runs: the inferred columns are what is validated and published', async ({
    authedPage: page,
  }) => {
    test.slow()
    const { project, table, name } = await openForm(page)
    await pressWhileInferRuns(page, 'Validate sample')

    await expectInferred(page)
    await page.getByRole('button', { name: 'Validate sample' }).click()
    await expect(page.getByRole('heading', { name: 'Validation: all 2 rows parsed' })).toBeVisible()
    await expectInferred(page)
    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByText(`Transform ${name} published`)).toBeVisible()
    const [published] = await transformsOf(project, table)
    expect(published?.type).toBe('csv')
    expect(published?.settings.output_columns.map((column) => column.name)).toEqual(INFERRED)
  })

  test('Publish pressed while Infer runs never publishes the default columns', async ({ authedPage: page }) => {
    test.slow()
    const { project, table, name } = await openForm(page)
    await pressWhileInferRuns(page, 'Publish transform')

    await expectInferred(page)
    // nothing was published from the form as it was (one `timestamp` column)
    expect(await transformsOf(project, table)).toEqual([])
    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByText(`Transform ${name} published`)).toBeVisible()
    const [published] = await transformsOf(project, table)
    expect(published?.settings.output_columns.map((column) => column.name)).toEqual(INFERRED)
  })
})
