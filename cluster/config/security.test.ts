import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signToken } from '../auth'
import { startTestCluster, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestCluster } from '../test-helpers'

/** Login, tokens, 401/403, users, roles, invites, service accounts, passwords, auth logs, audit trail, version. */

let t: TestCluster
let o: string
let readerToken: string
let projectId: string
let tableId: string

const login = async (username: string, password: string) =>
  t.api('POST', '/config/v1/login', { username, password }, null)
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
})

beforeAll(async () => {
  t = await startTestCluster()
  o = `/config/v1/orgs/${t.orgId}`
  projectId = (await t.api('POST', `${o}/projects`, { name: 'sec' })).body.uuid
  tableId = (await t.api('POST', `${o}/projects/${projectId}/tables`, { name: 'events' })).body.uuid
  const reader = await t.api('POST', '/config/v1/users', {
    email: 'reader@example.com',
    password: 'reader-password',
    roles: ['reader'],
  })
  expect(reader.status).toBe(201)
  readerToken = (await login('reader@example.com', 'reader-password')).body.auth_token.access_token
})

afterAll(async () => {
  await t?.close()
})

describe('login and tokens', () => {
  test('login answers the full shape; email is accepted too', async () => {
    const r = await login(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      email: TEST_ADMIN_EMAIL,
      roles: ['super_admin'],
      auth_token: { expires_in: 86400, token_type: 'Bearer' },
    })
    expect(r.body.orgs[0]).toEqual({
      uuid: t.orgId,
      name: 'local',
      type: 'singletenant',
      cloud: 'aws',
      kubernetes: true,
    })
    expect(r.body.auth_token.access_token.split('.')).toHaveLength(3)
    const byEmail = await t.api(
      'POST',
      '/config/v1/login/',
      { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
      null,
    )
    expect(byEmail.status).toBe(200)
  })

  test('bad credentials: 401 with detail; missing fields: 400', async () => {
    const r = await login(TEST_ADMIN_EMAIL, 'wrong')
    expect(r.status).toBe(401)
    expect(r.body.detail).toBeTruthy()
    expect((await login('nobody@example.com', 'x')).status).toBe(401)
    const missing = await t.api('POST', '/config/v1/login', {}, null)
    expect(missing.body).toEqual({ username: ['This field is required.'], password: ['This field is required.'] })
  })

  test('401 for a missing, malformed, forged or expired token', async () => {
    const missing = await t.api('GET', `${o}/projects`, undefined, null)
    expect(missing.status).toBe(401)
    expect(missing.body).toEqual({ detail: 'Authentication credentials were not provided.' })
    expect((await t.api('GET', `${o}/projects`, undefined, 'garbage')).status).toBe(401)
    const forged = signToken('another-secret', { sub: 'x', typ: 'user', exp: Math.floor(Date.now() / 1000) + 60 })
    expect((await t.api('GET', `${o}/projects`, undefined, forged)).status).toBe(401)
    const me = (await t.api('GET', '/config/v1/users/current')).body
    const expired = signToken(t.handler.state.secret, {
      sub: me.uuid,
      typ: 'user',
      exp: Math.floor(Date.now() / 1000) - 1,
    })
    const r = await t.api('GET', `${o}/projects`, undefined, expired)
    expect(r.status).toBe(401)
    expect(r.body.detail).toMatch(/expired/i)
  })

  test('HTTP Basic and __api_token__ work on the config API', async () => {
    const r = await t.api(
      'GET',
      '/config/v1/users/current',
      undefined,
      null,
      basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD),
    )
    expect(r.status).toBe(200)
    expect(
      (await t.api('GET', '/config/v1/users/current', undefined, null, basic(TEST_ADMIN_EMAIL, 'nope'))).status,
    ).toBe(401)
    expect(
      (await t.api('GET', '/config/v1/users/current', undefined, null, basic('__api_token__', t.token))).status,
    ).toBe(200)
  })

  test('GET /version: text/plain, auth required (bearer or basic)', async () => {
    const r = await t.api('GET', '/version')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/text\/plain/)
    expect(r.body).toBe('v5.12.0')
    expect((await t.api('GET', '/version', undefined, null, basic(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD))).body).toBe(
      'v5.12.0',
    )
    expect((await t.api('GET', '/version', undefined, null)).status).toBe(401)
  })
})

