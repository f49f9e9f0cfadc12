import { beforeAll, describe, expect, it } from 'vitest'
import { clusterAdminLogin, clusterCall } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { getZodConstraint } from '@conform-to/zod/v4'
import { NEW_PROJECT, TableFormSchema } from '~/schemas/table'
import { action as newTableAction, loader as newTableLoader } from './new-table'
import { action as detailAction, loader as detailLoader } from './tables.$tableId._index'
import { loader as listLoader } from './tables._index'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

async function createTable(form: Record<string, string>) {
  return returnedOrThrown(() => newTableAction(args(post('/data/new-table', form, cookie))))
}

/** Creates a table (in a new project unless `project` is a uuid) and returns its ids from the redirect. */
async function createTableOk(name: string, project: string = NEW_PROJECT, newProjectName = `p_${name}`) {
  const response = asResponse(await createTable({ project, newProjectName, name }))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const location = response.headers.get('Location')!
  const [, tableId, projectId] = location.match(/^\/data\/tables\/([\w-]+)\?project=([\w-]+)$/)!
  return { tableId: tableId!, projectId: projectId!, location, response }
}

describe('/data/new-table', () => {
  it('needs a session: without one it redirects to login with prevUrl', async () => {
    const thrown = await responseFrom(() => newTableLoader(args(get('/data/new-table'))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Fnew-table')
  })

  it('offers a new project when the org has none, and preselects ?project=', async () => {
    const empty = await newTableLoader(args(get('/data/new-table', cookie)))
    expect(empty).toEqual({
      denied: null,
      projects: [],
      project: NEW_PROJECT,
      constraint: getZodConstraint(TableFormSchema),
    })
    expect(empty.constraint.name).toMatchObject({ required: true })
    const { projectId } = await createTableOk('first_table')
    const chosen = await newTableLoader(args(get(`/data/new-table?project=${projectId}`, cookie)))
    expect(chosen.project).toBe(projectId)
    expect(chosen.projects).toEqual([{ uuid: projectId, name: 'p_first_table' }])
  })

  it('answers the spec messages at their fields with status 400 and keeps what was typed', async () => {
    const typed = {
      project: NEW_PROJECT,
      newProjectName: '',
      name: 'x'.repeat(64),
      maxAgeDays: '1.5',
      sortKeys: '[oops',
      description: 'kept',
    }
    const { data, status } = unwrap<FormReply>(await createTable(typed))
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      newProjectName: ['Project name is required'],
      name: ['Name must be under 64 symbols'],
      maxAgeDays: ['Max age must be an integer'],
      sortKeys: ['Sort keys must be JSON'],
    })
    expect(data.result.initialValue).toMatchObject({
      name: 'x'.repeat(64),
      maxAgeDays: '1.5',
      sortKeys: '[oops',
      description: 'kept',
    })
  })

  it('creates the project and the table with its settings, then redirects to the table with a toast', async () => {
    const response = asResponse(
      await createTable({
        project: NEW_PROJECT,
        newProjectName: 'weblogs',
        name: 'access',
        description: 'Access logs',
        maxAgeDays: '30',
        sortKeys: '["timestamp"]',
      }),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toMatch(/^\/data\/tables\/[\w-]{36}\?project=[\w-]{36}$/)
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)

    const [, tableId, projectId] = response.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)!
    const detail = await detailLoader(
      args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId: tableId! }),
    )
    expect(detail.table).toMatchObject({ uuid: tableId, name: 'access', description: 'Access logs' })
    expect(detail.project).toEqual({ uuid: projectId, name: 'weblogs' })
    const entries = Object.fromEntries(
      detail.settings.flatMap((group) => group.entries.map((entry) => [`${group.title}/${entry.label}`, entry.value])),
    )
    expect(entries['Data lifecycle/Max age (days)']).toBe('30')
    expect(entries['Index/Sort keys (JSON)']).toBe('["timestamp"]')
  })

  it("puts the cluster's field errors on the form's fields: a taken table name lands on Table name", async () => {
    const { projectId } = await createTableOk('taken')
    const { data, status } = unwrap<FormReply>(
      await createTable({ project: projectId, name: 'taken', description: 'again' }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.name?.[0]).toMatch(/already exists/)
    expect(data.result.initialValue).toMatchObject({ project: projectId, name: 'taken', description: 'again' })
  })

  it('puts a taken project name on New project name, and nested settings errors on their fields', async () => {
    await createTableOk('t1', NEW_PROJECT, 'shared_project')
    const project = unwrap<FormReply>(
      await createTable({ project: NEW_PROJECT, newProjectName: 'shared_project', name: 't2' }),
    )
    expect(project.data.result.error?.newProjectName?.[0]).toMatch(/already exists/)
    expect(project.data.result.error?.name).toBeUndefined()

    const { projectId } = await createTableOk('t3')
    failWith(
      '/config/v1/orgs/:org/projects/:project/tables/',
      400,
      {
        settings: {
          age: { max_age_days: ['Ensure this value is greater than or equal to 0.'] },
          sort_keys: ['Unknown column.'],
          merge: { x: ['y'] },
        },
      },
      'post',
    )
    const nested = unwrap<FormReply>(
      await createTable({ project: projectId, name: 't4', maxAgeDays: '5', sortKeys: '["nope"]' }),
    )
    expect(nested.data.result.error).toMatchObject({
      maxAgeDays: ['Ensure this value is greater than or equal to 0.'],
      sortKeys: ['Unknown column.'],
      // A field the form lacks is not lost: it becomes a general error.
      '': ['settings.merge.x: y'],
    })
  })

  it('keeps a project it created when the table then fails, and selects it for the next try', async () => {
    failWith('/config/v1/orgs/:org/projects/:project/tables/', 400, { name: ['Bad name.'] }, 'post')
    const { data, status } = unwrap<FormReply>(
      await createTable({ project: NEW_PROJECT, newProjectName: 'made_anyway', name: 'bad' }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.name).toEqual(['Bad name.'])
    expect(data.result.error?.['']).toEqual(['Project made_anyway was created; the table was not.'])
    const loaded = await newTableLoader(args(get('/data/new-table', cookie)))
    const made = loaded.projects.find((project) => project.name === 'made_anyway')!
    expect(data.result.initialValue?.project).toBe(made.uuid)
    expect(data.result.initialValue?.newProjectName).toBeUndefined()
  })

  it('answers other cluster failures with the form as typed and the catalogue message as its error (issue 37)', async () => {
    const { projectId } = await createTableOk('before_500')
    failWith('/config/v1/orgs/:org/projects/:project/tables/', 500, { detail: 'boom' }, 'post')
    const reply = unwrap<{ result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }>(
      await createTable({ project: projectId, name: 'during_500' }),
    )
    expect(reply.status).toBe(500)
    expect(reply.data.result.error?.['']).toEqual([
      'Internal server error. If this is reoccurring, please contact us at support@example.com',
    ])
    expect(reply.data.result.initialValue).toMatchObject({ name: 'during_500' })
  })
})

