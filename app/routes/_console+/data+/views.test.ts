import { beforeAll, describe, expect, it } from 'vitest'
import { clusterAdminLogin } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as newViewAction, loader as newViewLoader } from './new-view'
import { loader as detailLoader } from './tables.$tableId._index'
import { action as editViewAction, loader as editViewLoader } from './tables.$tableId.view.edit.$viewId'

useTestCluster()

type FormReply = { result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } }

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

async function createTableOk(name: string) {
  const response = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: `p_${name}`, name }, cookie)),
      ),
    ),
  )
  const [, tableId, projectId] = response.headers
    .get('Location')!
    .match(/^\/data\/tables\/([\w-]+)\?project=([\w-]+)$/)!
  return { tableId: tableId!, projectId: projectId! }
}

async function publishTransform(projectId: string, tableId: string) {
  const { token, orgId } = await clusterAdminLogin()
  const response = await fetch(
    `http://cluster.test/config/v1/orgs/${orgId}/projects/${projectId}/tables/${tableId}/transforms/`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'json_in',
        type: 'json',
        settings: {
          output_columns: [
            { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
            { name: 'host', datatype: { type: 'string' } },
            { name: 'status', datatype: { type: 'uint32' } },
          ],
        },
      }),
    },
  )
  expect(response.status, await response.clone().text()).toBe(201)
}

const createView = (form: Record<string, string | string[]>) => {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(form)) for (const item of [value].flat()) body.append(key, item)
  const request = new Request('http://console.test/data/new-view', {
    method: 'POST',
    body,
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
  })
  return returnedOrThrown(() => newViewAction(args(request)))
}

describe('/data/new-view and /data/tables/$tableId/view/edit/$viewId', () => {
  it('asks for a table first; the table must contain auto_view', async () => {
    const { tableId, projectId } = await createTableOk('no_auto_view')
    const first = await newViewLoader(args(get('/data/new-view', cookie)))
    expect(first.table).toBe('')
    // the picker lists what a search finds (issue 33), not every table of the org
    const found = await newViewLoader(args(get('/data/new-view?table_q=no_auto_view', cookie)))
    expect(found.search?.choices.map((choice) => `${choice.project}.${choice.name}`)).toEqual([
      'p_no_auto_view.no_auto_view',
    ])
    const none = await newViewLoader(args(get('/data/new-view?table_q=no_such_table_anywhere', cookie)))
    expect(none.search).toMatchObject({ choices: [], hasMore: false })
    // a bare table id is found by id, its label read from the cluster
    const byId = await newViewLoader(args(get(`/data/new-view?table=${tableId}`, cookie)))
    expect(byId).toMatchObject({ table: `${projectId}/${tableId}`, label: 'p_no_auto_view.no_auto_view' })

    const chosen = await newViewLoader(args(get(`/data/new-view?table=${projectId}/${tableId}`, cookie)))
    expect(chosen).toMatchObject({ table: `${projectId}/${tableId}`, views: [], hasAutoView: false })

    const refused = unwrap<FormReply>(
      await createView({ table: `${projectId}/${tableId}`, name: 'v', parentView: 'x', outputColumns: 'host' }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error).toEqual({ table: ['The table must contain auto_view'] })
  })

  it('the spec rules at their fields, everything typed kept', async () => {
    const bad = unwrap<FormReply>(await createView({ name: 'x'.repeat(64), description: 'kept' }))
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toEqual({
      table: ['Table is required'],
      name: ['Name must be under 64 symbols'],
      parentView: ['Parent view is required'],
      outputColumns: ['Output columns must not be empty'],
    })
    expect(bad.data.result.initialValue).toMatchObject({ description: 'kept' })
  })

  it('creates a view from auto_view, lists it on the table page, edits and deletes it', async () => {
    const { tableId, projectId } = await createTableOk('with_views')
    await publishTransform(projectId, tableId)
    const loaded = await newViewLoader(args(get(`/data/new-view?table=${tableId}`, cookie)))
    expect(loaded.hasAutoView).toBe(true)
    const autoView = loaded.views.find((view) => view.name === 'auto_view')!
    expect(autoView.columns.map((column) => column.name)).toEqual(['timestamp', 'host', 'status'])

    const notInParent = unwrap<FormReply>(
      await createView({
        table: loaded.table,
        name: 'slim',
        parentView: autoView.uuid,
        outputColumns: ['host', 'nope'],
      }),
    )
    expect(notInParent.data.result.error).toEqual({ outputColumns: ['Column nope is not in the parent view'] })

    const created = asResponse(
      await createView({
        table: loaded.table,
        name: 'slim',
        description: 'Two columns',
        parentView: autoView.uuid,
        outputColumns: ['timestamp', 'host'],
      }),
    )
    expect(created.status).toBe(302)
    expect(created.headers.get('Location')).toBe(`/data/tables/${tableId}?project=${projectId}#views`)

    const page = await detailLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    const slim = page.related.views.value!.find((view) => view.name === 'slim')!
    expect(slim.columns).toBe(2)

    const taken = unwrap<FormReply>(
      await createView({ table: loaded.table, name: 'slim', parentView: autoView.uuid, outputColumns: 'host' }),
    )
    expect(taken.status).toBe(400)
    expect(taken.data.result.error?.name?.[0]).toMatch(/already exists/)

    const editUrl = `/data/tables/${tableId}/view/edit/${slim.uuid}?project=${projectId}`
    const edit = await editViewLoader(args(get(editUrl, cookie), { tableId, viewId: slim.uuid }))
    expect(edit.view).toMatchObject({
      name: 'slim',
      description: 'Two columns',
      columns: ['timestamp', 'host'],
      parentView: autoView.uuid,
    })
    expect(edit.views.map((view) => view.name)).toContain('auto_view')

    const saved = asResponse(
      await returnedOrThrown(() =>
        editViewAction(
          args(post(editUrl, { name: 'slimmer', parentView: autoView.uuid, outputColumns: 'status' }, cookie), {
            tableId,
            viewId: slim.uuid,
          }),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const after = await editViewLoader(args(get(editUrl, cookie), { tableId, viewId: slim.uuid }))
    expect(after.view).toMatchObject({ name: 'slimmer', columns: ['status'] })

    const deleted = asResponse(
      await returnedOrThrown(() =>
        editViewAction(args(post(editUrl, { intent: 'delete-view' }, cookie), { tableId, viewId: slim.uuid })),
      ),
    )
    expect(deleted.status).toBe(302)
    const gone = unwrap<{ message: string }>(
      await returnedOrThrown(() => editViewLoader(args(get(editUrl, cookie), { tableId, viewId: slim.uuid }))),
    )
    expect(gone.status).toBe(404)
  })

  it('a view id that does not exist is a 404, never a 500', async () => {
    const { tableId, projectId } = await createTableOk('missing_view')
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() =>
        editViewLoader(
          args(get(`/data/tables/${tableId}/view/edit/nope?project=${projectId}`, cookie), { tableId, viewId: 'nope' }),
        ),
      ),
    )
    expect([404, 400]).toContain(thrown.status)
  })
})