describe('users and permissions', () => {
  test('users/current and users/{uuid}; users list includes roles', async () => {
    const me = await t.api('GET', '/config/v1/users/current')
    expect(me.body).toMatchObject({ email: TEST_ADMIN_EMAIL, roles: ['super_admin'] })
    expect(me.body.permissions).toContain('add_table')
    expect((await t.api('GET', `/config/v1/users/${me.body.uuid}`)).body.email).toBe(TEST_ADMIN_EMAIL)
    const list = await t.api('GET', '/config/v1/users/')
    expect(list.body.results.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining([TEST_ADMIN_EMAIL, 'reader@example.com']),
    )
    const reader = list.body.results.find((u: { email: string }) => u.email === 'reader@example.com')
    expect(reader.roles).toEqual(['reader'])
    // a reader may read themselves but not others
    expect((await t.api('GET', `/config/v1/users/${reader.uuid}`, undefined, readerToken)).status).toBe(200)
    expect((await t.api('GET', `/config/v1/users/${me.body.uuid}`, undefined, readerToken)).status).toBe(403)
  })

  test("users/ pages sorted by ?ordering=email; a role's users follow role changes (its index)", async () => {
    for (const email of ['zz-order@example.com', 'aa-order@example.com'])
      expect((await t.api('POST', '/config/v1/users', { email, password: 'order-password-1', roles: [] })).status).toBe(
        201,
      )
    const all = (await t.api('GET', '/config/v1/users/?ordering=email&page_size=1000')).body.results as {
      email: string
      uuid: string
    }[]
    const emails = all.map((user) => user.email)
    expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)))
    const last = (await t.api('GET', '/config/v1/users/?ordering=-email&page=1&page_size=1')).body
    expect(last.results.map((user: { email: string }) => user.email)).toEqual([emails[emails.length - 1]])
    expect(last.count).toBe(emails.length)

    const role = (await t.api('POST', '/config/v1/roles/', { name: 'order_role', policies: [] })).body as { id: number }
    const user = all.find((entry) => entry.email === 'aa-order@example.com')!
    const usersOf = async () => (await t.api('GET', `/config/v1/roles/${role.id}/`)).body.users
    expect(await usersOf()).toEqual([])
    await t.api('POST', `/config/v1/users/${user.uuid}/add_roles/`, { roles: ['order_role'] })
    expect(await usersOf()).toEqual([user.uuid])
    await t.api('POST', `/config/v1/users/${user.uuid}/remove_roles/`, { roles: ['order_role'] })
    expect(await usersOf()).toEqual([])
  })

  test('a reader can read and gets 403 on changes', async () => {
    expect((await t.api('GET', `${o}/projects`, undefined, readerToken)).status).toBe(200)
    expect((await t.api('GET', `${o}/projects/${projectId}/tables/${tableId}`, undefined, readerToken)).status).toBe(
      200,
    )
    expect((await t.api('GET', '/config/v1/defaults', undefined, readerToken)).status).toBe(200)
    const denied = await t.api('POST', `${o}/projects`, { name: 'nope' }, readerToken)
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' })
    expect((await t.api('PATCH', `${o}/projects/${projectId}`, { description: 'x' }, readerToken)).status).toBe(403)
    expect((await t.api('DELETE', `${o}/projects/${projectId}/tables/${tableId}`, undefined, readerToken)).status).toBe(
      403,
    )
    expect(
      (await t.api('POST', `${o}/projects/${projectId}/tables/${tableId}/truncate`, undefined, readerToken)).status,
    ).toBe(403)
    expect(
      (await t.api('PUT', `${o}/query_options`, { settings: { default_query_options: {} } }, readerToken)).status,
    ).toBe(403)
    expect((await t.api('GET', '/config/v1/roles', undefined, readerToken)).status).toBe(403)
    expect(
      (
        await t.api(
          'POST',
          '/config/v1/pools',
          { name: 'p', settings: { k8s_deployment: { service: 'query-peer' } } },
          readerToken,
        )
      ).status,
    ).toBe(403)
  })

  test('add_roles / remove_roles', async () => {
    const reader = (await t.api('GET', '/config/v1/users?email=reader@example.com')).body.results[0]
    const add = await t.api('POST', `/config/v1/users/${reader.uuid}/add_roles/`, { roles: ['publisher'] })
    expect(add.body.roles).toEqual(['reader', 'publisher'])
    expect((await t.api('POST', `${o}/projects`, { name: 'by_publisher' }, readerToken)).status).toBe(201)
    const rm = await t.api('POST', `/config/v1/users/${reader.uuid}/remove_roles/`, { roles: ['publisher'] })
    expect(rm.body.roles).toEqual(['reader'])
    expect(
      (await t.api('POST', `/config/v1/users/${reader.uuid}/add_roles/`, { roles: ['nope'] })).body.roles[0],
    ).toMatch(/does not exist/)
  })

  test('a role keeps what it was given: its policies in order, their keys (unknown ones too), a null description (issue 32)', async () => {
    const policies = [
      { permissions: ['view_table', 'select_sql'], scope_type: 'table', scope_id: tableId, vendor_hint: { a: [1] } },
      { x_extra: null, permissions: ['view_org'], scope_type: null, scope_id: null },
    ]
    const made = await t.api('POST', '/config/v1/roles/', { name: 'kept-as-given', description: null, policies })
    expect(made.status).toBe(201)
    const read = (await t.api('GET', `/config/v1/roles/${made.body.id}/`)).body
    expect(read.description).toBeNull()
    expect(read.policies).toEqual(policies)
    expect(JSON.stringify(read.policies)).toBe(JSON.stringify(policies))
    // a PATCH of another key leaves the policies as they were
    const patched = (await t.api('PATCH', `/config/v1/roles/${made.body.id}/`, { description: 'd' })).body
    expect(JSON.stringify(patched.policies)).toBe(JSON.stringify(policies))
    // a role without policies is a role a real cluster holds
    expect((await t.api('POST', '/config/v1/roles/', { name: 'no-policies', policies: [] })).status).toBe(201)
  })

  test('custom roles: scoped to a table; permissions catalogue; built-ins are read-only', async () => {
    const cat = await t.api('GET', '/config/v1/roles/permissions/')
    expect(cat.body.find((c: { scope_type: string }) => c.scope_type === 'table').permissions).toContain(
      'view_transform',
    )
    const badName = await t.api('POST', '/config/v1/roles', { name: 'bad role', policies: [] })
    expect(badName.body.name[0]).toMatch(/letters, digits/)
    const bad = await t.api('POST', '/config/v1/roles', {
      name: 'bad',
      policies: [{ permissions: ['fly'] }, { permissions: ['view_table'], scope_type: 'table' }],
    })
    expect(bad.body.policies[0].permissions[0]).toMatch(/not a known permission/)
    expect(bad.body.policies[1].scope_id[0]).toMatch(/scope id is required/)
    const role = await t.api('POST', '/config/v1/roles/', {
      name: 'events-editor',
      policies: [
        {
          permissions: ['view_project', 'view_table', 'change_table', 'add_transform', 'view_transform'],
          scope_type: 'table',
          scope_id: tableId,
        },
      ],
    })
    expect(role.status).toBe(201)
    expect(Number.isInteger(role.body.id)).toBe(true)
    const user = await t.api('POST', '/config/v1/users', {
      email: 'editor@example.com',
      password: 'editor-password',
      roles: [],
    })
    const add = await t.api('POST', `/config/v1/roles/${role.body.id}/add_user/`, { users: [{ uuid: user.body.uuid }] })
    expect(add.body.users).toEqual([user.body.uuid])
    const token = (await login('editor@example.com', 'editor-password')).body.auth_token.access_token
    const other = (await t.api('POST', `${o}/projects/${projectId}/tables`, { name: 'other' })).body
    expect(
      (await t.api('PATCH', `${o}/projects/${projectId}/tables/${tableId}`, { description: 'ok' }, token)).status,
    ).toBe(200)
    expect(
      (await t.api('PATCH', `${o}/projects/${projectId}/tables/${other.uuid}`, { description: 'no' }, token)).status,
    ).toBe(403)
    // the list shows only what the role may see
    const tables = await t.api('GET', `${o}/projects/${projectId}/tables`, undefined, token)
    expect(tables.body.results.map((x: { name: string }) => x.name)).toEqual(['events'])
    await t.api('POST', `/config/v1/roles/${role.body.id}/remove_user/`, { users: [user.body.uuid] })
    expect(
      (await t.api('PATCH', `${o}/projects/${projectId}/tables/${tableId}`, { description: 'no' }, token)).status,
    ).toBe(403)
    const superAdmin = (await t.api('GET', '/config/v1/roles?name=super_admin')).body.results[0]
    expect((await t.api('PATCH', `/config/v1/roles/${superAdmin.id}`, { description: 'x' })).status).toBe(400)
    expect((await t.api('DELETE', `/config/v1/roles/${superAdmin.id}`)).status).toBe(400)
    expect(
      (await t.api('PATCH', `/config/v1/roles/${role.body.id}/`, { description: 'edits events' })).body.description,
    ).toBe('edits events')
    expect((await t.api('DELETE', `/config/v1/roles/${role.body.id}/`)).status).toBe(204)
  })

  test('a project-scoped policy covers the tables inside it, not other projects', async () => {
    const other = (await t.api('POST', `${o}/projects`, { name: 'elsewhere' })).body
    const role = await t.api('POST', '/config/v1/roles', {
      name: 'sec-owner',
      policies: [
        {
          permissions: ['view_project', 'view_table', 'add_table', 'change_table', 'delete_table'],
          scope_type: 'project',
          scope_id: projectId,
        },
      ],
    })
    expect(role.status).toBe(201)
    await t.api('POST', '/config/v1/users', {
      email: 'owner@example.com',
      password: 'owner-password',
      roles: ['sec-owner'],
    })
    const token = (await login('owner@example.com', 'owner-password')).body.auth_token.access_token
    const made = await t.api('POST', `${o}/projects/${projectId}/tables`, { name: 'owned' }, token)
    expect(made.status).toBe(201)
    expect(
      (await t.api('DELETE', `${o}/projects/${projectId}/tables/${made.body.uuid}`, undefined, token)).status,
    ).toBe(204)
    expect((await t.api('POST', `${o}/projects/${other.uuid}/tables`, { name: 'nope' }, token)).status).toBe(403)
    const projects = await t.api('GET', `${o}/projects`, undefined, token)
    expect(projects.body.results.map((p: { name: string }) => p.name)).toEqual(['sec'])
    expect((await t.api('GET', `${o}/projects/${other.uuid}`, undefined, token)).status).toBe(403)
    // a publisher creates but cannot delete
    await t.api('POST', '/config/v1/users', {
      email: 'pub@example.com',
      password: 'pub-password',
      roles: ['publisher'],
    })
    const pub = (await login('pub@example.com', 'pub-password')).body.auth_token.access_token
    const p = await t.api('POST', `${o}/projects`, { name: 'published' }, pub)
    expect(p.status).toBe(201)
    expect((await t.api('DELETE', `${o}/projects/${p.body.uuid}`, undefined, pub)).status).toBe(403)
    expect((await t.api('GET', '/config/v1/orgs', undefined, pub)).body.results[0].uuid).toBe(t.orgId)
  })

  test('delete a user; their token stops working', async () => {
    const u = await t.api('POST', '/config/v1/users', {
      email: 'temp@example.com',
      password: 'temp-password',
      roles: ['reader'],
    })
    const token = (await login('temp@example.com', 'temp-password')).body.auth_token.access_token
    expect((await t.api('GET', '/config/v1/users/current', undefined, token)).status).toBe(200)
    expect((await t.api('DELETE', `/config/v1/users/${u.body.uuid}`)).status).toBe(204)
    expect((await t.api('GET', '/config/v1/users/current', undefined, token)).status).toBe(401)
    const me = (await t.api('GET', '/config/v1/users/current')).body
    expect((await t.api('DELETE', `/config/v1/users/${me.uuid}`)).status).toBe(400)
  })
})

