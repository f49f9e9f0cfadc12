import { beforeAll, describe, expect, it } from 'vitest'
import { clusterAdminLogin } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { TEST_CONSOLE_URL } from '#tests/env'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { MAX_UPLOAD_BYTES } from '~/schemas/file'
import { action as uploadRoute } from '../../resources+/dictionary-file-upload'
import { loader as downloadLoader } from '../../resources+/dictionary-file.$projectId.$name'
import { action as updateAction, loader as updateLoader } from './files.$projectId.$name.update-file'
import { loader as listLoader } from './files._index'
import { action as newAction, loader as newLoader } from './files.new-file'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
let projectId: string
let token: string
let orgId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  ;({ token, orgId } = await clusterAdminLogin())
  const response = await fetch(`http://cluster.test/config/v1/orgs/${orgId}/projects/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'files_project' }),
  })
  projectId = ((await response.json()) as { uuid: string }).uuid
})

/** A multipart POST to the console, as a browser sends the upload form without scripts. */
function multipart(
  path: string,
  fields: Record<string, string>,
  file?: { name: string; content: BlobPart; type?: string },
) {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  if (file) form.append('file', new File([file.content], file.name, { type: file.type ?? 'text/csv' }))
  return new Request(`${TEST_CONSOLE_URL}${path}`, { method: 'POST', body: form, headers: { Cookie: cookie } })
}

const CSV = 'id,country\n1,France\n2,Japan\n'

async function upload(fields: Record<string, string>, file?: { name: string; content: BlobPart; type?: string }) {
  return returnedOrThrown(() => newAction(args(multipart('/data/files/new-file', fields, file))))
}

describe('/data/files/new-file', () => {
  it('preselects ?project= among the projects', async () => {
    const data = await newLoader(args(get(`/data/files/new-file?project=${projectId}`, cookie)))
    expect(data.project).toBe(projectId)
  })

  it('wants a project and a file, keeping the typed name', async () => {
    const { data, status } = unwrap<FormReply>(await upload({ project: '', name: 'kept.csv' }))
    expect(status).toBe(400)
    expect(data.result.error).toMatchObject({
      project: ['Project must be selected'],
      file: ['File upload is required'],
    })
    expect(data.result.initialValue).toMatchObject({ name: 'kept.csv' })
  })

  it('refuses a file whose bytes are not the format its name declares, or an unknown extension', async () => {
    const binary = unwrap<FormReply>(
      await upload(
        { project: projectId, name: 'bad.csv' },
        { name: 'x.csv', content: new Uint8Array([80, 75, 3, 4, 0, 0, 1]) },
      ),
    )
    expect(binary.status).toBe(400)
    expect(binary.data.result.error?.file).toEqual(['The file is not CSV: it holds binary data'])
    const json = unwrap<FormReply>(
      await upload({ project: projectId }, { name: 'not.json', content: 'id,name\n1,a\n' }),
    )
    expect(json.data.result.error?.file?.[0]).toMatch(/^The file is not JSON/)
    const exe = unwrap<FormReply>(await upload({ project: projectId }, { name: 'tool.exe', content: 'MZ' }))
    expect(exe.data.result.error?.file?.[0]).toMatch(/^Upload a \.csv/)
  })

  it('refuses a file over the limit with a clear field error', async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(65)
    const { data, status } = unwrap<FormReply>(
      await upload({ project: projectId, name: 'big.csv' }, { name: 'big.csv', content: big }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.file).toEqual(['The file is too big: at most 200 MB'])
  }, 60_000)

  it('uploads under the typed name or the file’s own, then lands on the file’s page with a toast', async () => {
    const named = asResponse(
      await upload({ project: projectId, name: 'countries.csv' }, { name: 'whatever.csv', content: CSV }),
    )
    expect(named.status).toBe(302)
    expect(named.headers.get('Location')).toBe(`/data/files/${projectId}/countries.csv/update-file`)
    expect(named.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    const own = asResponse(
      await upload({ project: projectId, name: '' }, { name: 'cities.csv', content: 'id,city\n1,Paris\n' }),
    )
    expect(own.headers.get('Location')).toBe(`/data/files/${projectId}/cities.csv/update-file`)

    const page = await updateLoader(
      args(get(`/data/files/${projectId}/countries.csv/update-file`, cookie), { projectId, name: 'countries.csv' }),
    )
    expect(page.file).toMatchObject({ name: 'countries.csv', size: CSV.length })
    expect(page.usedBy).toEqual([])
  })

  it("puts the cluster's refusal of a taken name on the name field", async () => {
    const { data, status } = unwrap<FormReply>(
      await upload({ project: projectId, name: 'countries.csv' }, { name: 'c.csv', content: CSV }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.name?.[0]).toMatch(/already exists/)
  })

  it('a failure that is not a 400 comes back on the form, what was typed kept (decision 103)', async () => {
    failWith('/config/v1/orgs/:org/projects/:project/dictionaries/files/', 503, '', 'post')
    const { data, status } = unwrap<FormReply>(
      await upload({ project: projectId, name: 'typed_here.csv' }, { name: 'c.csv', content: CSV }),
    )
    expect(status).toBe(503)
    expect(data.result.error?.['']?.[0]).toMatch(/unavailable|went wrong/i)
    expect(data.result.initialValue).toMatchObject({ project: projectId, name: 'typed_here.csv' })
  })

  it('answers the XHR path with JSON: where to go (and the toast cookie), or the form errors', async () => {
    const ok = asResponse(
      await uploadRoute(
        args(
          multipart(
            '/resources/dictionary-file-upload',
            { project: projectId },
            { name: 'xhr.json', content: '{"id": 1}\n' },
          ),
        ),
      ),
    )
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ status: 'success', redirectTo: `/data/files/${projectId}/xhr.json/update-file` })
    expect(ok.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    const bad = asResponse(await uploadRoute(args(multipart('/resources/dictionary-file-upload', { project: '' }))))
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as FormReply).result.error?.project).toEqual(['Project must be selected'])
  })
})

describe('/data/files', () => {
  it('lists files across projects with their sizes, filtered by project and name', async () => {
    const all = await listLoader(args(get('/data/files', cookie)))
    expect(all.rows.map((row) => row.name)).toEqual(['cities.csv', 'countries.csv', 'xhr.json'])
    expect(all.rows[1]).toMatchObject({ projectName: 'files_project', size: CSV.length, usedBy: [] })
    const filtered = await listLoader(args(get(`/data/files?project=${projectId}&q=COUNT`, cookie)))
    expect(filtered.rows.map((row) => row.name)).toEqual(['countries.csv'])
    const other = await listLoader(args(get('/data/files?project=00000000-0000-4000-8000-000000000000', cookie)))
    expect(other.total).toBe(0)
  })
})

describe('/data/files/$projectId/$name/update-file', () => {
  const ids = () => ({ projectId, name: 'countries.csv' })
  const pageUrl = () => `/data/files/${projectId}/countries.csv/update-file`

  it('downloads the bytes through the console', async () => {
    const response = asResponse(
      await downloadLoader(args(get(`/resources/dictionary-file/${projectId}/countries.csv`, cookie), ids())),
    )
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="countries.csv"')
    expect(await response.text()).toBe(CSV)
    const missing = asResponse(
      await downloadLoader(
        args(get(`/resources/dictionary-file/${projectId}/nope.csv`, cookie), { projectId, name: 'nope.csv' }),
      ),
    )
    expect(missing.status).toBe(404)
  })

  it('replaces the contents (format checked against the name)', async () => {
    const bad = unwrap<FormReply>(
      await returnedOrThrown(() =>
        updateAction(args(multipart(pageUrl(), {}, { name: 'x.csv', content: new Uint8Array([0, 1, 2]) }), ids())),
      ),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.result.error?.file?.[0]).toMatch(/binary/)
    const replaced = asResponse(
      await returnedOrThrown(() =>
        updateAction(args(multipart(pageUrl(), {}, { name: 'anything.csv', content: `${CSV}3,Peru\n` }), ids())),
      ),
    )
    expect(replaced.status).toBe(302)
    const download = asResponse(
      await downloadLoader(args(get(`/resources/dictionary-file/${projectId}/countries.csv`, cookie), ids())),
    )
    expect(await download.text()).toBe(`${CSV}3,Peru\n`)
  })

  it("an unchanged replacement keeps the stored file's metadata (issue 32)", async () => {
    const TSV = 'id\tcountry\n1\tFrance\n'
    const form = new FormData()
    form.append('name', 'kept.tsv')
    form.append('file', new File([TSV], 'kept.tsv', { type: 'text/tab-separated-values' }))
    const made = await fetch(`http://cluster.test/config/v1/orgs/${orgId}/projects/${projectId}/dictionaries/files/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    })
    expect(made.status, await made.clone().text()).toBe(201)
    const stored = async () => {
      const listed = await fetch(
        `http://cluster.test/config/v1/orgs/${orgId}/projects/${projectId}/dictionaries/files?detail=1`,
        { headers: { Authorization: `Bearer ${token}` } },
      )
      const body = (await listed.json()) as { results?: Record<string, unknown>[] } | Record<string, unknown>[]
      const files = Array.isArray(body) ? body : (body.results ?? [])
      const { modified: _modified, ...rest } = files.find((file) => file.name === 'kept.tsv')!
      return rest
    }
    const before = await stored()
    const params = { projectId, name: 'kept.tsv' }
    const url = `/data/files/${projectId}/kept.tsv/update-file`
    // the same file as the browser names its type, then from a browser that names none
    for (const type of ['text/tab-separated-values', '']) {
      const replaced = asResponse(
        await returnedOrThrown(() =>
          updateAction(args(multipart(url, {}, { name: 'kept.tsv', content: TSV, type }), params)),
        ),
      )
      expect(replaced.status).toBe(302)
      expect(await stored()).toEqual(before)
    }
  })

  it('will not delete a file a dictionary uses, and says which; deletes it once free', async () => {
    const created = await fetch(`http://cluster.test/config/v1/orgs/${orgId}/projects/${projectId}/dictionaries/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'country_names',
        settings: {
          filename: 'countries.csv',
          format: 'CSVWithNames',
          layout: 'hashed',
          primary_key: ['id'],
          output_columns: [
            { name: 'id', datatype: { type: 'uint64' } },
            { name: 'country', datatype: { type: 'string' } },
          ],
        },
      }),
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const page = await updateLoader(args(get(`${pageUrl()}?delete=countries.csv`, cookie), ids()))
    expect(page.usedBy.map((item) => item.name)).toEqual(['country_names'])
    const refused = unwrap<{ deleteError: string }>(
      await returnedOrThrown(() => updateAction(args(post(pageUrl(), { intent: 'delete-file' }, cookie), ids()))),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.deleteError).toBe(
      'This file cannot be deleted: it is used by dictionary country_names. Delete or change that dictionary first.',
    )
    const listed = await listLoader(args(get('/data/files?q=countries', cookie)))
    expect(listed.rows[0]!.usedBy.map((item) => item.name)).toEqual(['country_names'])

    const free = await returnedOrThrown(() =>
      updateAction(
        args(post(`/data/files/${projectId}/cities.csv/update-file`, { intent: 'delete-file' }, cookie), {
          projectId,
          name: 'cities.csv',
        }),
      ),
    )
    expect(asResponse(free).headers.get('Location')).toBe('/data/files')
    const gone = unwrap<{ message: string }>(
      await returnedOrThrown(() =>
        updateLoader(
          args(get(`/data/files/${projectId}/cities.csv/update-file`, cookie), { projectId, name: 'cities.csv' }),
        ),
      ),
    )
    expect(gone.status).toBe(404)
  })

  it('says the cluster’s own refusal when it refuses a delete the console thought free', async () => {
    failWith(
      '/config/v1/orgs/:org/projects/:project/dictionaries/files/:name',
      400,
      { detail: 'The file is used by dictionary "x".' },
      'delete',
    )
    const refused = unwrap<{ deleteError: string }>(
      await returnedOrThrown(() =>
        updateAction(
          args(post(`/data/files/${projectId}/xhr.json/update-file`, { intent: 'delete-file' }, cookie), {
            projectId,
            name: 'xhr.json',
          }),
        ),
      ),
    )
    expect(refused.data.deleteError).toBe('The file is used by dictionary "x".')
  })
})
