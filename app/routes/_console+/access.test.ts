import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, post, returnedOrThrown, unwrap } from '#tests/session'
import { loader as tableLoader, action as tableAction } from './data+/tables.$tableId._index'
import { loader as alterJobsLoader } from './jobs+/alter-jobs._index'
import { loader as poolLoader } from './scale+/pool.$poolId'

useTestCluster()

/*
 * Edit and delete controls outside the people pages (issue 10, Beyond): each page's loader says,
 * per control, why the signed-in user may not use it, checked against the user's policies in the
 * item's scope when the user may read roles. Real users against the local cluster; each withheld
 * control is also really refused by the cluster, and each offered one really works.
 */

const PASSWORD = 'a-long-password-1'
const cookies: Record<string, string> = {}
let mine = { projectId: '', tableId: '' }
let theirs = { projectId: '', tableId: '' }
let poolId = ''

async function loginAs(email: string) {
  const { action } = await import('~/routes/_auth+/login')
  return cookieFrom(
    asResponse(await returnedOrThrown(() => action(args(post('/login', { email, password: PASSWORD }))))),
  )
}

beforeAll(async () => {
  mine = await makeTable('scoped_mine', 'events')
  theirs = await makeTable('scoped_theirs', 'events')
  poolId = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/pools/', {
      name: 'access-pool',
      settings: { k8s_deployment: { service: 'merge-peer', replicas: '1', cpu: '1', memory: '1Gi', storage: '1Gi' } },
    })
  ).uuid
  // Reads everything in the org (roles too, so its scopes can be resolved); changes tables of one project only.
  await clusterCall('POST', '/config/v1/roles/', {
    name: 'mine_editor',
    policies: [
      {
        permissions: [
          'view_org',
          'view_project',
          'view_table',
          'view_transform',
          'view_view',
          'view_role',
          'view_pool',
          'view_alterjob',
        ],
        scope_type: 'org',
        scope_id: null,
      },
      {
        permissions: ['change_table', 'truncate_table', 'delete_table'],
        scope_type: 'project',
        scope_id: mine.projectId,
      },
    ],
  })
  for (const [email, roles] of [
    ['publisher@access.test', ['publisher']],
    ['operator@access.test', ['operator']],
    ['reader@access.test', ['reader']],
    ['admin@access.test', ['org_admin']],
    ['editor@access.test', ['mine_editor']],
  ] as const) {
    await clusterCall('POST', '/config/v1/users/', { email, password: PASSWORD, roles })
    cookies[email.split('@')[0]!] = await loginAs(email)
  }
})

const tablePage = (ids: { projectId: string; tableId: string }, cookie: string) =>
  tableLoader(args(get(`/data/tables/${ids.tableId}?project=${ids.projectId}`, cookie), { tableId: ids.tableId }))

describe('a table page offers rename, settings, truncate and delete only where the cluster would allow them', () => {
  it('reader: each control is withheld with the permission and the table named', async () => {
    const page = await tablePage(mine, cookies.reader!)
    expect(page.denied).toEqual({
      change: 'Needs change_table on table scoped_mine.events',
      truncate: 'Needs truncate_table on table scoped_mine.events',
      remove: 'Needs delete_table on table scoped_mine.events',
    })
    // ?edit=rename opened by its URL shows no form to a reader
    const renaming = await tableLoader(
      args(get(`/data/tables/${mine.tableId}?project=${mine.projectId}&edit=rename`, cookies.reader), {
        tableId: mine.tableId,
      }),
    )
    expect(renaming.isRenaming).toBe(false)
  })

  it('org admin: every control is offered', async () => {
    const page = await tablePage(mine, cookies.admin!)
    expect(page.denied).toEqual({ change: null, truncate: null, remove: null })
  })

  it('a project-scoped grant counts in its project only: offered on scoped_mine, withheld on scoped_theirs', async () => {
    expect((await tablePage(mine, cookies.editor!)).denied).toEqual({ change: null, truncate: null, remove: null })
    expect((await tablePage(theirs, cookies.editor!)).denied).toEqual({
      change: 'Needs change_table on table scoped_theirs.events',
      truncate: 'Needs truncate_table on table scoped_theirs.events',
      remove: 'Needs delete_table on table scoped_theirs.events',
    })
  })

  it('and the cluster agrees: truncating their table is refused (403), truncating its own works', async () => {
    const truncate = (ids: { projectId: string; tableId: string }) =>
      returnedOrThrown(() =>
        tableAction(
          args(
            post(
              `/data/tables/${ids.tableId}?project=${ids.projectId}`,
              { intent: 'truncate-table', project: ids.projectId, confirm: 'FORCE' },
              cookies.editor,
            ),
            { tableId: ids.tableId },
          ),
        ),
      )
    const refused = unwrap<{ status: number; message: string }>(await truncate(theirs)).data
    expect(refused.status).toBe(403)
    expect(refused.message).toMatch(/permission/i)
    const done = asResponse(await truncate(mine))
    expect(done.status).toBe(302)
  })
})

describe('each built-in role: what the table page offers is exactly what the cluster allows', () => {
  for (const role of ['reader', 'publisher', 'operator', 'admin'] as const) {
    it(`${role}: offered ⇔ the user holds the permission; a withheld truncate is refused (403), an offered one works`, async () => {
      const { api } = await import('~/api/client.server').then(async ({ requireApi }) => ({
        api: await requireApi(get('/data/tables', cookies[role])),
      }))
      const held = await api.get<{ permissions: string[] }>('/users/current')
      const page = await tablePage(mine, cookies[role]!)
      for (const [control, permission] of [
        ['change', 'change_table'],
        ['truncate', 'truncate_table'],
        ['remove', 'delete_table'],
      ] as const) {
        expect(page.denied[control] === null, `${role} ${control}`).toBe(held.permissions.includes(permission))
      }
      const answer = await returnedOrThrown(() =>
        tableAction(
          args(
            post(
              `/data/tables/${mine.tableId}?project=${mine.projectId}`,
              { intent: 'truncate-table', project: mine.projectId, confirm: 'FORCE' },
              cookies[role],
            ),
            { tableId: mine.tableId },
          ),
        ),
      )
      if (page.denied.truncate) expect(unwrap<{ status: number }>(answer).data.status).toBe(403)
      else expect(asResponse(answer).status).toBe(302)
    })
  }
})

describe('pools and jobs', () => {
  it("a pool's Save and Delete are withheld from a reader, offered to an org admin", async () => {
    const asReader = await poolLoader(args(get(`/scale/pool/${poolId}`, cookies.reader), { poolId }))
    expect(asReader.denied).toEqual({ change: 'Needs change_pool', remove: 'Needs delete_pool' })
    const asAdmin = await poolLoader(args(get(`/scale/pool/${poolId}`, cookies.admin), { poolId }))
    expect(asAdmin.denied).toEqual({ change: null, remove: null })
  })

  it('the alter job list withholds commit, cancel, retry, delete and purge from a reader', async () => {
    const list = unwrap<{ denied: Record<string, string | null> }>(
      await alterJobsLoader(args(get('/jobs/alter-jobs', cookies.reader))),
    ).data
    expect(list.denied).toEqual({
      commit: 'Needs commit_alterjob',
      cancel: 'Needs cancel_alterjob',
      retry: 'Needs retry_alterjob',
      delete: 'Needs delete_alterjob',
    })
    const asAdmin = unwrap<{ denied: Record<string, string | null> }>(
      await alterJobsLoader(args(get('/jobs/alter-jobs', cookies.admin))),
    ).data
    expect(Object.values(asAdmin.denied).every((reason) => reason === null)).toBe(true)
  })
})
