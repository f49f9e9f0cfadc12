import { createTableThroughForm, expect, hydrated, test, uniqueName } from './fixtures'
import { clusterCall } from './cluster-faults'
import { codeField } from './code-field'

/*
 * Data → Dictionaries, Functions, Files (issue 9), with and without scripts. Each test makes its own
 * project (through the table form, as a user would) so the two projects' runs do not meet.
 */

const CSV = 'id,name,continent\n1,France,Europe\n2,Japan,Asia\n'

test.describe('data → functions', () => {
  test('a bad function shows the spec messages and keeps what was typed; a good one is made, tried with arguments, deleted', async ({
    authedPage: page,
  }, testInfo) => {
    test.slow()
    const { project } = await createTableThroughForm(page)
    const name = uniqueName('fn')
    await page.goto('/data/functions/new-custom-function')
    await page.getByLabel('Function name').fill('z'.repeat(70))
    await page.getByLabel('Description').fill('Typed before the error')
    await page.getByRole('button', { name: 'Create function' }).click()
    await expect(page.getByLabel('Project', { exact: true })).toHaveAccessibleDescription(/Project must be selected/)
    await expect(page.getByLabel('Function name')).toHaveAccessibleDescription(/Name must be under 64 symbols/)
    const expression = codeField(page, testInfo, 'SQL expression')
    await expect(expression.input).toHaveAccessibleDescription(/SQL expression is required/)
    await expect(page.getByLabel('Description')).toHaveValue('Typed before the error')

    await page.getByLabel('Project', { exact: true }).selectOption({ label: project })
    await page.getByLabel('Function name').fill(name)
    // The cluster checks the expression: a broken one comes back on its field.
    await expression.fill('(x, k) -> k *')
    await page.getByRole('button', { name: 'Create function' }).click()
    await expect(expression.input).toHaveAttribute('aria-invalid', 'true')
    await expect(expression.value).toHaveValue('(x, k) -> k *')
    await expression.fill('(x, k) -> k * x + 1')
    await page.getByRole('button', { name: 'Create function' }).click()

    await expect(page.getByRole('heading', { level: 1, name: `Function ${name}` })).toBeVisible()
    await expect(page.getByText(`Function ${name} created`)).toBeVisible()
    await page.getByLabel('Argument x').fill('20')
    await page.getByLabel('Argument k').fill('2')
    await page.getByRole('button', { name: 'Run' }).click()
    await expect(page.getByTestId('try-result')).toHaveText('41')
    await expect(page.getByRole('link', { name: 'Open in Query' })).toHaveAttribute(
      'href',
      new RegExp(`/queries\\?sql=SELECT%20${name}`),
    )

    await page.goto(`/data/functions?q=${name}`)
    await expect(page.getByRole('rowheader', { name })).toBeVisible()
    await page.getByRole('link', { name }).click()
    await page.getByRole('link', { name: 'Delete function…' }).click()
    await page.getByRole('button', { name: 'Delete function' }).click()
    await expect(page).toHaveURL(/\/data\/functions$/)
    await expect(page.getByText(`Function ${name} deleted`)).toBeVisible()
    await expect(page.getByRole('rowheader', { name })).toHaveCount(0)
  })
})

test.describe('data → a function made elsewhere', () => {
  test('a name the rule refuses (a leading underscore, which the cluster takes) stays and a changed SQL saves, scripts or not', async ({
    authedPage: page,
  }, testInfo) => {
    type Made = { uuid: string; name: string; sql: string; description?: string }
    const project = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/projects/', { name: uniqueName('fe') })
    const path = `/config/v1/orgs/{org}/projects/${project.uuid}/functions/`
    const made = await clusterCall<Made>('POST', path, { name: `_${uniqueName('fn')}`, sql: '(x) -> x + 1' })

    await page.goto(`/data/functions/${project.uuid}/${made.uuid}/edit-function`)
    await expect(page.getByLabel('Function name')).toHaveValue(made.name)
    const expression = codeField(page, testInfo, 'SQL expression')
    await expression.fill('(x) -> x + 2')
    await page.getByRole('button', { name: 'Save function' }).click()
    await expect(page.getByText(`Function ${made.name} saved`)).toBeVisible()

    const saved = await clusterCall<Made>('GET', `${path}${made.uuid}`)
    expect(saved.name).toBe(made.name)
    expect(saved.sql).toBe('(x) -> x + 2')
  })
})

