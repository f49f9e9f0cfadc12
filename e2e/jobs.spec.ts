import { expect, findTable, hydrated, test, uniqueName } from './fixtures'
import { codeField } from './code-field'
import { clusterCall } from './cluster-faults'
import { refreshUntil, withJobsLock } from './jobs-helpers'

test.describe('jobs', () => {
  test.describe.configure({ timeout: 120_000 })

  test('an alter job: the engine error shows at the SQL field, then the job counts, waits as pending and is committed', async ({
    authedPage: page,
  }, testInfo) => {
    await withJobsLock(async () => {
      await page.goto('/jobs/alter-jobs/create')
      await findTable(page, 'sample.web_logs')
      await hydrated(page) // with scripts the template follows the table the form's state holds
      await expect(
        page.getByRole('navigation', { name: 'Job kinds' }).getByRole('link', { name: 'Alter jobs' }),
      ).toHaveAttribute('aria-current', 'page')
      await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
      const sqlField = codeField(page, testInfo, 'SQL')
      const sql = sqlField.value
      // With scripts the template follows the table; without them "Use template" asks the server for it.
      if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Use template' }).click()
      await expect(sql).toHaveValue('ALTER TABLE sample.web_logs DELETE WHERE ')

      // The sample table must keep its rows (other specs count them): this job matches none.
      const marker = uniqueName('e2e')
      await sqlField.fill(`ALTER TABLE sample.web_logs DELETE WHERE no_such_column = '${marker}'`)
      await page.getByRole('button', { name: 'Create alter job' }).click()
      await expect(sqlField.input).toHaveAccessibleDescription(/Code: \d+\. DB::Exception: .*no_such_column/)
      await expect(sql).toHaveValue(`ALTER TABLE sample.web_logs DELETE WHERE no_such_column = '${marker}'`)

      await sqlField.fill(`ALTER TABLE sample.web_logs DELETE WHERE request_id = '${marker}'`)
      await page.getByRole('button', { name: 'Create alter job' }).click()
      await expect(page).toHaveURL(/\/jobs\/alter-jobs\?job=[0-9a-f-]{36}$/)
      await expect(page.getByText('Alter job created: counting the rows it changes')).toBeVisible()
      const panel = page.getByRole('region', { name: /^Alter job alter_sample_web_logs_/ })
      await expect(panel).toContainText(`request_id = '${marker}'`)
      // The new job is the highlighted row.
      await expect(page.getByRole('table', { name: 'Alter jobs' }).locator('tr[aria-current="true"]')).toContainText(
        `request_id = '${marker}'`,
      )

      const commit = panel.getByRole('button', { name: 'Commit changes' })
      await refreshUntil(page, commit)
      await expect(panel).toContainText('pending')
      await expect(panel).toContainText('Rows to alter0')
      await commit.click()
      await expect(page.getByText('Alter job committed: the data is being changed')).toBeVisible()
      await refreshUntil(page, panel.getByText('Verified.'))
      await expect(panel.locator('[data-status]').first()).toHaveText('done')
      await expect(panel.getByRole('button', { name: 'Commit changes' })).toBeHidden()
    })
  })

  test('a batch job from the sample bucket runs to done; the list shows its progress', async ({ authedPage: page }) => {
    await withJobsLock(async () => {
      const name = uniqueName('e2e_batch')
      await page.goto('/jobs/batch-jobs/create')
      await findTable(page, 'sample.web_logs')
      await hydrated(page) // the transforms listed follow the table the form's state holds
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Description', { exact: true }).fill('The sample bucket, dry run')
      await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
      await page.getByLabel('Transform', { exact: true }).selectOption('sample.web_logs:web_logs_json')
      await page.getByLabel('URL', { exact: true }).fill('s3://sample-bucket/web-logs/')
      // A dry run reads every file and loads nothing: sample.web_logs keeps the rows other specs count.
      await page.getByText('Advanced options').click()
      await page.getByLabel('Dry run', { exact: true }).check()
      await page.getByLabel('Pool', { exact: true }).fill('intake-head')
      // a SQL that does not read the file's rows is refused at its field, with everything typed kept
      const sqlField = page.getByLabel('SQL', { exact: true })
      await sqlField.fill('SELECT 1')
      await page.getByRole('button', { name: 'Create batch job' }).click()
      await expect(sqlField).toHaveAccessibleDescription(/must read the file's rows as \{STREAM\}/)
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
      await expect(page.getByLabel('Pool', { exact: true })).toHaveValue('intake-head')
      await sqlField.fill('SELECT * FROM {STREAM} WHERE status >= 400')
      await page.getByRole('button', { name: 'Create batch job' }).click()

      await expect(page).toHaveURL(/\/jobs\/batch-jobs\?job=[0-9a-f-]{36}$/)
      await expect(page.getByText(`Batch job ${name} created`)).toBeVisible()
      const panel = page.getByRole('region', { name: `Batch job ${name}` })
      await refreshUntil(page, panel.getByText('2 of 2 done'))
      await expect(panel.locator('[data-status]').first()).toHaveText('done')
      await expect(panel).toContainText('1000 read, 0 loaded, 0 rejected')
      await expect(panel).toContainText('intake-head')
      await expect(panel).toContainText('SELECT * FROM {STREAM} WHERE status >= 400')
      await expect(panel.getByRole('progressbar', { name: `${name} progress` })).toHaveAttribute('value', '100')
      const row = page.getByRole('table', { name: 'Batch jobs' }).getByRole('row', { name: new RegExp(name) })
      await expect(row).toContainText('100%')
      // done: Retry would have nothing left to load, so it is not offered (Delete is)
      await expect(row.getByRole('link', { name: `Delete ${name}…` })).toBeVisible()
      await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0)
    })
  })

  test('a table whose transforms the page did not read: its default without scripts, its own list with them (decision 085)', async ({
    authedPage: page,
  }) => {
    // four tables found by one search: the form reads the transforms of the first only
    const project = uniqueName('e2e_tx')
    const { uuid } = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: project })
    const columns = [
      { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
      { name: 'message', datatype: { type: 'string' } },
    ]
    for (const name of ['t1', 't2', 't3', 't4']) {
      const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${uuid}/tables/`, {
        name,
      })
      const transforms = `/config/v1/orgs/{org}/projects/${uuid}/tables/${table.uuid}/transforms/`
      await clusterCall('POST', transforms, {
        name: `${name}_json`,
        type: 'json',
        settings: { is_default: true, output_columns: columns },
      })
      if (name === 't3')
        await clusterCall('POST', transforms, {
          name: 'a_t3_csv',
          type: 'csv',
          settings: { is_default: false, output_columns: columns },
        })
    }
    await withJobsLock(async () => {
      const name = uniqueName('e2e_tx_job')
      await page.goto(`/jobs/batch-jobs/create?table_q=${project}`)
      await hydrated(page)
      const transform = page.getByLabel('Transform', { exact: true })
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Table', { exact: true }).selectOption(`${project}.t3`)
      if (test.info().project.name === 'js') {
        // its transforms are read when it is picked; its default is selected, the other offered
        await expect(transform).toHaveValue(`${project}.t3:t3_json`)
        await transform.selectOption(`${project}.t3:a_t3_csv`)
      } else {
        await expect(transform.locator(`option[value="${project}.t3:a_t3_csv"]`)).toHaveCount(0)
        // each table whose transforms were not read offers its default: t3's here
        await transform.selectOption(`${project}.t3:*`)
      }
      await page.getByLabel('URL', { exact: true }).fill('s3://sample-bucket/web-logs/')
      await page.getByText('Advanced options').click()
      await page.getByLabel('Dry run', { exact: true }).check()
      await page.getByRole('button', { name: 'Create batch job' }).click()
      await expect(page).toHaveURL(/\/jobs\/batch-jobs\?job=[0-9a-f-]{36}$/)
      const panel = page.getByRole('region', { name: `Batch job ${name}` })
      await expect(panel).toContainText(test.info().project.name === 'js' ? 'a_t3_csv' : 't3_json')
    })
    // a search that finds nothing offers no table
    await page.goto(`/jobs/batch-jobs/create?table_q=${project}_none`)
    await expect(page.getByText(`No table matches “${project}_none”.`)).toBeVisible()
  })

  test('a batch job from an unreachable bucket fails with its message; purge asks for FORCE, then clears it', async ({
    authedPage: page,
  }) => {
    await withJobsLock(async () => {
      const name = uniqueName('e2e_fail')
      await page.goto('/jobs/batch-jobs/create?table_q=sample.web_logs')
      // a table chosen while the page hydrates stays in the select but not in the form's state, which
      // then lists no transform for it (CI saw "Transform is required" once): wait for React first
      await hydrated(page)
      await page.getByRole('button', { name: 'Create batch job' }).click()
      await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Name is required')
      await expect(page.getByLabel('URL', { exact: true })).toHaveAccessibleDescription(/URL is required/)

      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Table', { exact: true }).selectOption({ label: 'sample.web_logs' })
      await page.getByLabel('Transform', { exact: true }).selectOption('sample.web_logs:web_logs_json')
      await page.getByLabel('URL', { exact: true }).fill('s3://no-such-bucket/logs/')
      await page.getByRole('button', { name: 'Create batch job' }).click()
      const panel = page.getByRole('region', { name: `Batch job ${name}` })
      await refreshUntil(page, panel.getByText(/Cannot reach s3:\/\/no-such-bucket\/logs\//))
      await expect(panel.locator('[data-status]').first()).toHaveText('failed')

      await page.getByRole('link', { name: 'Purge finished jobs…' }).click()
      const confirm = page.getByLabel('Type FORCE to confirm')
      await confirm.fill('force')
      await page.getByRole('button', { name: 'Purge jobs' }).click()
      await expect(confirm).toHaveAccessibleDescription('Type FORCE to confirm')
      await expect(
        page.getByRole('table', { name: 'Batch jobs' }).getByRole('row', { name: new RegExp(name) }),
      ).toBeVisible()

      await confirm.fill('FORCE')
      await page.getByRole('button', { name: 'Purge jobs' }).click()
      await expect(page.getByText(/^Purged \d+ batch jobs?$/)).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Purge finished batch jobs?' })).toBeHidden()
      await expect(page.getByText('This batch job no longer exists.')).toBeVisible()
      await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0)
    })
  })
})
