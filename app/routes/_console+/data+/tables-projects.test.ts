import { beforeAll, describe, expect, it } from 'vitest'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { action as newTableAction } from './new-table'
import { action as listAction, loader as listLoader } from './tables._index'

useTestCluster()

type Reply = {
  projectResult?: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
  deleteProjectResult?: { error?: Record<string, string[]> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const send = (form: Record<string, string>) =>
  returnedOrThrown(() => listAction(args(post('/data/tables', form, cookie))))
const load = (search: string) => listLoader(args(get(`/data/tables${search}`, cookie)))

async function createProjectOk(name: string, description = '') {
  const response = asResponse(await send({ intent: 'create-project', name, description }))
  expect(response.status).toBe(302)
  const projectId = response.headers.get('Location')!.match(/manage-project=([\w-]+)/)![1]!
  return projectId
}

describe('projects on /data/tables', () => {
  it('creates a project with the spec rules at the fields, everything typed kept', async () => {
    // the form's HTML constraints come with the step: its schema loads after hydration (decision 077)
    expect((await load('?manage-project=new')).projectStep).toEqual({
      kind: 'new',
      denied: null,
      constraint: { name: expect.objectContaining({ required: true }), description: { required: false } },
    })
    const bad = unwrap<Reply>(await send({ intent: 'create-project', name: 'x'.repeat(70), description: 'kept' }))
    expect(bad.status).toBe(400)
    expect(bad.data.projectResult?.error).toEqual({ name: ['Project name must be under 64 symbols'] })
    expect(bad.data.projectResult?.initialValue).toMatchObject({ description: 'kept' })
    const empty = unwrap<Reply>(await send({ intent: 'create-project', name: '' }))
    expect(empty.data.projectResult?.error).toEqual({ name: ['Project name is required'] })

    const projectId = await createProjectOk('proj_one', 'First')
    const step = (await load(`?manage-project=${projectId}`)).projectStep
    expect(step).toMatchObject({
      kind: 'manage',
      project: { uuid: projectId, name: 'proj_one', description: 'First', tables: [], functions: [] },
    })

    // A taken name comes back at the field from the cluster.
    const taken = unwrap<Reply>(await send({ intent: 'create-project', name: 'proj_one' }))
    expect(taken.status).toBe(400)
    expect(taken.data.projectResult?.error?.name?.[0]).toMatch(/already exists/)
  })

  it('renames and describes a project', async () => {
    const projectId = await createProjectOk('proj_rename')
    const bad = unwrap<Reply>(await send({ intent: 'update-project', projectId, name: '1bad' }))
    expect(bad.data.projectResult?.error?.name).toEqual([
      'Project name must start with a letter and contain only letters, digits and underscores',
    ])
    asResponse(await send({ intent: 'update-project', projectId, name: 'proj_renamed', description: 'Described' }))
    const step = (await load(`?manage-project=${projectId}`)).projectStep
    expect(step).toMatchObject({ project: { name: 'proj_renamed', description: 'Described' } })
  })

  it('shows what is inside before the delete and needs FORCE when something goes with it', async () => {
    const projectId = await createProjectOk('proj_full')
    asResponse(
      await returnedOrThrown(() =>
        newTableAction(args(post('/data/new-table', { project: projectId, name: 'inside' }, cookie))),
      ),
    )
    const step = (await load(`?delete-project=${projectId}`)).projectStep
    expect(step).toMatchObject({ kind: 'delete', project: { tables: [{ name: 'inside' }], stats: { total_rows: 0 } } })

    const bad = unwrap<Reply>(await send({ intent: 'delete-project', projectId, confirm: 'nope' }))
    expect(bad.status).toBe(400)
    expect(bad.data.deleteProjectResult?.error).toEqual({ confirm: ['Type FORCE to confirm'] })
    const done = asResponse(await send({ intent: 'delete-project', projectId, confirm: 'FORCE' }))
    expect(done.headers.get('Location')).toBe('/data/tables')
    expect((await load(`?manage-project=${projectId}`)).projectStep).toEqual({ kind: 'missing' })
  })

  it('deletes an empty project without FORCE', async () => {
    const projectId = await createProjectOk('proj_empty')
    const done = asResponse(await send({ intent: 'delete-project', projectId }))
    expect(done.status).toBe(302)
    const list = await load('')
    expect(list.rows.some((row) => row.projectId === projectId)).toBe(false)
  })

  it('an unknown intent is a 400; a project id that is not one shows "missing", never a 500', async () => {
    const thrown = unwrap<{ message: string }>(await send({ intent: 'nope' }))
    expect(thrown.status).toBe(400)
    expect((await load('?manage-project=not-a-uuid')).projectStep).toEqual({ kind: 'missing' })
  })
})
