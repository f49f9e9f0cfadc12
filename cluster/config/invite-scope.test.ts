import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'

/*
 * Issue 54, point 2: an invite as Reader scoped to one project was listed as scoped, but the user got
 * the org-wide Reader role and could query every project. A scoped invite now grants its role
 * through a role whose policies are scoped to the project or table (decision 098).
 */

let t: TestCluster
let o: string
const ids: Record<string, string> = {}

const linkParts = (link: string) => {
  const [, uuidb64, token] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(link)!
  return { uuidb64, token }
}

/** Invites `email`, accepts through the mailed link and answers the user's token. */
async function invitedAndAccepted(email: string, invite: Record<string, unknown>): Promise<string> {
  const sent = await t.api('POST', '/config/v1/invites/', { email, org: t.orgId, ...invite })
  expect(sent.status, JSON.stringify(sent.body)).toBe(201)
  const link = t.handler.state.outbox.filter((mail) => mail.to === email).at(-1)!.link
  const password = 'invited-password-54'
  const confirmed = await t.api(
    'POST',
    '/config/v1/password_reset_confirm',
    { ...linkParts(link), password, password_confirm: password },
    null,
  )
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
  const login = await t.api('POST', '/config/v1/login', { username: email, password }, null)
  expect(login.status).toBe(200)
  return login.body.auth_token.access_token as string
}

const query = (sql: string, token: string) => t.api('POST', '/query', `${sql} FORMAT JSONEachRow`, token)

beforeAll(async () => {
  t = await startTestCluster()
  o = `/config/v1/orgs/${t.orgId}`
  for (const name of ['feeds', 'billing']) {
    const project = await t.api('POST', `${o}/projects/`, { name })
    ids[name] = project.body.uuid
    const table = await t.api('POST', `${o}/projects/${project.body.uuid}/tables/`, { name: 'events' })
    ids[`${name}.events`] = table.body.uuid
    const transform = await t.api('POST', `${o}/projects/${project.body.uuid}/tables/${table.body.uuid}/transforms/`, {
      name: 'events_json',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'message', datatype: { type: 'string' } },
        ],
      },
    })
    expect(transform.status, JSON.stringify(transform.body)).toBe(201)
  }
})

afterAll(async () => {
  await t?.close()
})

describe('a scoped invite', () => {
  test('a Reader invited to project feeds queries feeds and is refused on billing', async () => {
    const token = await invitedAndAccepted('scoped54@example.com', {
      roles: ['reader'],
      scope_type: 'project',
      scope_id: ids.feeds,
    })
    const ok = await query('SELECT count() FROM feeds.events', token)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const refused = await query('SELECT count() FROM billing.events', token)
    expect(refused.status).toBe(403)
    // the refusal names the table refused, not the one allowed (issue 54, point 10)
    expect(refused.body).toEqual({
      detail: 'You do not have permission to query billing.events: it needs select_sql on that table.',
    })
    const joined = await query('SELECT count() FROM feeds.events JOIN billing.events USING (message)', token)
    expect(joined.status).toBe(403)
    expect(joined.body.detail).toBe(
      'You do not have permission to query billing.events: it needs select_sql on that table.',
    )

    // the user holds a role scoped to feeds, not the org-wide reader
    const users = await t.api('GET', '/config/v1/users/')
    const user = users.body.results.find((u: { email: string }) => u.email === 'scoped54@example.com')
    expect(user.roles).not.toContain('reader')
    const roles = await t.api('GET', '/config/v1/roles/')
    const held = roles.body.results.filter((role: { name: string }) => user.roles.includes(role.name))
    expect(held).toHaveLength(1)
    expect(held[0].policies.length).toBeGreaterThan(0)
    for (const policy of held[0].policies) expect(policy).toMatchObject({ scope_type: 'project', scope_id: ids.feeds })
  })

  test('a table scope reaches that table only; the same scope twice reuses one role', async () => {
    const first = await invitedAndAccepted('table54@example.com', {
      roles: ['reader'],
      scope_type: 'table',
      scope_id: ids['billing.events'],
    })
    expect((await query('SELECT count() FROM billing.events', first)).status).toBe(200)
    expect((await query('SELECT count() FROM feeds.events', first)).status).toBe(403)
    await invitedAndAccepted('table54b@example.com', {
      roles: ['reader'],
      scope_type: 'table',
      scope_id: ids['billing.events'],
    })
    const roles = (await t.api('GET', '/config/v1/roles/')).body.results as { name: string }[]
    expect(roles.filter((role) => role.name === `reader_table_${ids['billing.events']}`)).toHaveLength(1)
  })

  test('an org invite keeps the org-wide role; an unknown scope is refused at the field', async () => {
    const token = await invitedAndAccepted('org54@example.com', {
      roles: ['reader'],
      scope_type: 'org',
      scope_id: t.orgId,
    })
    expect((await query('SELECT count() FROM billing.events', token)).status).toBe(200)
    const ok = await query('SELECT count() FROM feeds.events', token)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const unknown = await t.api('POST', '/config/v1/invites/', {
      email: 'nowhere54@example.com',
      roles: ['reader'],
      scope_type: 'project',
      scope_id: '00000000-0000-4000-8000-000000000000',
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.scope_id).toEqual(['Project not found.'])
  })
})
