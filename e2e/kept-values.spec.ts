import { clearFaults, clusterCall, holdingFaultLock, setFault } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * Decision 103: with scripts, the browser's check keeps what the action keeps. Each object is made
 * through the cluster's API holding a value the form's own rule refuses; its edit page, saved with
 * another field changed, keeps that value. Before, with scripts, the browser refused the save.
 *
 * The local cluster enforces the forms' own limits for a bucket's and a view's name (63) and a
 * summary's SQL (required), so it cannot store those values; another tool or a newer cluster may.
 * For them the cluster's fault switch answers the object's read as such a cluster would hold it.
 */

/** A GET of `path` (a regular expression) answered with `body` as stored, until the faults are cleared. */
const storedAs = (path: string, body: unknown) => setFault({ path, method: 'GET', status: 200, body })
const LONG_NAME = 'n'.repeat(70)

type Made = { uuid: string; name: string }

test.describe('a stored value the form refuses, left unchanged, does not block a save', () => {
  test('pool: shards 0 and a memory in millibytes stay as stored when the description changes', async ({
    authedPage: page,
  }) => {
    // the cluster does not check shards and takes "m" quantities; the form asks for 1 or more, and bytes
    const pool = await clusterCall<Made>('POST', '/config/v1/pools/', {
      name: uniqueName('kept-pool').replace(/_/g, '-'),
      description: 'as made',
      type: 'ingest',
      settings: {
        k8s_deployment: { service: 'stream-peer', replicas: 1, cpu: 1, memory: '1500m', storage: '1Gi', shards: 0 },
      },
    })
    await page.goto(`/scale/pool/${pool.uuid}`)
    await expect(page.getByLabel('Memory', { exact: true })).toHaveValue('1500m')
    await hydrated(page)
    await page.getByLabel('Description', { exact: true }).fill('changed here')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText(`Pool ${pool.name} saved`)).toBeVisible()
    const stored = await clusterCall<{ description: string; settings: { k8s_deployment: Record<string, unknown> } }>(
      'GET',
      `/config/v1/pools/${pool.uuid}`,
    )
    expect(stored.description).toBe('changed here')
    expect(stored.settings.k8s_deployment).toMatchObject({ memory: '1500m', shards: 0 })
  })

  test('credential: a required detail stored blank (a space) stays as stored when the description changes', async ({
    authedPage: page,
  }) => {
    // the cluster takes " " for a required detail; the form's rule trims it and asks for one
    const credential = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/credentials/', {
      name: uniqueName('kept-cred'),
      description: '',
      type: 'aws_role',
      details: { role_arn: ' ' },
    })
    await page.goto(`/security/credentials/${credential.uuid}`)
    await hydrated(page)
    await page.getByLabel('Description', { exact: true }).fill('changed here')
    await page.getByRole('button', { name: 'Save credential' }).click()
    await expect(page.getByText(`Credential ${credential.name} saved`)).toBeVisible()
    const stored = await clusterCall<{ description: string; details: Record<string, unknown> }>(
      'GET',
      `/config/v1/orgs/{org}/credentials/${credential.uuid}`,
    )
    expect(stored.description).toBe('changed here')
    expect(stored.details.role_arn).toBe(' ')
  })

  test('bucket: a name longer than the form allows stays as stored when the description changes', async ({
    authedPage: page,
  }) => {
    const made = await clusterCall<Made & Record<string, unknown>>('POST', '/config/v1/orgs/{org}/storages/', {
      name: uniqueName('kept-bucket').replace(/_/g, '-'),
      description: 'as made',
      settings: { bucket_name: 'kept-data', cloud: 'aws', region: 'us-east-1' },
    })
    const bucket = await clusterCall<Record<string, unknown>>('GET', `/config/v1/orgs/{org}/storages/${made.uuid}`)
    await holdingFaultLock(async () => {
      // the save PATCHes only the description, so the read may stay as another cluster holds it
      await storedAs(`^/config/v1/orgs/[^/]+/storages/${made.uuid}/?$`, { ...bucket, name: LONG_NAME })
      await page.goto(`/security/buckets/${made.uuid}`)
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue(LONG_NAME)
      await hydrated(page)
      await page.getByLabel('Description', { exact: true }).fill('changed here')
      await page.getByRole('button', { name: 'Save bucket' }).click()
      await expect(page.getByText(`Bucket ${made.name} saved`)).toBeVisible()
      await expect(page.getByText('Name must be under 64 symbols')).toHaveCount(0)
    })
    const stored = await clusterCall<Made & { description: string }>(
      'GET',
      `/config/v1/orgs/{org}/storages/${made.uuid}`,
    )
    expect(stored).toMatchObject({ name: made.name, description: 'changed here' })
  })

  test('view: a name longer than the form allows stays as stored when the description changes', async ({
    authedPage: page,
  }) => {
    const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('kept_p') })
    const tables = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`
    const table = await clusterCall<Made>('POST', tables, { name: uniqueName('kept_t') })
    const columns = [
      { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
      { name: 'message', datatype: { type: 'string' } },
    ]
    await clusterCall('POST', `${tables}${table.uuid}/transforms/`, {
      name: 'kept_json',
      type: 'json',
      settings: { is_default: true, output_columns: columns },
    })
    const views = `${tables}${table.uuid}/views/`
    const made = await clusterCall<Made>('POST', views, {
      name: uniqueName('kept_view'),
      description: 'as made',
      settings: { is_default: false, output_columns: columns },
    })
    const view = await clusterCall<Record<string, unknown>>('GET', `${views}${made.uuid}`)
    await holdingFaultLock(async () => {
      // the save PATCHes only the description, so the read may stay as another cluster holds it
      await storedAs(`^/config/v1/orgs/[^/]+/projects/[^/]+/tables/[^/]+/views/${made.uuid}/?$`, {
        ...view,
        name: LONG_NAME,
      })
      await page.goto(`/data/tables/${table.uuid}/view/edit/${made.uuid}?project=${project.uuid}`)
      await expect(page.getByLabel('View name')).toHaveValue(LONG_NAME)
      await hydrated(page)
      await page.getByLabel('Description', { exact: true }).fill('changed here')
      await page.getByRole('button', { name: 'Save view' }).click()
      await expect(page.getByText(`View ${made.name} saved`)).toBeVisible()
    })
    const stored = await clusterCall<Made & { description: string }>('GET', `${views}${made.uuid}`)
    expect(stored).toMatchObject({ name: made.name, description: 'changed here' })
  })

  test('summary: an SQL stored blank stays as stored when the table is disabled', async ({ authedPage: page }) => {
    const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('kept_s') })
    const tables = `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`
    const source = await clusterCall<Made>('POST', tables, { name: uniqueName('raw') })
    await clusterCall('POST', `${tables}${source.uuid}/transforms/`, {
      name: 'raw_json',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'message', datatype: { type: 'string' } },
        ],
      },
    })
    const sql = `SELECT toStartOfMinute(timestamp) AS timestamp, count() AS n FROM ${project.name}.${source.name} GROUP BY timestamp`
    const made = await clusterCall<Made>('POST', tables, {
      name: uniqueName('kept_sum'),
      type: 'summary',
      settings: { summary: { sql } },
    })
    type Summary = { settings: { summary: { sql: string; enabled?: boolean } } }
    const summary = await clusterCall<Summary & Record<string, unknown>>('GET', `${tables}${made.uuid}`)
    await holdingFaultLock(async () => {
      await storedAs(`^/config/v1/orgs/[^/]+/projects/[^/]+/tables/${made.uuid}/?$`, {
        ...summary,
        settings: { ...summary.settings, summary: { ...summary.settings.summary, sql: '' } },
      })
      await page.goto(`/data/tables/${made.uuid}/edit-summary-settings?project=${project.uuid}`)
      await expect(page.getByLabel('Summary enabled')).toBeChecked()
      await hydrated(page)
      // This save reads the table again and PUTs it whole: a read still faulted would send the blank
      // SQL back, which the local cluster refuses. The page was rendered from the blank SQL, which is
      // what the browser's check sees; the action's read then finds the SQL as stored, and keeps it.
      await clearFaults()
      await page.getByLabel('Summary enabled').uncheck()
      await page.getByRole('button', { name: 'Save summary settings' }).click()
      await expect(page.getByText(`Summary settings of ${made.name} saved`)).toBeVisible()
    })
    const stored = await clusterCall<Summary>('GET', `${tables}${made.uuid}`)
    expect(stored.settings.summary).toMatchObject({ enabled: false, sql })
  })
})
