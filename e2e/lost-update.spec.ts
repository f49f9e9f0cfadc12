import type { Browser, Page } from '@playwright/test'
import { clusterCall } from './cluster-faults'
import { ADMIN_EMAIL } from './env'
import { expect, hydrated, test, uniqueName } from './fixtures'

/**
 * Issue 50 point 5 (decision 097): two operators open the same object. The first saves a field;
 * the second's save of another value of that field is refused, naming the field, its value now and
 * who changed it, with what they typed still in the input. A change of another field merges: both
 * changes are on the cluster. With scripts and without (every save is a form post).
 */

type Made = { uuid: string }
type Json = Record<string, unknown>

/** A second operator: a browser context of their own, signed in with the same session cookie. */
async function secondOperator(browser: Browser, storageState: unknown): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    storageState: storageState as never,
  })
  return context.newPage()
}

async function makeTable() {
  const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('lu') })
  const table = await clusterCall<Made & { name: string }>(
    'POST',
    `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`,
    {
      name: uniqueName('lu_t'),
      settings: { age: { max_age_days: 30 }, reaper: { max_age_days: 2 }, max_future_days: 0 },
    },
  )
  const lifecycle = `/data/tables/${table.uuid}?project=${project.uuid}&edit=lifecycle#edit-settings`
  const stored = () =>
    clusterCall<{ settings: Json & { reaper: Json } }>(
      'GET',
      `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/`,
    )
  return { lifecycle, stored }
}

const DELAY = 'Delay before permanent deletion (days)'