describe('service accounts', () => {
  test('create, token, roles via users/, revoke', async () => {
    const sa = await t.api('POST', '/config/v1/service_accounts/', { name: 'ci-bot', description: 'CI' })
    expect(sa.status).toBe(201)
    expect(sa.body).toMatchObject({ name: 'ci-bot', description: 'CI', roles: [] })
    const tok = await t.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    expect(tok.status).toBe(201)
    const claims = JSON.parse(Buffer.from(tok.body.token.split('.')[1], 'base64url').toString())
    expect(claims.sub).toBe(sa.body.uuid)
    expect(claims.exp - claims.iat).toBeGreaterThan(364 * 86400)
    expect((await t.api('GET', `${o}/projects`, undefined, tok.body.token)).status).toBe(403)
    await t.api('POST', `/config/v1/users/${sa.body.uuid}/add_roles/`, { roles: ['reader'] })
    expect((await t.api('GET', `${o}/projects`, undefined, tok.body.token)).status).toBe(200)
    const users = await t.api('GET', '/config/v1/users')
    expect(users.body.results.find((u: { uuid: string }) => u.uuid === sa.body.uuid).roles).toEqual(['reader'])
    expect((await t.api('DELETE', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`)).status).toBe(204)
    expect((await t.api('GET', `${o}/projects`, undefined, tok.body.token)).status).toBe(401)
    const tok2 = await t.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens`, {
      expiry: '2000-01-01T00:00:00Z',
    })
    expect(tok2.body.expiry[0]).toMatch(/future/)
    expect((await t.api('POST', '/config/v1/service_accounts', { name: 'ci-bot' })).body.name[0]).toMatch(
      /already exists/,
    )
    expect((await t.api('GET', `/config/v1/users/${sa.body.uuid}`)).body.is_service_account).toBe(true)
    expect((await t.api('DELETE', `/config/v1/service_accounts/${sa.body.uuid}`)).status).toBe(204)
    // a service account can also be deleted through its users/ url, as listed there
    const sa2 = (await t.api('POST', '/config/v1/service_accounts/', { name: 'ci-bot-2' })).body
    expect((await t.api('DELETE', `/config/v1/users/${sa2.uuid}`)).status).toBe(204)
    expect((await t.api('GET', `/config/v1/service_accounts/${sa2.uuid}`)).status).toBe(404)
  })
})

describe('invites and passwords', () => {
  test('invite → pending list → resend → accept through password_reset_confirm → login', async () => {
    const r = await t.api('POST', '/config/v1/invites/', { email: 'new@example.com', org: t.orgId, roles: ['reader'] })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ email: 'new@example.com', status: 'pending', roles: ['reader'] })
    expect(Number.isInteger(r.body.id)).toBe(true)
    expect(
      (await t.api('POST', '/config/v1/invites/', { email: 'new@example.com', roles: ['reader'] })).body.email[0],
    ).toMatch(/already exists/)
    expect((await t.api('POST', '/config/v1/invites/', { email: 'bad', roles: [] })).body).toMatchObject({
      email: ['Enter a valid email address.'],
    })
    expect((await t.api('GET', '/config/v1/invites?pending_only=true')).body.count).toBe(1)
    expect((await t.api('POST', `/config/v1/invites/${r.body.id}/resend_invite/`)).status).toBe(200)
    // the link is in the outbox (no mail server), never in the log
    const mail = t.handler.state.outbox.filter((m) => m.to === 'new@example.com').at(-1)!
    const [, uuidb64, token] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(mail.link)!
    expect(t.handler.state.logs.some((l) => l.message.includes('/verifyaccount/'))).toBe(false)
    const mismatch = await t.api(
      'POST',
      '/config/v1/password_reset_confirm/',
      { uuidb64, token, password: 'new-password-1', password_confirm: 'other' },
      null,
    )
    expect(mismatch.body.password_confirm[0]).toMatch(/do not match/)
    const ok = await t.api(
      'POST',
      '/config/v1/password_reset_confirm/',
      { uuidb64, token, password: 'new-password-1', password_confirm: 'new-password-1' },
      null,
    )
    expect(ok.body).toEqual({ success: true })
    expect((await login('new@example.com', 'new-password-1')).status).toBe(200)
    expect((await t.api('GET', '/config/v1/invites?pending_only=true')).body.count).toBe(0)
    const again = await t.api(
      'POST',
      '/config/v1/password_reset_confirm/',
      { uuidb64, token, password: 'new-password-1', password_confirm: 'new-password-1' },
      null,
    )
    expect(again.status).toBe(400)
    const inv2 = await t.api('POST', '/config/v1/invites/', { email: 'gone@example.com', roles: ['operator'] })
    expect((await t.api('DELETE', `/config/v1/invites/${inv2.body.id}`)).status).toBe(204)
  })

  test('reset_password always answers 200', async () => {
    expect((await t.api('POST', '/config/v1/reset_password', { email: 'nobody@example.com' }, null)).status).toBe(200)
    expect((await t.api('POST', '/config/v1/reset_password', { email: 'reader@example.com' }, null)).status).toBe(200)
    expect((await t.api('POST', '/config/v1/reset_password', {}, null)).status).toBe(400)
    // the link for a known user is in the outbox; confirming it sets the password
    await t.api('POST', '/config/v1/users', {
      email: 'forgetful@example.com',
      password: 'first-password',
      roles: ['reader'],
    })
    await t.api('POST', '/config/v1/reset_password', { email: 'forgetful@example.com' }, null)
    const mail = t.handler.state.outbox.filter((m) => m.to === 'forgetful@example.com').at(-1)!
    const [, uuidb64, token] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(mail.link)!
    const short = await t.api(
      'POST',
      '/config/v1/password_reset_confirm',
      { uuidb64, token, password: 'short', password_confirm: 'short' },
      null,
    )
    expect(short.body.password[0]).toMatch(/too short/)
    const ok = await t.api(
      'POST',
      '/config/v1/password_reset_confirm',
      { uuidb64, token, password: 'second-password', password_confirm: 'second-password' },
      null,
    )
    expect(ok.status).toBe(200)
    expect((await login('forgetful@example.com', 'second-password')).status).toBe(200)
    expect((await login('forgetful@example.com', 'first-password')).status).toBe(401)
  })

  test('change_password', async () => {
    const wrong = await t.api(
      'PUT',
      '/config/v1/change_password',
      { current_password: 'nope', new_password: 'reader-password-2', confirm_password: 'reader-password-2' },
      readerToken,
    )
    expect(wrong.status).toBe(400)
    expect(wrong.body.current_password).toHaveLength(1)
    const mismatch = await t.api(
      'PUT',
      '/config/v1/change_password',
      { current_password: 'reader-password', new_password: 'reader-password-2', confirm_password: 'x' },
      readerToken,
    )
    expect(mismatch.body.confirm_password[0]).toMatch(/do not match/)
    const ok = await t.api(
      'PUT',
      '/config/v1/change_password',
      { current_password: 'reader-password', new_password: 'reader-password-2', confirm_password: 'reader-password-2' },
      readerToken,
    )
    expect(ok.status).toBe(200)
    expect((await login('reader@example.com', 'reader-password-2')).status).toBe(200)
    expect((await login('reader@example.com', 'reader-password')).status).toBe(401)
    // the change ended the token it was made with (and every other); the answer carries a new one
    expect((await t.api('GET', '/config/v1/users/current', undefined, readerToken)).status).toBe(401)
    readerToken = ok.body.auth_token.access_token
    expect((await t.api('GET', '/config/v1/users/current', undefined, readerToken)).status).toBe(200)
  })
})

