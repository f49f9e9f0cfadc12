import { createTableThroughForm, expect, test, uniqueName } from './fixtures'
import { codeField } from './code-field'
import { typeSql } from './query-editor'

const WEB_LOGS = [
  '{"timestamp":"2024-05-01T10:00:00Z","method":"GET","status":200,"bytes":512,' +
    '"path":"/index.html","client":{"ip":"10.0.0.1","country":"DE"}}',
  '{"timestamp":"2024-05-01T10:00:01Z","method":"POST","status":201,"bytes":128,' +
    '"path":"/api/orders","client":{"ip":"10.0.0.2","country":"FR"}}',
  '{"timestamp":"2024-05-01T10:00:02Z","method":"GET","status":404,"bytes":0,"path":"/missing","client":{"ip":"10.0.0.3","country":"DE"}}',
].join('\n')

test.describe('data → transforms and sources', () => {
  test('infer a transform from sample rows, fix the name, validate, publish, ingest the sample, query the rows', async ({
    authedPage: page,
  }, testInfo) => {
    test.setTimeout(90_000)
    const { project, table } = await createTableThroughForm(page)
    const transform = uniqueName('web')
    await page.getByRole('link', { name: 'New transform' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'New transform' })).toBeVisible()
    await page.getByLabel('Transform name').fill(`9${transform}`)
    await page.getByLabel('Sample data (CSV with a header line, or JSON)').fill(WEB_LOGS)
    await page.getByRole('button', { name: 'Infer columns from sample' }).click()

    await expect(page.getByRole('status').filter({ hasText: 'Proposed from the sample' })).toContainText(
      'Primary timestamp: timestamp',
    )
    await expect(page.getByLabel('Column 1 name')).toHaveValue('timestamp')
    await expect(page.getByLabel('Column 1 type')).toHaveValue('datetime')
    await expect(page.getByLabel('Column 1 format')).toHaveValue('2006-01-02T15:04:05Z')
    await expect(page.getByLabel('Column 1 primary')).toBeChecked()
    await expect(page.getByLabel('Column 3 type')).toHaveValue('uint64')
    await expect(page.getByLabel('Column 6 name')).toHaveValue('client.ip')
    await expect(page.getByLabel('Transform name')).toHaveValue(`9${transform}`)

    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByLabel('Transform name')).toHaveAccessibleDescription(
      /Name must not begin with a digit or special character/,
    )
    await expect(page.getByLabel('Column 7 name')).toHaveValue('client.country')

    await page.getByLabel('Transform name').fill(transform)
    await page.getByRole('button', { name: 'Validate sample' }).click()
    await expect(page.getByRole('heading', { name: 'Validation: all 3 rows parsed' })).toBeVisible()
    await expect(
      page.getByRole('table', { name: /Parsed rows/ }).getByRole('cell', { name: '/api/orders' }),
    ).toBeVisible()

    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByText(`Transform ${transform} published`)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(table) })).toBeVisible()
    await page.getByRole('link', { name: transform, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: `Transform ${transform}` })).toBeVisible()
    await page.getByRole('button', { name: 'Ingest the sample' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Ingested 3 rows' })).toBeVisible()

    await page.goto('/queries')
    await typeSql(page, testInfo, `SELECT path, status FROM ${project}.${table} WHERE method = 'POST'`)
    if (testInfo.project.name === 'js') await page.keyboard.press('Control+Enter')
    else await page.getByRole('button', { name: 'Run' }).click()
    const results = page.getByRole('table', { name: 'Query results' })
    await expect(results.getByRole('cell', { name: '/api/orders', exact: true })).toBeVisible()
    await expect(results.getByRole('cell', { name: '201', exact: true })).toBeVisible()
  })

  test('column rows: add and remove keep what was typed; a column rule shows on its row', async ({
    authedPage: page,
  }) => {
    const { table } = await createTableThroughForm(page)
    await page.getByRole('link', { name: 'New transform' }).click()
    await page.getByLabel('Transform name').fill(uniqueName('rows'))
    await page.getByRole('button', { name: 'Add column' }).click()
    await page.getByLabel('Column 2 name').fill('price')
    await page.getByLabel('Column 2 type').selectOption('double')
    await page.getByRole('button', { name: 'Add column' }).click()
    await page.getByLabel('Column 3 name').fill('tags')
    await page.getByLabel('Column 3 type').selectOption('array')
    await expect(page.getByLabel('Column 2 name')).toHaveValue('price')

    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByLabel('Column 2 index')).toHaveAccessibleDescription('Index cannot be enabled for double')
    await expect(page.getByLabel('Column 3 elements')).toHaveAccessibleDescription(
      'Array needs one element type, map two (key, value)',
    )
    await page.getByLabel('Column 2 index').uncheck()
    await page.getByLabel('Column 3 elements').fill('string')
    await page.getByRole('button', { name: 'Remove column 2' }).click()
    await expect(page.getByLabel('Column 3 name')).toHaveCount(0)
    await expect(page.getByLabel('Column 2 name')).toHaveValue('tags')
    await expect(page.getByLabel('Column 2 elements')).toHaveValue('string')
    await expect(page.getByLabel('Column 1 name')).toHaveValue('timestamp')
    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(table) })).toBeVisible()
    await expect(page.getByRole('table', { name: `Transforms of ${table}` }).getByRole('row')).toHaveCount(2)
  })

  test('a kafka source: the rules at their fields, created with its pool, listed on its table, deleted', async ({
    authedPage: page,
  }) => {
    test.slow() // a table, a transform and a source made through their forms: 23 s on CI's machine
    const { table } = await createTableThroughForm(page)
    const tablePage = page.url()
    await page.getByRole('link', { name: 'New transform' }).click()
    const transform = uniqueName('t')
    await page.getByLabel('Transform name').fill(transform)
    await page.getByRole('button', { name: 'Publish transform' }).click()
    await expect(page.getByText(`Transform ${transform} published`)).toBeVisible()

    await page.getByRole('link', { name: 'New ingest source' }).click()
    await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'Kafka' })
    await page.getByRole('button', { name: 'Continue' }).click()
    // (the 27-symbol limit is the input's maxlength in the browser; the action's answer is in sources.test.ts)
    await page.getByLabel('Min replicas').fill('3')
    await page.getByLabel('Max replicas').fill('2')
    await page.getByRole('button', { name: 'Create Kafka source' }).click()
    await expect(page.getByLabel('Source name')).toHaveAccessibleDescription(/Name is required/)
    await expect(page.getByLabel('Bootstrap servers')).toHaveAccessibleDescription(/Bootstrap servers are required/)
    await expect(page.getByLabel('Min replicas')).toHaveAccessibleDescription(/Min replicas must be below max/)
    await expect(page.getByLabel('Max replicas')).toHaveValue('2')

    const name = `k${Date.now().toString(36)}`
    await page.getByLabel('Source name').fill(name)
    await page.getByLabel('Bootstrap servers').fill('kafka-1:9092, kafka-2:9092')
    await page.getByLabel('Topics').fill('weblogs')
    await page.getByLabel('Min replicas').fill('1')
    await page.getByRole('button', { name: 'Create Kafka source' }).click()
    await expect(page.getByText(`Source ${name} created`)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await expect(page.getByText(`Running in pool ${name}`)).toBeVisible()
    await expect(page.getByLabel('Topics')).toHaveValue('weblogs')

    await page.goto(tablePage)
    const sources = page.getByRole('table', { name: `Ingest sources of ${table}` })
    await expect(sources.getByRole('row', { name: new RegExp(`${name}.*Kafka.*${transform}`) })).toBeVisible()
    await sources.getByRole('link', { name }).click()
    await page.getByRole('link', { name: 'Delete source…' }).click()
    await page.getByRole('button', { name: 'Delete source' }).click()
    await expect(page.getByText(`Source ${name} deleted`)).toBeVisible()
    await expect(
      page.getByRole('table', { name: `Ingest sources of ${table}` }).getByRole('link', { name }),
    ).toHaveCount(0)
  })

  test('an auto batch: the queue needs its address; created, shown with its state, deleted', async ({
    authedPage: page,
  }) => {
    const { table } = await createTableThroughForm(page)
    await page.getByRole('link', { name: 'New ingest source' }).click()
    await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'Auto batch' })
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Queue name').fill('new-files')
    await page.getByLabel('Dry run').check()
    await page.getByRole('button', { name: 'Create auto batch' }).click()
    await expect(page.getByLabel('Queue name')).toHaveAccessibleDescription(
      /Queue name must be prefixed with its address/,
    )
    await expect(page.getByLabel('Dry run')).toBeChecked()
    const queue = 'https://sqs.us-east-1.amazonaws.com/123456789012/new-files'
    await page.getByLabel('Queue name').fill(queue)
    await page.getByRole('button', { name: 'Create auto batch' }).click()
    await expect(page.getByText('Auto batch created')).toBeVisible()
    await expect(page.getByText('Enabled (dry run: nothing is stored)')).toBeVisible()
    await page.getByRole('link', { name: 'Delete auto batch…' }).click()
    await page.getByRole('button', { name: 'Delete auto batch' }).click()
    await expect(page.getByText('Auto batch deleted')).toBeVisible()
    await expect(
      page.getByRole('table', { name: `Ingest sources of ${table}` }).getByRole('link', { name: queue }),
    ).toHaveCount(0)
  })

  test('validate a transform given as JSON: parsed rows and refused rows; bad JSON gets the spec message', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/data/validate-transform')
    const transform = codeField(page, testInfo, 'Transform (JSON)')
    await transform.fill('{"type": "csv", "settings": {')
    await page.getByLabel('Sample data', { exact: true }).fill('2024-01-01 00:00:00,5')
    await page.getByRole('button', { name: 'Validate' }).click()
    await expect(transform.input).toHaveAccessibleDescription(/Schema must be valid JSON/)
    const schema = JSON.stringify({
      type: 'csv',
      settings: {
        output_columns: [
          { name: 'ts', datatype: { type: 'datetime', format: '2006-01-02 15:04:05', primary: true } },
          { name: 'n', datatype: { type: 'uint32' } },
        ],
      },
    })
    await transform.fill(schema)
    await page.getByLabel('Sample data', { exact: true }).fill('2024-01-01 00:00:00,5\n2024-01-01 00:00:01,x')
    await page.getByRole('button', { name: 'Validate' }).click()
    await expect(page.getByRole('heading', { name: 'Validation: 1 of 2 rows have errors' })).toBeVisible()
    await expect(
      page.getByRole('table', { name: /Parsed rows/ }).getByRole('cell', { name: '5', exact: true }),
    ).toBeVisible()
    await expect(page.getByRole('alert').filter({ hasText: 'Rows the cluster refused' })).toContainText('Row 2:')
  })
})
