import { beforeAll, describe, expect, it } from 'vitest'
import { clusterAdminLogin } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { action as editAction, loader as editLoader } from './dictionaries.$projectId.$dictionaryId.edit-dictionary'
import { loader as listLoader } from './dictionaries._index'
import { action as newAction, loader as newLoader } from './dictionaries.new-data-dictionary'
import { action as createRoute } from '../../resources+/dictionary-create'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
let projectId: string
let otherProjectId: string
let token: string
let orgId: string

async function cluster(method: string, path: string, body?: BodyInit | object) {
  const isForm = body instanceof FormData
  return fetch(`http://cluster.test/config/v1/orgs/${orgId}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body && !isForm ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  })
}

async function uploadFile(project: string, name: string, content: string) {
  const form = new FormData()
  form.append('name', name)
  form.append('file', new File([content], name, { type: 'text/csv' }))
  const response = await cluster('POST', `/projects/${project}/dictionaries/files/`, form)
  expect(response.status, await response.clone().text()).toBe(201)
}

beforeAll(async () => {
  cookie = await loginAsAdmin()
  ;({ token, orgId } = await clusterAdminLogin())
  projectId = ((await (await cluster('POST', '/projects/', { name: 'geo' })).json()) as { uuid: string }).uuid
  otherProjectId = ((await (await cluster('POST', '/projects/', { name: 'other' })).json()) as { uuid: string }).uuid
  await uploadFile(projectId, 'countries.csv', 'id,name,continent\n1,France,Europe\n2,Japan,Asia\n')
  await uploadFile(projectId, 'codes.csv', 'code,label\nfr,French\njp,Japanese\n')
  await uploadFile(otherProjectId, 'elsewhere.csv', 'id,x\n1,a\n')
})

const COUNTRY_FORM = {
  project: '',
  name: 'countries',
  description: 'Country names',
  schemaDefinition: JSON.stringify([
    { name: 'id', datatype: { type: 'uint64' } },
    { name: 'name', datatype: { type: 'string' } },
    { name: 'continent', datatype: { type: 'string' } },
  ]),
  primaryKey: '["id"]',
  lifetimeSeconds: '5',
  loadLevel: '',
  format: 'CSVWithNames',
  layout: 'hashed',
  file: 'countries.csv',
}

async function create(form: Record<string, string>) {
  return returnedOrThrown(() => newAction(args(post('/data/dictionaries/new-data-dictionary', form, cookie))))
}

async function createOk(form: Record<string, string>) {
  const response = asResponse(await create(form))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const [, project, dictionaryId] = response.headers
    .get('Location')!
    .match(/^\/data\/dictionaries\/([\w-]+)\/([\w-]+)\/edit-dictionary$/)!
  return { projectId: project!, dictionaryId: dictionaryId!, path: response.headers.get('Location')! }
}

describe('/data/dictionaries/new-data-dictionary', () => {
  it('offers the projects, their files, and the recommended defaults', async () => {
    const data = await newLoader(args(get(`/data/dictionaries/new-data-dictionary?project=${projectId}`, cookie)))
    expect(data.project).toBe(projectId)
    expect(data.files).toEqual([
      { projectId, name: 'codes.csv' },
      { projectId, name: 'countries.csv' },
      { projectId: otherProjectId, name: 'elsewhere.csv' },
    ])
  })

  it('uploads the file in the same form (multipart, issue 35), checked as on the file pages', async () => {
    const send = (fields: Record<string, string>, file?: { name: string; content: BlobPart }) => {
      const form = new FormData()
      for (const [key, value] of Object.entries(fields)) form.append(key, value)
      // a browser posts an empty file part when none is chosen
      form.append('upload', file ? new File([file.content], file.name, { type: 'text/csv' }) : new File([], ''))
      form.append('intent', 'save')
      const request = new Request(`${TEST_CONSOLE_URL}/data/dictionaries/new-data-dictionary`, {
        method: 'POST',
        body: form,
        headers: { Cookie: cookie },
      })
      return returnedOrThrown(() => newAction(args(request)))
    }
    const fields = { ...COUNTRY_FORM, project: projectId, name: 'uploaded_here', file: '' }
    const none = unwrap<FormReply>(await send(fields))
    expect(none.status).toBe(400)
    expect(none.data.result.error).toEqual({ file: ['File selection is required'] })
    const binary = unwrap<FormReply>(await send(fields, { name: 'bad.csv', content: new Uint8Array([0, 1, 2]) }))
    expect(binary.status).toBe(400)
    expect(binary.data.result.error?.upload?.[0]).toMatch(/binary/)
    const made = asResponse(await send(fields, { name: 'fresh.csv', content: 'id,name,continent\n7,Chile,America\n' }))
    expect(made.status, JSON.stringify(made)).toBe(302)
    const dictionaryId = made.headers.get('Location')!.split('/')[4]!
    const stored = (await (await cluster('GET', `/projects/${projectId}/dictionaries/${dictionaryId}`)).json()) as {
      settings: { filename: string }
    }
    expect(stored.settings.filename).toBe('fresh.csv')
    const files = await (await cluster('GET', `/projects/${projectId}/dictionaries/files`)).json()
    expect(JSON.stringify(files)).toContain('fresh.csv')
    // the other tests count the project's dictionaries and files
    expect((await cluster('DELETE', `/projects/${projectId}/dictionaries/${dictionaryId}`)).status).toBe(204)
    expect((await cluster('DELETE', `/projects/${projectId}/dictionaries/files/fresh.csv`)).status).toBe(204)
  })

  it('an upload the cluster fails (not a 400) comes back on the form, what was typed kept (decision 103)', async () => {
    failWith('/config/v1/orgs/:org/projects/:project/dictionaries/files/', 503, '', 'post')
    const form = new FormData()
    for (const [key, value] of Object.entries({ ...COUNTRY_FORM, project: projectId, name: 'typed_dict', file: '' }))
      form.append(key, value)
    form.append('upload', new File(['id,name,continent\n7,Chile,America\n'], 'up.csv', { type: 'text/csv' }))
    form.append('intent', 'save')
    const request = new Request(`${TEST_CONSOLE_URL}/data/dictionaries/new-data-dictionary`, {
      method: 'POST',
      body: form,
      headers: { Cookie: cookie },
    })
    const { data, status } = unwrap<FormReply>(await returnedOrThrown(() => newAction(args(request))))
    expect(status).toBe(503)
    expect(data.result.error?.['']?.[0]).toMatch(/unavailable|went wrong/i)
    expect(data.result.initialValue).toMatchObject({ name: 'typed_dict', project: projectId })
  })

  it('takes the same form by XHR (with scripts, for the progress bar) and answers JSON', async () => {
    const send = (fields: Record<string, string>, file: { name: string; content: BlobPart }) => {
      const form = new FormData()
      for (const [key, value] of Object.entries(fields)) form.append(key, value)
      form.append('upload', new File([file.content], file.name, { type: 'text/csv' }))
      const request = new Request(`${TEST_CONSOLE_URL}/resources/dictionary-create`, {
        method: 'POST',
        body: form,
        headers: { Cookie: cookie, Accept: 'application/json' },
      })
      return createRoute(args(request))
    }
    const fields = { ...COUNTRY_FORM, project: projectId, name: 'by_xhr', file: '' }
    const bad = await send({ ...fields, name: '9bad' }, { name: 'xhr.csv', content: 'id,name,continent\n1,a,b\n' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as FormReply).result.error).toEqual({
      name: ['Name must start with a letter and contain only letters, digits and underscores'],
    })
    const ok = await send(fields, { name: 'xhr.csv', content: 'id,name,continent\n1,a,b\n' })
    const answer = (await ok.json()) as { status: string; redirectTo: string }
    expect(answer.status).toBe('success')
    expect(answer.redirectTo).toMatch(new RegExp(`^/data/dictionaries/${projectId}/[\\w-]+/edit-dictionary$`))
    expect(ok.headers.get('Set-Cookie')).toBeTruthy()
    const dictionaryId = answer.redirectTo.split('/')[4]!
    expect((await cluster('DELETE', `/projects/${projectId}/dictionaries/${dictionaryId}`)).status).toBe(204)
    expect((await cluster('DELETE', `/projects/${projectId}/dictionaries/files/xhr.csv`)).status).toBe(204)
  })

  it('answers the spec messages at their fields, keeping what was typed', async () => {
    const typed = {
      project: '',
      name: 'y'.repeat(64),
      schemaDefinition: '{oops',
      primaryKey: 'id',
      format: 'CSV',
      layout: 'hashed',
      file: '',
      description: 'kept',
    }
    const { data, status } = unwrap<FormReply>(await create(typed))
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      project: ['Project is required'],
      name: ['Name must be under 64 symbols'],
      schemaDefinition: ['Schema definition must be JSON'],
      primaryKey: ['Primary key must be JSON'],
      file: ['File selection is required'],
    })
    expect(data.result.initialValue).toMatchObject({ schemaDefinition: '{oops', primaryKey: 'id', description: 'kept' })
    const empty = unwrap<FormReply>(await create({ project: projectId, name: 'd' }))
    expect(empty.data.result.error).toMatchObject({
      schemaDefinition: ['Schema definition is required'],
      primaryKey: ['Primary key is required'],
      format: ['Format is required'],
      layout: ['Layout is required'],
    })
    const shape = unwrap<FormReply>(
      await create({ ...COUNTRY_FORM, project: projectId, schemaDefinition: '[1, 2]', primaryKey: '{"a": 1}' }),
    )
    expect(shape.data.result.error).toMatchObject({
      schemaDefinition: [expect.stringMatching(/^Schema definition must be a JSON list of columns/)],
      primaryKey: [expect.stringMatching(/^Primary key must be a JSON list/)],
    })
  })

  it("puts the cluster's refusals on the fields: another project's file, a key that is not a column", async () => {
    const { data, status } = unwrap<FormReply>(
      await create({ ...COUNTRY_FORM, project: projectId, file: 'elsewhere.csv', primaryKey: '["nope"]' }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.file?.[0]).toMatch(/does not exist in project "geo"/)
    expect(data.result.error?.primaryKey?.[0]).toMatch(/must be output columns: nope/)
  })

  it('creates the dictionary, whose page then shows it answering a dictGet lookup', async () => {
    const { path, dictionaryId } = await createOk({ ...COUNTRY_FORM, project: projectId })
    const page = await editLoader(args(get(path, cookie), { projectId, dictionaryId }))
    expect(page.dictionary).toMatchObject({ name: 'countries', sqlName: 'geo_countries' })
    expect(page.values).toMatchObject({
      file: 'countries.csv',
      primaryKey: '["id"]',
      layout: 'hashed',
      lifetimeSeconds: '5',
    })
    expect(page.lookup).toMatchObject({
      status: 'done',
      keys: [{ column: 'id', type: 'UInt64', value: '1' }],
      values: [
        { attribute: 'name', value: 'France' },
        { attribute: 'continent', value: 'Europe' },
      ],
    })
    expect(page.lookup.sql).toContain("dictGet('geo_countries', 'name', CAST('1' AS UInt64))")

    const chosen = await editLoader(args(get(`${path}?k0=2`, cookie), { projectId, dictionaryId }))
    expect(chosen.lookup).toMatchObject({
      status: 'done',
      values: [
        { attribute: 'name', value: 'Japan' },
        { attribute: 'continent', value: 'Asia' },
      ],
    })
    const refused = await editLoader(args(get(`${path}?k0=not-a-number`, cookie), { projectId, dictionaryId }))
    expect(refused.lookup.status).toBe('failed')
    if (refused.lookup.status === 'failed') expect(refused.lookup.error).toMatch(/Code: \d+|Exception/)
  })

  it('looks up a string key through a complex-key layout', async () => {
    const { path, dictionaryId } = await createOk({
      ...COUNTRY_FORM,
      project: projectId,
      name: 'languages',
      schemaDefinition: '{"code": "string", "label": "string"}',
      primaryKey: '"code"',
      layout: 'complex_key_hashed',
      file: 'codes.csv',
    })
    const page = await editLoader(args(get(`${path}?k0=jp`, cookie), { projectId, dictionaryId }))
    expect(page.lookup).toMatchObject({ status: 'done', values: [{ attribute: 'label', value: 'Japanese' }] })
  })
})

describe('/data/dictionaries', () => {
  it('lists dictionaries of every project with their file, filtered by project and name', async () => {
    const all = await listLoader(args(get('/data/dictionaries', cookie)))
    expect(all.rows.map((row) => row.name)).toEqual(['countries', 'languages'])
    expect(all.rows[0]).toMatchObject({ projectName: 'geo', file: 'countries.csv', primaryKey: 'id', layout: 'hashed' })
    expect((await listLoader(args(get(`/data/dictionaries?project=${otherProjectId}`, cookie)))).total).toBe(0)
    const named = await listLoader(args(get(`/data/dictionaries?project=${projectId}&q=LANG&pageSize=10`, cookie)))
    expect(named.rows.map((row) => row.name)).toEqual(['languages'])
  })

  it('shows a cluster failure with the catalogue message', async () => {
    failWith('/config/v1/orgs/:org/projects/:project/dictionaries/', 500, { detail: 'boom' }, 'get')
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() => listLoader(args(get('/data/dictionaries', cookie)))),
    )
    expect(thrown.status).toBe(500)
  })
})

describe('/data/dictionaries/$projectId/$dictionaryId/edit-dictionary', () => {
  it('saves changes (the cluster reloads), keeps a bad edit on the form, and deletes after the confirmation step', async () => {
    const { path, dictionaryId } = await createOk({ ...COUNTRY_FORM, project: projectId, name: 'editable' })
    const ids = { projectId, dictionaryId }
    const bad = unwrap<FormReply>(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              path,
              { ...COUNTRY_FORM, intent: 'save', project: projectId, name: 'editable', primaryKey: '[' },
              cookie,
            ),
            ids,
          ),
        ),
      ),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.result.error?.primaryKey).toEqual(['Primary key must be JSON'])

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              path,
              {
                ...COUNTRY_FORM,
                intent: 'save',
                project: projectId,
                name: 'renamed',
                description: 'Changed',
                schemaDefinition: '{"id": "uint64", "name": "string", "continent": "string"}',
              },
              cookie,
            ),
            ids,
          ),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const page = await editLoader(args(get(`${path}?k0=2`, cookie), ids))
    expect(page.dictionary).toMatchObject({ name: 'renamed', description: 'Changed', sqlName: 'geo_renamed' })
    expect(page.lookup).toMatchObject({
      status: 'done',
      values: [
        { attribute: 'name', value: 'Japan' },
        { attribute: 'continent', value: 'Asia' },
      ],
    })

    expect((await editLoader(args(get(`${path}?delete=${dictionaryId}`, cookie), ids))).isConfirmingDelete).toBe(true)
    const deleted = asResponse(
      await returnedOrThrown(() => editAction(args(post(path, { intent: 'delete-dictionary' }, cookie), ids))),
    )
    expect(deleted.headers.get('Location')).toBe('/data/dictionaries')
    const gone = unwrap<{ message: string }>(await returnedOrThrown(() => editLoader(args(get(path, cookie), ids))))
    expect(gone.status).toBe(404)
  })
})

describe('/queries/reference (Beyond)', () => {
  it("lists the org's dictionaries with the name dictGet takes, their key and a lookup to copy", async () => {
    const { loader: referenceLoader } = await import('../queries+/reference')
    const data = await referenceLoader(args(get('/queries/reference', cookie)))
    const languages = data.dictionaries.find((dictionary) => dictionary.name === 'languages')
    expect(languages).toMatchObject({ project: 'geo', sqlName: 'geo_languages', key: ['code'], attributes: ['label'] })
    expect(languages!.editUrl).toMatch(new RegExp(`^/data/dictionaries/${projectId}/[\\w-]+/edit-dictionary$`))
  })
})
