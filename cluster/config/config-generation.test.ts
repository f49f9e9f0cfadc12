import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, startTestCluster, type TestCluster } from '../test-helpers'

/*
 * Decision 113: answers made from configuration alone carry the configuration generation they were
 * made at (`x-config-generation`), and users/current names the generation as it is now, on its 200
 * and its 304 alike; the console shows a kept answer again only while the two agree. So the stamp
 * must move with every change a stamped answer could show, and must not be on an answer that reads
 * anything else (the engine, the clock, activity).
 */

let t: TestCluster
let projectId: string

const HEADER = 'x-config-generation'
const now = async () => (await t.api('GET', '/config/v1/users/current')).headers.get(HEADER)
const stampOf = async (path: string) => {
  const answer = await t.api('GET', path)
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200)
  return answer.headers.get(HEADER)
}
const projects = () => `/config/v1/orgs/${t.orgId}/projects/`

beforeAll(async () => {
  t = await startTestCluster()
  const project = await t.api('POST', projects(), { name: 'stamped' })
  expect(project.status, JSON.stringify(project.body)).toBe(201)
  projectId = project.body.uuid
})
afterAll(async () => {
  await t?.close()
})

describe('the configuration generation (decision 113)', () => {
  test('users/current names it on its answer and on its 304 alike', async () => {
    const first = await t.api('GET', '/config/v1/users/current')
    const generation = first.headers.get(HEADER)
    expect(generation).toMatch(/^[0-9a-f]{8}\.\d+$/)
    const again = await t.api('GET', '/config/v1/users/current', undefined, undefined, {
      'if-none-match': first.headers.get('etag')!,
    })
    expect(again.status).toBe(304)
    expect(again.headers.get(HEADER)).toBe(generation)
  })

  test('a list and an object made from configuration carry the generation of now; a change moves both', async () => {
    const before = await now()
    expect(await stampOf(projects())).toBe(before)
    expect(await stampOf(`${projects()}${projectId}`)).toBe(before)
    const tables = `${projects()}${projectId}/tables/`
    expect(await stampOf(tables)).toBe(before)

    const made = await t.api('POST', tables, { name: 'moved' })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const after = await now()
    expect(after).not.toBe(before)
    // the new answers name the new generation; the list's own shows the new table
    const list = await t.api('GET', tables)
    expect(list.headers.get(HEADER)).toBe(after)
    expect(list.body.results.map((table: { name: string }) => table.name)).toContain('moved')
    // a change to a kind the list's answer reads through its serializer (a table's transforms) moves it too
    await t.api('POST', `${tables}${made.body.uuid}/transforms/`, {
      name: 'moved_transform',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
        ],
      },
    })
    expect(await now()).not.toBe(after)
    expect(await stampOf(tables)).toBe(await now())
  })

  test('a role given or a grant changed moves it (a list filtered by grants is shown to who may see it)', async () => {
    const before = await now()
    const role = await t.api('POST', '/config/v1/roles/', {
      name: 'stamp_probe',
      policies: [{ permissions: ['view_project'], scope_type: 'org' }],
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    expect(await now()).not.toBe(before)
  })

  test('activity leaves it as it was: a login, a failed login, a log-out', async () => {
    const before = await now()
    const login = await t.api(
      'POST',
      '/config/v1/login',
      { username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
      null,
    )
    expect(login.status).toBe(200)
    expect(
      (await t.api('POST', '/config/v1/login', { username: TEST_ADMIN_EMAIL, password: 'wrong' }, null)).status,
    ).toBe(401)
    const other = login.body.auth_token.access_token as string
    expect((await t.api('POST', '/config/v1/logout', undefined, other)).status).toBeLessThan(300)
    expect(await now()).toBe(before)
  })

  test('answers that read the engine, the clock or activity carry no stamp', async () => {
    const tables = `${projects()}${projectId}/tables/`
    const table = (await t.api('GET', tables)).body.results[0].uuid as string
    for (const path of [
      `/config/v1/orgs/${t.orgId}/summary`,
      `${tables}${table}/stats`,
      `/config/v1/orgs/${t.orgId}/jobs/batch/`,
      // users and invites have views of their own (a status read from the clock)
      '/config/v1/users/',
      '/config/v1/invites/',
    ]) {
      const answer = await t.api('GET', path)
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200)
      expect(answer.headers.get(HEADER), path).toBeNull()
    }
  })
})