describe('auth logs and audit trail', () => {
  test('auth logs record successes and failures; filters from query or body', async () => {
    const all = await t.api('GET', '/config/v1/auth_logs')
    expect(all.status).toBe(200)
    const types = new Set(all.body.results.map((e: { type: string }) => e.type))
    expect(types.has('LOGIN')).toBe(true)
    expect(types.has('LOGIN_ERROR')).toBe(true)
    const errors = await t.api('GET', '/config/v1/auth_logs?event_types=LOGIN_ERROR')
    expect(errors.body.results.every((e: { type: string }) => e.type === 'LOGIN_ERROR')).toBe(true)
    expect(errors.body.results[0]).toHaveProperty('ipAddress')
    const today = new Date().toISOString().slice(0, 10)
    const body = Buffer.from(JSON.stringify({ event_types: ['LOGIN'], from_date: today, to_date: today })).toString(
      'base64',
    )
    const viaBody = await t.api('GET', '/config/v1/auth_logs', undefined, undefined, { 'x-cluster-get-body': body })
    expect(viaBody.body.count).toBeGreaterThan(0)
    expect(viaBody.body.results.every((e: { type: string }) => e.type === 'LOGIN')).toBe(true)
    const past = await t.api('POST', '/config/v1/auth_logs', { to_date: '2000-01-01' })
    expect(past.body.count).toBe(0)
    expect((await t.api('GET', '/config/v1/auth_logs?from_date=yesterday')).status).toBe(400)
    expect((await t.api('GET', '/config/v1/auth_logs', undefined, readerToken)).status).toBe(403)
  })

  test('audit trail: who, when, action, text; filters', async () => {
    const r = await t.api('GET', `${o}/audit_trail/`)
    expect(r.status).toBe(200)
    const first = r.body.results[0]
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['created', 'user', 'action', 'text']))
    expect(
      r.body.results.some(
        (e: { action: string; user: string }) => e.action === 'add_project' && e.user === TEST_ADMIN_EMAIL,
      ),
    ).toBe(true)
    const filtered = await t.api('GET', `${o}/audit_trail?action=add_role`)
    expect(filtered.body.results.every((e: { action: string }) => e.action === 'add_role')).toBe(true)
    expect(filtered.body.count).toBeGreaterThan(0)
    expect((await t.api('GET', `${o}/audit_trail`, undefined, readerToken)).status).toBe(403)
  })
})