describe('/data/tables', () => {
  it('lists projects with their tables, a project without tables as its own row', async () => {
    const data = await listLoader(args(get('/data/tables', cookie)))
    const access = data.rows.find((row) => row.table?.name === 'access')
    expect(access).toMatchObject({
      projectName: 'weblogs',
      table: { name: 'access', description: 'Access logs', type: 'turbine' },
    })
    expect(data.rows.some((row) => row.projectName === 'made_anyway' && row.table === null)).toBe(true)
    expect(data.tableCount).toBe(data.rows.filter((row) => row.table).length)
  })

  it('filters by table or project name and pages with the URL', async () => {
    const { projectId } = await createTableOk('paged_00', NEW_PROJECT, 'paging_project')
    for (let i = 1; i < 12; i++) await createTableOk(`paged_${String(i).padStart(2, '0')}`, projectId)

    const first = await listLoader(args(get('/data/tables?q=PAGED_&pageSize=10', cookie)))
    expect(first).toMatchObject({ total: 12, page: 1, pageCount: 2, pageSize: 10, q: 'PAGED_' })
    expect(first.rows.map((row) => row.table?.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `paged_${String(i).padStart(2, '0')}`),
    )
    const second = await listLoader(args(get('/data/tables?q=paged_&pageSize=10&page=2', cookie)))
    expect(second.rows.map((row) => row.table?.name)).toEqual(['paged_10', 'paged_11'])

    // A project's name matches all of its tables.
    const byProject = await listLoader(args(get('/data/tables?q=paging_project', cookie)))
    expect(byProject.total).toBe(12)

    const none = await listLoader(args(get('/data/tables?q=no-such-thing', cookie)))
    expect(none).toMatchObject({ rows: [], total: 0, page: 1 })
  })

  it('shows a project made elsewhere (another replica, the API) on the next view, and one made here (decision 060)', async () => {
    await listLoader(args(get('/data/tables', cookie)))
    await clusterCall('POST', '/config/v1/orgs/{org}/projects/', { name: 'made_elsewhere' })
    const next = await listLoader(args(get('/data/tables', cookie)))
    expect(next.rows.some((row) => row.projectName === 'made_elsewhere')).toBe(true)

    await createTableOk('made_here', NEW_PROJECT, 'made_here_project')
    const now = await listLoader(args(get('/data/tables', cookie)))
    expect(now.rows.some((row) => row.projectName === 'made_here_project' && row.table?.name === 'made_here')).toBe(
      true,
    )
  })

  it('leaves out a project deleted while the page reads it (its tables answer 404), on every kind of page', async () => {
    const { projectId } = await createTableOk('gone_soon_table', NEW_PROJECT, 'gone_soon_project')
    const gone = `/config/v1/orgs/:org/projects/${projectId}/tables/`
    const shows = (data: { rows: { projectName: string }[] }) =>
      data.rows.some((row) => row.projectName === 'gone_soon_project')
    // the project list is read, then the project is deleted (another user, replica or tool) before its tables are
    for (const path of ['/data/tables', '/data/tables?pageSize=1&page=2', '/data/tables?q=gone_soon']) {
      failWith(gone, 404, { detail: 'Not found.' }, 'get')
      const data = await listLoader(args(get(path, cookie)))
      expect(shows(data), path).toBe(false)
      // the page stands: the other projects are listed (the search finds only the gone one)
      if (!path.includes('q=')) expect(data.rows.length, path).toBeGreaterThan(0)
    }
    // and any other failure of a project's tables is still the page's
    failWith(gone, 500, { detail: 'boom' }, 'get')
    const failed = await returnedOrThrown(() => listLoader(args(get('/data/tables?q=gone_soon', cookie))))
    expect(unwrap(failed).status).toBe(500)
  })

  it('ends the session on a 401 from the cluster', async () => {
    failWith('/config/v1/orgs/:org/projects/', 401, { detail: 'Token expired.' }, 'get')
    const thrown = await responseFrom(() => listLoader(args(get('/data/tables?page=2', cookie))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ftables%3Fpage%3D2')
    expect(thrown.headers.getSetCookie().join('\n')).toMatch(/cc_session=;/)
  })
})

describe('/data/tables/$tableId', () => {
  it('finds the table without ?project= by looking through the projects, and lists its transforms', async () => {
    const { tableId, projectId } = await createTableOk('with_transform')
    const transform = await fetch(
      `http://cluster.test/config/v1/orgs/${await orgId()}/projects/${projectId}/tables/${tableId}/transforms/`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await adminToken()}` },
        body: JSON.stringify({
          name: 'json_in',
          type: 'json',
          settings: {
            is_default: true,
            output_columns: [
              { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
              { name: 'message', datatype: { type: 'string' } },
            ],
          },
        }),
      },
    )
    expect(transform.status, await transform.clone().text()).toBe(201)

    const data = await detailLoader(args(get(`/data/tables/${tableId}`, cookie), { tableId }))
    expect(data.project.uuid).toBe(projectId)
    expect(data.transforms).toMatchObject([{ name: 'json_in', type: 'json', isDefault: true, columns: 2 }])
    expect(data.isConfirmingDelete).toBe(false)
    // how to send it data over HTTP (issue 36, item 9): the cluster's address as the console reaches it, no token
    expect(data.ingest).toMatchObject({
      url: 'http://cluster.test/ingest/event',
      tableRef: 'p_with_transform.with_transform',
      transform: { name: 'json_in', type: 'json' },
      hasStreamTokens: false,
    })
    expect(data.ingest.transform?.editTo).toMatch(/\/transform\/edit\/[\w-]+\?project=[\w-]+#sample-data$/)
    expect(JSON.stringify(data)).not.toContain(await adminToken())

    // Rows ingested through the transform show in the table's statistics.
    const ingest = await fetch('http://cluster.test/ingest/event', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await adminToken()}`,
        'x-hdx-table': `p_with_transform.with_transform`,
        'x-hdx-transform': 'json_in',
      },
      body: JSON.stringify([
        { timestamp: '2026-11-01T10:00:00Z', message: 'a' },
        { timestamp: '2026-11-02T10:00:00Z', message: 'b' },
        { timestamp: '2026-11-03T10:00:00Z', message: 'c' },
      ]),
    })
    expect(ingest.status, await ingest.clone().text()).toBe(200)
    const withRows = await detailLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(withRows.stats).toMatchObject({ total_rows: 3 })
    expect(Date.parse(withRows.stats!.oldest_timestamp!)).toBe(Date.parse('2026-11-01T10:00:00Z'))
  })

  it('still shows the table when the cluster cannot give its statistics', async () => {
    const { tableId, projectId } = await createTableOk('no_stats')
    failWith('/config/v1/orgs/:org/projects/:project/tables/:table/stats', 500)
    const data = await detailLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(data.table.name).toBe('no_stats')
    expect(data.stats).toBeNull()
  })

  it('answers 404 with the catalogue message for an unknown table, even with a wrong ?project=', async () => {
    const { projectId } = await createTableOk('neighbour')
    for (const path of [
      '/data/tables/00000000-0000-4000-8000-000000000000',
      `/data/tables/not-a-uuid?project=${projectId}`,
    ]) {
      const thrown = unwrap<{ message: string }>(
        await returnedOrThrown(() =>
          detailLoader(args(get(path, cookie), { tableId: path.split('/')[3]!.split('?')[0]! })),
        ),
      )
      expect(thrown.status).toBe(404)
      expect(thrown.data.message).toBe('404 Error: Not Found.')
    }
  })

  it('asks to confirm with ?delete=<tableId>, wants FORCE typed, then deletes on POST and goes back to the list with a toast', async () => {
    const { tableId, projectId } = await createTableOk('doomed')
    const confirm = await detailLoader(
      args(get(`/data/tables/${tableId}?project=${projectId}&delete=${tableId}`, cookie), { tableId }),
    )
    expect(confirm.isConfirmingDelete).toBe(true)
    const other = await detailLoader(
      args(get(`/data/tables/${tableId}?project=${projectId}&delete=someone-else`, cookie), { tableId }),
    )
    expect(other.isConfirmingDelete).toBe(false)

    // Without FORCE (or with anything else) the table stays and the field says why.
    for (const typed of [{}, { confirm: 'force' }] as Record<string, string>[]) {
      const refused = unwrap(
        await detailAction(
          args(
            post(
              `/data/tables/${tableId}?project=${projectId}&delete=${tableId}`,
              { intent: 'delete-table', project: projectId, ...typed },
              cookie,
            ),
            { tableId },
          ),
        ),
      )
      expect(refused.status).toBe(400)
      expect(refused.data).toMatchObject({ deleteResult: { error: { confirm: ['Type FORCE to confirm'] } } })
    }
    expect((await detailLoader(args(get(`/data/tables/${tableId}`, cookie), { tableId }))).table.name).toBe('doomed')

    const response = asResponse(
      await returnedOrThrown(() =>
        detailAction(
          args(
            post(
              `/data/tables/${tableId}?project=${projectId}`,
              { intent: 'delete-table', project: projectId, confirm: 'FORCE' },
              cookie,
            ),
            { tableId },
          ),
        ),
      ),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/data/tables')
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)

    const gone = unwrap(
      await returnedOrThrown(() =>
        detailLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId })),
      ),
    )
    expect(gone.status).toBe(404)
  })

  it('refuses a POST without the delete intent', async () => {
    const { tableId, projectId } = await createTableOk('kept')
    const thrown = unwrap(
      await returnedOrThrown(() =>
        detailAction(args(post(`/data/tables/${tableId}`, { project: projectId }, cookie), { tableId })),
      ),
    )
    expect(thrown.status).toBe(400)
    const still = await detailLoader(args(get(`/data/tables/${tableId}`, cookie), { tableId }))
    expect(still.table.name).toBe('kept')
  })
})

// The admin's own token and org, for setting up what the console cannot create yet (transforms).
const adminToken = async () => (await clusterAdminLogin()).token
const orgId = async () => (await clusterAdminLogin()).orgId
