import { beforeAll, describe, expect, it } from 'vitest'
import { clusterAdminLogin } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { TEST_CONSOLE_URL } from '#tests/env'
import { MALFORMED_FORM_MESSAGE } from '~/utils/form-shape'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { action as editAction, loader as editLoader } from './functions.$projectId.$functionId.edit-function'
import { loader as listLoader } from './functions._index'
import { action as newAction, loader as newLoader } from './functions.new-custom-function'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

/** Creates a project straight on the cluster and returns its uuid. */
async function createProject(name: string): Promise<string> {
  const { token, orgId } = await clusterAdminLogin()
  const response = await fetch(`http://cluster.test/config/v1/orgs/${orgId}/projects/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { uuid: string }).uuid
}

async function create(form: Record<string, string>) {
  return returnedOrThrown(() => newAction(args(post('/data/functions/new-custom-function', form, cookie))))
}

/** Creates a function through the form's action and returns its ids from the redirect. */
async function createOk(project: string, name: string, sql: string) {
  const response = asResponse(await create({ project, name, sql, description: `About ${name}` }))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const [, projectId, functionId] = response.headers
    .get('Location')!
    .match(/^\/data\/functions\/([\w-]+)\/([\w-]+)\/edit-function$/)!
  return { projectId: projectId!, functionId: functionId!, response }
}

const editArgs = (path: string, ids: { projectId: string; functionId: string }, form?: Record<string, string>) =>
  args(form ? post(path, form, cookie) : get(path, cookie), ids)

let projectA: string
let projectB: string
beforeAll(async () => {
  projectA = await createProject('fn_alpha')
  projectB = await createProject('fn_beta')
})

describe('/data/functions/new-custom-function', () => {
  it('needs a session', async () => {
    const thrown = await responseFrom(() => newLoader(args(get('/data/functions/new-custom-function'))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Ffunctions%2Fnew-custom-function')
  })

  it('lists the projects and preselects ?project=', async () => {
    const data = await newLoader(args(get(`/data/functions/new-custom-function?project=${projectB}`, cookie)))
    expect(data.project).toBe(projectB)
    expect(data.projects.map((p) => p.name)).toEqual(['fn_alpha', 'fn_beta'])
  })

  it('answers the spec messages with 400 and keeps what was typed', async () => {
    const { data, status } = unwrap<FormReply>(
      await create({ project: '', name: 'x'.repeat(64), sql: '', description: 'kept' }),
    )
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      project: ['Project must be selected'],
      name: ['Name must be under 64 symbols'],
      sql: ['SQL expression is required'],
    })
    expect(data.result.initialValue).toMatchObject({ name: 'x'.repeat(64), description: 'kept' })
  })

  it("puts the engine's verdict on a bad expression at the SQL field, keeping it", async () => {
    const { data, status } = unwrap<FormReply>(
      await create({ project: projectA, name: 'broken', sql: '(x) -> x +* 1' }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.sql?.[0]).toMatch(/Syntax error|SYNTAX_ERROR|Exception/i)
    expect(data.result.initialValue).toMatchObject({ sql: '(x) -> x +* 1', name: 'broken' })
  })

  it('creates the function and redirects to its page with a toast', async () => {
    const { response } = await createOk(projectA, 'linear_fn', '(x, k, b) -> k*x + b')
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
  })
})

describe('/data/functions', () => {
  it('lists functions of every project, filters by project and name, pages in the URL', async () => {
    for (let i = 0; i < 11; i++) await createOk(projectB, `paged_fn_${String(i).padStart(2, '0')}`, 'x -> x + 1')
    const all = await listLoader(args(get('/data/functions', cookie)))
    expect(
      all.rows.some(
        (row) => row.name === 'linear_fn' && row.projectName === 'fn_alpha' && row.sql === '(x, k, b) -> k*x + b',
      ),
    ).toBe(true)
    expect(all.itemCount).toBe(12)

    const onlyA = await listLoader(args(get(`/data/functions?project=${projectA}`, cookie)))
    expect(onlyA.rows.map((row) => row.name)).toEqual(['linear_fn'])

    const page2 = await listLoader(args(get(`/data/functions?project=${projectB}&q=PAGED&pageSize=10&page=2`, cookie)))
    expect(page2).toMatchObject({ total: 11, page: 2, pageCount: 2, project: projectB })
    expect(page2.rows.map((row) => row.name)).toEqual(['paged_fn_10'])

    const none = await listLoader(args(get(`/data/functions?project=${projectA}&q=paged`, cookie)))
    expect(none.total).toBe(0)
  })

  it('shows a cluster failure with the catalogue message', async () => {
    failWith('/config/v1/orgs/:org/projects/', 503, '', 'get')
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() => listLoader(args(get('/data/functions', cookie)))),
    )
    expect(thrown.status).toBe(503)
  })
})

describe('/data/functions/$projectId/$functionId/edit-function', () => {
  it('runs "try it" with typed arguments and shows the answer, a refused one with the engine error', async () => {
    const ids = await createOk(projectA, 'greet_fn', "(who, n) -> concat('hi ', who, ' ', toString(n * 2))")
    const base = `/data/functions/${ids.projectId}/${ids.functionId}/edit-function`
    const idle = await editLoader(editArgs(base, ids))
    expect(idle.fn).toMatchObject({ name: 'greet_fn', description: 'About greet_fn' })
    expect(idle.tryOutcome.status).toBe('idle')
    expect(idle.tryOutcome.arguments.map((arg) => arg.parameter)).toEqual(['who', 'n'])

    const ran = await editLoader(
      editArgs(`${base}?try=1&a0=${encodeURIComponent("o'brien")}&t0=string&a1=21&t1=number`, ids),
    )
    expect(ran.tryOutcome).toMatchObject({
      status: 'done',
      value: "hi o'brien 42",
      sql: "SELECT greet_fn('o\\'brien', 21) AS result",
    })

    const invalid = await editLoader(editArgs(`${base}?try=1&a0=x&t0=string&a1=abc&t1=number`, ids))
    expect(invalid.tryOutcome.status).toBe('invalid')
    expect(invalid.tryOutcome.arguments[1]!.error).toBe('Not a number')

    const refused = await editLoader(editArgs(`${base}?try=1&a0=1&t0=number&a1=x&t1=string`, ids))
    expect(refused.tryOutcome.status).toBe('failed')
    if (refused.tryOutcome.status === 'failed') expect(refused.tryOutcome.error).toMatch(/Exception|Code:/)
  })

  it('saves a new expression (checked by the cluster) and keeps a bad one on the form', async () => {
    const ids = await createOk(projectA, 'double_fn', 'x -> x * 2')
    const base = `/data/functions/${ids.projectId}/${ids.functionId}/edit-function`
    const bad = unwrap<FormReply>(
      await returnedOrThrown(() =>
        editAction(editArgs(base, ids, { intent: 'save', project: ids.projectId, name: 'double_fn', sql: 'x -> x *' })),
      ),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.result.error?.sql?.length).toBe(1)
    expect(bad.data.result.initialValue).toMatchObject({ sql: 'x -> x *' })

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          editArgs(base, ids, { intent: 'save', project: ids.projectId, name: 'triple_fn', sql: 'x -> x * 3' }),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(base)
    const ran = await editLoader(editArgs(`${base}?try=1&a0=5&t0=number`, ids))
    expect(ran.fn.name).toBe('triple_fn')
    expect(ran.tryOutcome).toMatchObject({ status: 'done', value: '15' })
  })

  it('an edit without its project, or with it twice (a field the page sets), says the form could not be read, at the top', async () => {
    const ids = await createOk(projectA, 'hidden_fn', 'x -> x')
    const base = `/data/functions/${ids.projectId}/${ids.functionId}/edit-function`
    for (const project of [[], [ids.projectId, ids.projectId]]) {
      const body = new URLSearchParams([
        ['intent', 'save'],
        ['name', 'hidden_fn'],
        ['sql', 'x -> x + 1'],
        ...project.map((value) => ['project', value]),
      ])
      const request = new Request(`${TEST_CONSOLE_URL}${base}`, { method: 'POST', body, headers: { Cookie: cookie } })
      const params = { projectId: ids.projectId, functionId: ids.functionId }
      const refused = unwrap<FormReply>(await returnedOrThrown(() => editAction(args(request, params))))
      expect(refused.status).toBe(400)
      expect(refused.data.result.error?.['']).toEqual([MALFORMED_FORM_MESSAGE])
      expect(refused.data.result.initialValue).toMatchObject({ sql: 'x -> x + 1' })
    }
  })

  it('asks before deleting with ?delete=, then deletes and goes back to the list', async () => {
    const ids = await createOk(projectB, 'doomed_fn', 'x -> x')
    const base = `/data/functions/${ids.projectId}/${ids.functionId}/edit-function`
    expect((await editLoader(editArgs(`${base}?delete=${ids.functionId}`, ids))).isConfirmingDelete).toBe(true)
    const response = asResponse(
      await returnedOrThrown(() => editAction(editArgs(base, ids, { intent: 'delete-function' }))),
    )
    expect(response.headers.get('Location')).toBe('/data/functions')
    const gone = unwrap<{ message: string }>(await returnedOrThrown(() => editLoader(editArgs(base, ids))))
    expect(gone.status).toBe(404)
  })
})
