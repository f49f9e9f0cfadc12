import { mkdirSync, rmdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { E2E_PORT } from './env'
import { expect, test, uniqueName } from './fixtures'

/**
 * Runs `body` while holding a lock shared by both projects' workers: only one bucket can be the
 * org's default, so the two default-bucket walks must not overlap.
 */
async function withDefaultBucketLock(body: () => Promise<void>) {
  const lock = join(tmpdir(), `console-e2e-default-bucket-${E2E_PORT}`)
  const started = Date.now()
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (Date.now() - started > 60_000) rmdirSync(lock, { recursive: true } as never)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    await body()
  } finally {
    rmdirSync(lock)
  }
}

const GCP_KEY = {
  type: 'service_account',
  project_id: 'e2e-gcp-project',
  private_key_id: 'key-id-123',
  private_key: '-----BEGIN PRIVATE KEY-----\nE2E-SECRET-KEY\n-----END PRIVATE KEY-----\n',
  client_email: 'loader@e2e-gcp-project.iam.gserviceaccount.com',
  client_id: '42',
  token_uri: 'https://oauth2.googleapis.com/token',
}

test.describe('security → buckets', () => {
  test('a bucket needs Name, Bucket name and Cloud; typed values survive the error; then it is created, listed and edited', async ({
    authedPage: page,
  }) => {
    const name = uniqueName('e2e_bucket')
    await page.goto('/security/new-bucket')
    await page.getByLabel('Region').fill('eu-west-1')
    await page.getByLabel('Description').fill('typed before the error')
    await page.getByRole('button', { name: 'Create bucket' }).click()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/Name is required/)
    await expect(page.getByLabel('Bucket name')).toHaveAccessibleDescription(/Bucket name is required/)
    await expect(page.getByLabel('Cloud')).toHaveAccessibleDescription(/Cloud is required/)
    await expect(page.getByLabel('Region')).toHaveValue('eu-west-1')
    await expect(page.getByLabel('Description')).toHaveValue('typed before the error')

    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Bucket name').fill('e2e-data')
    await page.getByLabel('Cloud').selectOption('aws')
    await page.getByRole('button', { name: 'Create bucket' }).click()
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
    await expect(page.getByText(`Bucket ${name} created`)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Tables using this bucket' })).toBeVisible()
    await expect(page.getByText('No table uses this bucket.')).toBeVisible()

    await page.getByLabel('Bucket path').fill('/archive')
    await page.getByRole('button', { name: 'Save bucket' }).click()
    await expect(page.getByText(`Bucket ${name} saved`)).toBeVisible()
    await expect(page.getByText('aws://e2e-data/archive')).toBeVisible()

    await page.goto(`/security/buckets?q=${name}`)
    await expect(page.getByRole('rowheader', { name })).toBeVisible()
    await page.getByRole('link', { name }).click()
    await expect(page).toHaveURL(/\/security\/buckets\/[0-9a-f-]{36}$/)
  })

  test('the default bucket says which tables use it and is deleted only with FORCE typed', async ({
    authedPage: page,
  }) => {
    await withDefaultBucketLock(async () => {
      // A fresh cluster already has a real install's bucket, hdx_primary (the default until another is made so).
      await page.goto('/security/buckets')
      await expect(page.getByRole('rowheader', { name: 'hdx_primary' })).toBeVisible()
      await expect(page.getByText(/No buckets yet/)).toHaveCount(0)

      const name = uniqueName('e2e_default')
      await page.goto('/security/new-bucket')
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Bucket name').fill('main-bucket')
      await page.getByLabel('Cloud').selectOption('gcp')
      await page.getByLabel('Default bucket').check()
      await page.getByRole('button', { name: 'Create bucket' }).click()
      await expect(page.getByText('The default bucket')).toBeVisible()
      // The seeded sample table has no bucket of its own: it uses the default.
      const uses = page.getByRole('table', { name: `Tables using ${name}` })
      await expect(uses.getByText('No bucket of its own: uses the default').first()).toBeVisible()

      await page.getByRole('link', { name: 'Delete bucket…' }).click()
      const panel = page.getByRole('region', { name: `Delete bucket ${name}?` })
      await expect(panel).toContainText('This is the default bucket')
      await panel.getByLabel('Type FORCE to confirm').fill('force')
      await panel.getByRole('button', { name: 'Delete bucket' }).click()
      await expect(page.getByLabel('Type FORCE to confirm')).toHaveAccessibleDescription(/Type FORCE to confirm/)
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()

      await page.getByLabel('Type FORCE to confirm').fill('FORCE')
      await page.getByRole('button', { name: 'Delete bucket' }).click()
      await expect(page).toHaveURL(/\/security\/buckets$/)
      await expect(page.getByText(`Bucket ${name} deleted`)).toBeVisible()
      await expect(page.getByRole('rowheader', { name })).toHaveCount(0)
      await expect(page.getByRole('rowheader', { name: 'hdx_primary' })).toBeVisible()
    })
  })
})