test.describe('data → files and dictionaries', () => {
  test('upload a file, refuse a wrong one, build a dictionary on it that answers a lookup, keep the file while it is used', async ({
    authedPage: page,
  }, testInfo) => {
    // A long flow (upload, dictionary, lookups, replace, two deletes) on a shared 2-core machine.
    test.slow()
    const { project, url: tableUrl } = await createTableThroughForm(page)
    const file = `${uniqueName('countries')}.csv`
    const dictionary = uniqueName('dict')

    // A file whose bytes are not its extension's format is refused at the field, the rest kept.
    await page.goto('/data/files/new-file')
    await page.getByLabel('Project', { exact: true }).selectOption({ label: project })
    await page.getByLabel('File name').fill(file)
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]) })
    await page.getByRole('button', { name: 'Upload file' }).click()
    await expect(page.getByLabel('File', { exact: true })).toHaveAccessibleDescription(
      /The file is not CSV: it holds binary data/,
    )
    await expect(page.getByLabel('File name')).toHaveValue(file)

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'countries.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) })
    // With scripts the form goes by XHR to the upload route (for its progress bar); without, as a plain multipart POST.
    const sent = page.waitForRequest(
      (request) =>
        request.method() === 'POST' &&
        /\/(resources\/dictionary-file-upload|data\/files\/new-file)/.test(request.url()),
    )
    await page.getByRole('button', { name: 'Upload file' }).click()
    expect(new URL((await sent).url()).pathname).toBe(
      testInfo.project.name === 'js' ? '/resources/dictionary-file-upload' : '/data/files/new-file',
    )
    await expect(page.getByRole('heading', { level: 1, name: `File ${file}` })).toBeVisible()
    await expect(page.getByText(`File ${file} uploaded`)).toBeVisible()
    await expect(page.getByText('No dictionary')).toBeVisible()

    // The download goes through the console and gives the bytes back.
    const download = await page.request.get(
      await page
        .getByRole('link', { name: 'Download' })
        .first()
        .getAttribute('href')
        .then((href) => href!),
    )
    expect(await download.text()).toBe(CSV)

    await page.goto('/data/dictionaries/new-data-dictionary')
    await page.getByLabel('Project', { exact: true }).selectOption({ label: project })
    await page.getByLabel('Dictionary name').fill(dictionary)
    const fileLabel = testInfo.project.name === 'js' ? file : `${file} (${project})`
    await page.getByLabel('File', { exact: true }).selectOption({ label: fileLabel })
    const schema = codeField(page, testInfo, 'Schema definition (JSON)')
    await schema.fill('{"id": "uint64", "name": "string", "continent": "string"')
    await page.getByLabel('Primary key (JSON)').fill('["id"]')
    await page.getByRole('button', { name: 'Create dictionary' }).click()
    await expect(schema.input).toHaveAccessibleDescription(/Schema definition must be JSON/)
    await expect(page.getByLabel('Dictionary name')).toHaveValue(dictionary)
    await schema.fill('{"id": "uint64", "name": "string", "continent": "string"}')
    await page.getByRole('button', { name: 'Create dictionary' }).click()

    await expect(page.getByRole('heading', { level: 1, name: `Dictionary ${dictionary}` })).toBeVisible()
    const answer = page.getByRole('status', { name: 'Lookup answer' })
    await expect(answer).toContainText('France')
    await page.getByLabel('Key id (UInt64)').fill('2')
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(answer).toContainText('Japan')
    await expect(answer).toContainText('Asia')
    await page.getByLabel('Key id (UInt64)').fill('abc')
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'The engine refused the lookup' })).toBeVisible()

    // Query's reference lists it under the name dictGet takes: opened on the project's table, whose
    // project it then catalogues (an org of more than 5 projects: decision 084).
    const tableId = new URL(tableUrl).pathname.split('/').pop()!
    await page.goto(`/queries/reference?table_id=${tableId}`)
    await expect(page.getByRole('rowheader', { name: new RegExp(`${project}_${dictionary}`) })).toBeVisible()

    // The file is in use: its page says by which dictionary and offers no delete.
    await page.goto(`/data/files?q=${file}`)
    await expect(page.getByRole('row', { name: new RegExp(file) })).toContainText(dictionary)
    await page.getByRole('link', { name: file, exact: true }).click()
    await expect(page.getByTestId('file-in-use')).toHaveText(
      `This file cannot be deleted: it is used by dictionary ${dictionary}. Delete or change that dictionary first.`,
    )
    await expect(page.getByRole('link', { name: 'Delete file…' })).toHaveCount(0)

    // Replace the contents: the dictionary reads the new ones.
    await page
      .getByLabel('New contents')
      .setInputFiles({ name: 'new.csv', mimeType: 'text/csv', buffer: Buffer.from(`${CSV}3,Peru,America\n`) })
    await page.getByRole('button', { name: 'Replace file' }).click()
    await expect(page.getByText(`File ${file} replaced`)).toBeVisible()
    await page.getByRole('link', { name: dictionary }).click()
    await page.getByLabel('Key id (UInt64)').fill('3')
    await page.getByRole('button', { name: 'Look up' }).click()
    await expect(answer).toContainText('Peru')

    // Delete the dictionary, then the file.
    await page.getByRole('link', { name: 'Delete dictionary…' }).click()
    await page.getByRole('button', { name: 'Delete dictionary' }).click()
    await expect(page.getByText(`Dictionary ${dictionary} deleted`)).toBeVisible()
    await page.goto(`/data/files?q=${file}`)
    await page.getByRole('link', { name: file, exact: true }).click()
    await page.getByRole('link', { name: 'Delete file…' }).click()
    await page.getByRole('button', { name: 'Delete file' }).click()
    await expect(page).toHaveURL(/\/data\/files$/)
    await expect(page.getByText(`File ${file} deleted`)).toBeVisible()
  })

  test('the lists filter by project and name in the URL and sit under the Data tabs', async ({ authedPage: page }) => {
    const { project } = await createTableThroughForm(page)
    for (const [path, tab] of [
      ['/data/dictionaries', 'Dictionaries'],
      ['/data/functions', 'Functions'],
      ['/data/files', 'Files'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('link', { name: tab, exact: true })).toHaveAttribute('aria-current', 'page')
      await page.getByLabel('Project', { exact: true }).selectOption({ label: project })
      await page.getByRole('searchbox').fill('nothing_like_this')
      await page.getByRole('button', { name: 'Filter' }).click()
      await expect(page).toHaveURL(new RegExp(`${path}\\?project=[0-9a-f-]{36}&q=nothing_like_this`))
      await expect(page.getByRole('link', { name: 'Clear the filter' })).toBeVisible()
    }
  })
})

