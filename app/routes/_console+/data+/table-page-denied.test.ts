import { beforeAll, describe, expect, it } from 'vitest'
import { ClusterError } from '~/api/errors.server'
import { readPart } from '~/api/part-read.server'
import { clusterCall, makeTable } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, post, returnedOrThrown } from '#tests/session'
import { loader as tableLoader } from './tables.$tableId._index'

useTestCluster()

/*
 * Issue 54, point 6: a project-scoped user's own table page answered 403 because the page's other
 * reads (transforms, statistics, views, sources) need more than the role gives. Each part is now
 * read on its own (readPart): what the role allows is shown, and each part it refuses is marked.
 */

const PASSWORD = 'a-long-password-1'
let ids: { projectId: string; tableId: string }
const cookies: Record<string, string> = {}

async function loginAs(email: string) {
  const { action } = await import('~/routes/_auth+/login')
  return cookieFrom(
    asResponse(await returnedOrThrown(() => action(args(post('/login', { email, password: PASSWORD }))))),
  )
}

const pageOf = (cookie: string) =>
  tableLoader(args(get(`/data/tables/${ids.tableId}?project=${ids.projectId}`, cookie), { tableId: ids.tableId }))

beforeAll(async () => {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString().replace('.000', '')
  ids = await makeTable('scoped_page', 'events', [{ timestamp: at, level: 'info', message: 'seen by a scoped role' }])
  // the table and its rows, in its project only: no transforms, statistics, views or sources
  await clusterCall('POST', '/config/v1/roles/', {
    name: 'scoped_page_rows',
    policies: [
      { permissions: ['view_project', 'view_table', 'select_sql'], scope_type: 'project', scope_id: ids.projectId },
    ],
  })
  // the built-in Reader's permissions, scoped to the project (as a scoped invite grants them)
  const reader = await clusterCall<{ results: { name: string; policies: { permissions: string[] }[] }[] }>(
    'GET',
    '/config/v1/roles/',
  )
  await clusterCall('POST', '/config/v1/roles/', {
    name: 'scoped_page_reader',
    policies: [
      {
        permissions: reader.results.find((role) => role.name === 'reader')!.policies[0]!.permissions,
        scope_type: 'project',
        scope_id: ids.projectId,
      },
    ],
  })
  for (const role of ['scoped_page_rows', 'scoped_page_reader']) {
    const email = `${role}@example.com`
    await clusterCall('POST', '/config/v1/users/', { email, password: PASSWORD, roles: [role] })
    cookies[role] = await loginAs(email)
  }
})

describe('a project-scoped user on their own table page', () => {
  it('with only the table and its rows: the page loads, each part it may not read marked', async () => {
    const page = await pageOf(cookies.scoped_page_rows!)
    expect(page.table.uuid).toBe(ids.tableId)
    expect(page.tableData.rows!.rows.map((row) => row.at(-1))).toEqual(['seen by a scoped role'])
    expect(page.transformsDenied).toBe(true)
    expect(page.transforms).toEqual([])
    expect(page.statsDenied).toBe(true)
    expect(page.related.views).toEqual({ value: null, denied: true, error: null })
    expect(page.sources).toEqual({ value: null, denied: true, error: null })
    // what the role may not do is still offered disabled, with the permission named
    expect(page.denied.change).toMatch(/change_table/)
  })

  it("with the Reader's rights in the project: every part is read, none marked", async () => {
    const page = await pageOf(cookies.scoped_page_reader!)
    expect(page.transformsDenied).toBe(false)
    expect(page.transforms.map((transform) => transform.name)).toEqual(['events_json'])
    expect(page.statsDenied).toBe(false)
    expect(page.stats?.total_rows).toBe(1)
    expect(page.related.views.denied).toBe(false)
    expect(page.sources).toEqual({ value: [], denied: false, error: null })
  })
})

describe('readPart', () => {
  it('a 403 is denied, another cluster failure its message, anything else thrown', async () => {
    expect(await readPart(async () => 7)).toEqual({ value: 7, denied: false, error: null })
    const refused = new ClusterError({ status: 403 })
    expect(await readPart(() => Promise.reject(refused))).toEqual({ value: null, denied: true, error: null })
    const failed = new ClusterError({ status: 503, message: 'The cluster is busy.' })
    expect(await readPart(() => Promise.reject(failed))).toEqual({
      value: null,
      denied: false,
      error: 'The cluster is busy.',
    })
    await expect(readPart(() => Promise.reject(new TypeError('a bug')))).rejects.toThrow('a bug')
  })
})