test.describe('security → credentials', () => {
  test("the type's own fields; secrets are never shown again and a blank one keeps the stored secret", async ({
    authedPage: page,
  }, testInfo) => {
    const name = uniqueName('e2e_keys')
    await page.goto('/security/new-credential')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page
      .getByLabel('Type', { exact: true })
      .selectOption({ label: 'AWS access key id and secret access key (aws)' })
    if (testInfo.project.name === 'no-js') {
      await page.getByRole('button', { name: 'Show the fields for this type' }).click()
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
    }
    await expect(page.getByLabel('Access key id')).toBeVisible()
    await page.getByLabel('Secret access key').fill('e2e-very-secret')
    await page.getByRole('button', { name: 'Create credential' }).click()
    await expect(page.getByLabel('Access key id')).toHaveAccessibleDescription(/Access key id is required/)
    if (testInfo.project.name === 'no-js') {
      // The server checked it: the secret typed is not sent back; the page says so, and the field is empty.
      await expect(page.getByText(/Secrets are not sent back to the browser/)).toBeVisible()
      await expect(page.getByLabel('Secret access key')).toHaveValue('')
      expect(await page.content()).not.toContain('e2e-very-secret')
    }

    await page.getByLabel('Access key id').fill('AKIAE2E')
    await page.getByLabel('Secret access key').fill('e2e-very-secret')
    // Enter saves (without scripts too: the first submit button is the save, not "Show the fields").
    await page.getByLabel('Secret access key').press('Enter')
    await expect(page.getByText(`Credential ${name} created`)).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
    await expect(page.getByText('Stored (hidden)')).toBeVisible()
    await expect(page.getByLabel('Secret access key')).toHaveValue('')
    await expect(page.getByLabel('Secret access key')).toHaveAccessibleDescription(/Leave blank to keep it/)
    expect(await page.content()).not.toContain('e2e-very-secret')

    await page.getByLabel('Description').fill('rotated nothing')
    await page.getByRole('button', { name: 'Save credential' }).click()
    await expect(page.getByText(`Credential ${name} saved`)).toBeVisible()
    await expect(page.getByText('Stored (hidden)')).toBeVisible()

    await page.getByRole('link', { name: 'Delete credential…' }).click()
    await page.getByRole('button', { name: 'Delete credential' }).click()
    await expect(page).toHaveURL(/\/security\/credentials$/)
    await expect(page.getByText(`Credential ${name} deleted`)).toBeVisible()
  })

  test('a GCP service account key file picks the type and fills its fields', async ({ authedPage: page }, testInfo) => {
    const name = uniqueName('e2e_gcp')
    await page.goto('/security/new-credential')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page
      .getByLabel('Key file (JSON)')
      .setInputFiles({ name: 'key.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(GCP_KEY)) })
    if (testInfo.project.name === 'js') {
      // With scripts the form fills as soon as the file is picked.
      await expect(page.getByLabel('Type', { exact: true })).toHaveValue('gcp_service_account_keys')
      await expect(page.getByLabel('Project id')).toHaveValue('e2e-gcp-project')
      await expect(page.getByLabel('Client email')).toHaveValue(GCP_KEY.client_email)
      // The private key stays in the file (an input would drop its line breaks): the server reads it.
      await expect(page.getByLabel('Private key', { exact: true })).toHaveValue('')
      await expect(page.getByLabel('Private key', { exact: true })).toHaveAccessibleDescription(
        /Taken from the key file/,
      )
    }
    await page.getByRole('button', { name: 'Create credential' }).click()
    await expect(page.getByText(`Credential ${name} created`)).toBeVisible()
    await expect(page.getByText('e2e-gcp-project').first()).toBeVisible()
    await expect(page.getByText('Stored (hidden)')).toBeVisible()
    expect(await page.content()).not.toContain('E2E-SECRET-KEY')

    await page.goto(`/security/credentials?q=${name}`)
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('gcp')
  })
})

test.describe('security → logs', () => {
  test('the audit trail filters by action and time, and the filters and paging live in the URL', async ({
    authedPage: page,
  }) => {
    await page.goto('/security/audit-trails')
    await expect(page.getByRole('columnheader', { name: 'Created' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'User' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Action' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Text' })).toBeVisible()
    await page.getByLabel('Action').fill('bootstrap')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/action=bootstrap/)
    await expect(page.getByRole('rowheader', { name: /Cluster initialised/ })).toBeVisible()
    await expect(page.getByRole('rowheader')).toHaveCount(1)

    await page.getByLabel('From (UTC)').fill('2001-01-01')
    await page.getByLabel('To (UTC, inclusive)').fill('2001-01-02')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByText('Nothing matches these filters.')).toBeVisible()

    await page.goto('/security/audit-trails?pageSize=10&page=2')
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText(/11–/)
  })

  test('auth logs show every column; from, to and limit are required', async ({ authedPage: page }) => {
    await page.goto('/security/auth-logs')
    for (const column of [
      'Time',
      'Timestamp',
      'Username',
      'Type',
      'Realm ID',
      'Client ID',
      'User ID',
      'Session ID',
      'IP address',
      'Error',
      'Details',
    ]) {
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
    }
    await expect(page.getByRole('cell', { name: 'LOGIN', exact: true }).first()).toBeVisible()

    await page.getByLabel('Limit').fill('')
    await page.getByLabel('From').fill('')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page.getByLabel('Limit')).toHaveAccessibleDescription(/Limit is required/)
    await expect(page.getByLabel('From')).toHaveAccessibleDescription(/From date is required/)
  })
})