test.describe('data → a dictionary with its file uploaded in the same form (issue 35)', () => {
  test('the file is uploaded with the dictionary (by XHR with scripts, multipart without) and the dictionary answers a lookup', async ({
    authedPage: page,
  }, testInfo) => {
    test.slow()
    const { project } = await createTableThroughForm(page)
    const file = `${uniqueName('inline')}.csv`
    const dictionary = uniqueName('dict_up')
    await page.goto('/data/dictionaries/new-data-dictionary')
    // a file chosen before hydration fires its change before React listens: the form never learns of
    // it and refuses the submit ("File selection is required"; seen once in a full run)
    await hydrated(page)
    await page.getByLabel('Project', { exact: true }).selectOption({ label: project })
    await page.getByLabel('Dictionary name').fill(dictionary)
    await page.getByLabel('Upload a file').setInputFiles({ name: file, mimeType: 'text/csv', buffer: Buffer.from(CSV) })
    await page.getByLabel('Schema definition (JSON)').fill('{"id": "uint64", "name": "string", "continent": "string"}')
    await page.getByLabel('Primary key (JSON)').fill('["id"]')
    const sent = page.waitForRequest(
      (request) =>
        request.method() === 'POST' &&
        /\/(resources\/dictionary-create|data\/dictionaries\/new-data-dictionary)/.test(request.url()),
    )
    await page.getByRole('button', { name: 'Create dictionary' }).click()
    expect(new URL((await sent).url()).pathname).toBe(
      testInfo.project.name === 'js' ? '/resources/dictionary-create' : '/data/dictionaries/new-data-dictionary',
    )
    await expect(page.getByRole('heading', { level: 1, name: `Dictionary ${dictionary}` })).toBeVisible()
    await expect(page.getByText(`Dictionary ${dictionary} created`)).toBeVisible()
    await expect(page.getByRole('status', { name: 'Lookup answer' })).toContainText('France')
    await expect(page.getByLabel('File', { exact: true })).toHaveValue(file)
  })
})
