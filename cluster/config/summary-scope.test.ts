import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'

/*
 * Issue 54 (smaller point): a restricted user's dashboard showed the org's counts. The org summary
 * counts what the caller may view, as its lists show it: a Reader scoped to one project gets that
 * project's tables and transforms, no users or roles (its users/ and roles/ answer 403), and an
 * admin the whole org's.
 */

let t: TestCluster
let o: string
const ids: Record<string, string> = {}
let scopedToken = ''
let scopedRoleId = 0

const transformBody = {
  name: 'events_json',
  type: 'json',
  settings: {
    is_default: true,
    output_columns: [
      { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
      { name: 'message', datatype: { type: 'string' } },
    ],
  },
}

async function table(project: string, name: string) {
  const made = await t.api('POST', `${o}/projects/${ids[project]}/tables/`, { name })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  ids[`${project}.${name}`] = made.body.uuid
  const transform = await t.api(
    'POST',
    `${o}/projects/${ids[project]}/tables/${made.body.uuid}/transforms/`,
    transformBody,
  )
  expect(transform.status, JSON.stringify(transform.body)).toBe(201)
  return made.body.uuid as string
}

const summary = async (token?: string) => {
  const r = await t.api('GET', `${o}/summary`, undefined, token)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}

async function userWith(email: string, roles: string[]) {
  const password = 'summary-scope-54'
  const made = await t.api('POST', '/config/v1/users/', { email, password, roles })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const login = await t.api('POST', '/config/v1/login', { username: email, password }, null)
  expect(login.status).toBe(200)
  return login.body.auth_token.access_token as string
}

beforeAll(async () => {
  t = await startTestCluster()
  o = `/config/v1/orgs/${t.orgId}`
  for (const name of ['feeds', 'billing']) {
    const project = await t.api('POST', `${o}/projects/`, { name })
    ids[name] = project.body.uuid
  }
  for (const name of ['a', 'b', 'c']) await table('feeds', name)
  for (const name of ['a', 'b', 'c', 'd', 'e']) await table('billing', name)
  // the built-in Reader's permissions, scoped to project feeds (as a scoped invite makes it: decision 098)
  const roles = (await t.api('GET', '/config/v1/roles/')).body.results as {
    name: string
    policies: { permissions: string[] }[]
  }[]
  const permissions = [...new Set(roles.find((r) => r.name === 'reader')!.policies.flatMap((p) => p.permissions))]
  const role = await t.api('POST', '/config/v1/roles/', {
    name: 'feeds_reader',
    policies: [{ permissions, scope_type: 'project', scope_id: ids.feeds }],
  })
  expect(role.status, JSON.stringify(role.body)).toBe(201)
  scopedRoleId = role.body.id
  scopedToken = await userWith('feeds-reader@example.com', ['feeds_reader'])
})

afterAll(async () => {
  await t?.close()
})

describe('the org summary counts what the caller may view', () => {
  test("a project-scoped Reader gets its project's counts; an admin the org's", async () => {
    const admin = await summary()
    expect(admin).toMatchObject({ projects: 2, tables: 8, transforms: 8, views: 8 })
    expect(admin.users).toBeGreaterThanOrEqual(2)
    expect(admin.roles).toBeGreaterThanOrEqual(8)

    // (each transform brings its table's default view)
    const scoped = await summary(scopedToken)
    expect(scoped).toMatchObject({ projects: 1, tables: 3, summary_tables: 0, transforms: 3, views: 3 })
    // kinds it may not list (users/, roles/, invites/ answer it 403) are left out, not shown as 0
    for (const kind of ['users', 'service_accounts', 'pending_invites', 'roles', 'credentials'])
      expect(scoped, kind).not.toHaveProperty(kind)
    // its Reader grants view_pool in the project only: no pool is in that scope, as pools/ lists none
    expect(scoped.pools).toBe(0)
    expect((await t.api('GET', '/config/v1/pools/', undefined, scopedToken)).body.count).toBe(0)
    expect(scoped.alter_jobs).toEqual({ total: 0 })

    // its counts are what its own lists show
    const projects = await t.api('GET', `${o}/projects/`, undefined, scopedToken)
    expect(projects.body.count).toBe(scoped.projects)
    const tables = await t.api('GET', `${o}/projects/${ids.feeds}/tables/`, undefined, scopedToken)
    expect(tables.body.count).toBe(scoped.tables)
    expect((await t.api('GET', `${o}/projects/${ids.billing}/tables/`, undefined, scopedToken)).body.count).toBe(0)

    // another admin (org_admin, not super_admin) gets the org's counts too
    const orgAdmin = await userWith('org-admin-54@example.com', ['org_admin'])
    const theirs = await summary(orgAdmin)
    expect(theirs).toMatchObject({ projects: 2, tables: 8, transforms: 8 })
    expect(theirs.users).toBe(admin.users + 1)
  })

  test('kept counts follow changes of the tables and of the role (per caller, decision 090)', async () => {
    const before = await summary(scopedToken)
    expect(await summary(scopedToken)).toEqual(before)
    await table('billing', 'f')
    expect((await summary(scopedToken)).tables).toBe(before.tables)
    expect((await summary()).tables).toBe(9)
    const g = await table('feeds', 'g')
    expect((await summary(scopedToken)).tables).toBe(before.tables + 1)
    // the role given one more table: counted again (the roles' generation is in the stamp)
    const role = await t.api('GET', `/config/v1/roles/${scopedRoleId}`)
    const changed = await t.api('PUT', `/config/v1/roles/${scopedRoleId}`, {
      name: role.body.name,
      description: role.body.description,
      policies: [
        ...role.body.policies,
        { permissions: ['view_table'], scope_type: 'table', scope_id: ids['billing.a'] },
      ],
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    const widened = await summary(scopedToken)
    expect(widened.tables).toBe(before.tables + 2)
    // view_table on billing.a alone: its project and transforms are not in the grant
    expect(widened.projects).toBe(before.projects)
    expect(widened.transforms).toBe(before.transforms + 1)
    await t.api('DELETE', `${o}/projects/${ids.feeds}/tables/${g}`)
    expect((await summary(scopedToken)).tables).toBe(before.tables + 1)
    expect((await summary()).tables).toBe(9)
  })
})

describe("the summary's engine figures are the caller's too", () => {
  test('rows stored and rows ingested of the tables it may see stats of; none without stats_table', async () => {
    const rows = (n: number, message: string) =>
      Array.from({ length: n }, (_, i) => ({ timestamp: `2026-12-01T00:00:${String(i).padStart(2, '0')}Z`, message }))
    for (const [table, n] of [
      ['feeds.b', 3],
      ['billing.c', 5],
    ] as const) {
      const sent = await t.api('POST', '/ingest/event', rows(n, table), undefined, { 'x-hdx-table': table })
      expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    }
    // the engine's parts are read at most once a moment (FIGURES_MS): until then the summary's are older
    await expect.poll(async () => (await summary()).total_rows, { timeout: 10_000 }).toBe(8)
    const admin = await summary()
    expect(admin.rows_ingested_last_hour).toBe(8)
    const scoped = await summary(scopedToken)
    expect(scoped.total_rows).toBe(3)
    expect(scoped.rows_ingested_last_hour).toBe(3)
    expect(scoped.raw_data_size).toBeGreaterThan(0)
    expect(scoped.raw_data_size).toBeLessThan(admin.raw_data_size)

    // a role that lists feeds' tables but may not read their statistics: no storage figures at all
    const role = await t.api('POST', '/config/v1/roles/', {
      name: 'feeds_lister',
      policies: [{ permissions: ['view_project', 'view_table'], scope_type: 'project', scope_id: ids.feeds }],
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const lister = await summary(await userWith('feeds-lister@example.com', ['feeds_lister']))
    expect(lister.tables).toBeGreaterThanOrEqual(3)
    for (const key of ['total_rows', 'raw_data_size', 'rows_ingested_last_hour', 'active_jobs'])
      expect(lister, key).not.toHaveProperty(key)
  })
})