test.describe('no silent lost update', () => {
  test('table settings: a field saved meanwhile is refused with its value now, the typed value kept; another field merges', async ({
    authedPage: first,
    browser,
    sessionState,
  }) => {
    const { lifecycle, stored } = await makeTable()
    const second = await secondOperator(browser, sessionState)
    const third = await secondOperator(browser, sessionState)
    for (const page of [first, second, third]) {
      await page.goto(lifecycle)
      await expect(page.getByLabel(DELAY, { exact: true })).toHaveValue('2')
      await hydrated(page)
    }

    await first.getByLabel(DELAY, { exact: true }).fill('5')
    await first.getByRole('button', { name: 'Save data lifecycle' }).click()
    await expect(first.getByText('Data lifecycle saved')).toBeVisible()

    await second.getByLabel(DELAY, { exact: true }).fill('9')
    await second.getByRole('button', { name: 'Save data lifecycle' }).click()
    await expect(
      second.getByText(new RegExp(`^Not saved: ${DELAY.replace(/[()]/g, '\\$&')} was changed by ${ADMIN_EMAIL}`)),
    ).toBeVisible()
    await expect(second.getByLabel(DELAY, { exact: true })).toHaveAccessibleDescription(/now “5”/)
    await expect(second.getByLabel(DELAY, { exact: true })).toHaveValue('9')
    expect((await stored()).settings.reaper.max_age_days).toBe(5)

    // the second operator has now seen the 5: saving again replaces it on purpose
    await second.getByRole('button', { name: 'Save data lifecycle' }).click()
    await expect(second.getByText('Data lifecycle saved')).toBeVisible()
    expect((await stored()).settings.reaper.max_age_days).toBe(9)

    // the third, opened before both, changes another field: merged
    await third.getByLabel('Max future days', { exact: true }).fill('7')
    await third.getByRole('button', { name: 'Save data lifecycle' }).click()
    await expect(third.getByText('Data lifecycle saved')).toBeVisible()
    const after = (await stored()).settings
    expect([after.reaper.max_age_days, after.max_future_days]).toEqual([9, 7])
    await second.context().close()
    await third.context().close()
  })

  test('pools: a field saved meanwhile is refused with its value now, the typed value kept; another field merges', async ({
    authedPage: first,
    browser,
    sessionState,
  }) => {
    const pool = await clusterCall<Made & { name: string }>('POST', '/config/v1/pools/', {
      name: uniqueName('lu-pool').replace(/_/g, '-'),
      description: 'as made',
      type: 'ingest',
      settings: { k8s_deployment: { service: 'stream-peer', replicas: 2, cpu: 1, memory: '2Gi', storage: '4Gi' } },
    })
    const stored = () =>
      clusterCall<Json & { settings: { k8s_deployment: Json } }>('GET', `/config/v1/pools/${pool.uuid}`)
    const second = await secondOperator(browser, sessionState)
    const third = await secondOperator(browser, sessionState)
    for (const page of [first, second, third]) {
      await page.goto(`/scale/pool/${pool.uuid}`)
      await expect(page.getByLabel('CPU', { exact: true })).toHaveValue('1')
      await hydrated(page)
    }

    await first.getByLabel('CPU', { exact: true }).fill('3')
    await first.getByRole('button', { name: 'Save changes' }).click()
    await expect(first.getByText(`Pool ${pool.name} saved`)).toBeVisible()

    await second.getByLabel('CPU', { exact: true }).fill('5')
    await second.getByRole('button', { name: 'Save changes' }).click()
    await expect(second.getByText(new RegExp(`^Not saved: CPU was changed by ${ADMIN_EMAIL}`))).toBeVisible()
    await expect(second.getByLabel('CPU', { exact: true })).toHaveAccessibleDescription(/now “3”/)
    await expect(second.getByLabel('CPU', { exact: true })).toHaveValue('5')
    expect(String((await stored()).settings.k8s_deployment.cpu)).toBe('3')

    await third.getByLabel('Description', { exact: true }).fill('third says')
    await third.getByRole('button', { name: 'Save changes' }).click()
    await expect(third.getByText(`Pool ${pool.name} saved`)).toBeVisible()
    const after = await stored()
    expect([String(after.settings.k8s_deployment.cpu), after.description]).toEqual(['3', 'third says'])
    await second.context().close()
    await third.context().close()
  })

  test('transforms: a column field saved meanwhile is refused with its value now, the typed value kept, then saved on purpose', async ({
    authedPage: first,
    browser,
    sessionState,
  }) => {
    const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('lu') })
    const table = await clusterCall<Made>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
      name: 'events',
    })
    const path = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`
    const transform = await clusterCall<Made & { name: string }>('POST', path, {
      name: 'main',
      type: 'json',
      settings: {
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'status', datatype: { type: 'string', index: true } },
        ],
      },
    })
    const typeOf = async () =>
      (
        await clusterCall<{ settings: { output_columns: { datatype: { type: string } }[] } }>(
          'GET',
          `${path}${transform.uuid}`,
        )
      ).settings.output_columns[1]!.datatype.type
    const second = await secondOperator(browser, sessionState)
    for (const page of [first, second]) {
      await page.goto(`/data/tables/${table.uuid}/transform/edit/${transform.uuid}?project=${project.uuid}`)
      await expect(page.getByLabel('Column 2 type')).toHaveValue('string')
      await hydrated(page)
    }
    await first.getByLabel('Column 2 type').selectOption('uint32')
    await first.getByRole('button', { name: 'Save transform' }).click()
    await expect(first.getByText('Transform main saved')).toBeVisible()

    await second.getByLabel('Column 2 type').selectOption('int64')
    await second.getByRole('button', { name: 'Save transform' }).click()
    await expect(
      second.getByText(new RegExp(`^Not saved: Column “status”: Type was changed by ${ADMIN_EMAIL}`)),
    ).toBeVisible()
    await expect(second.getByText(/^Changed by .* now “uint32”/)).toBeVisible()
    await expect(second.getByLabel('Column 2 type')).toHaveValue('int64')
    expect(await typeOf()).toBe('uint32')

    await second.getByRole('button', { name: 'Save transform' }).click()
    await expect(second.getByText('Transform main saved')).toBeVisible()
    expect(await typeOf()).toBe('int64')
    await second.context().close()
  })
})
