/** hdxcli on roles, service accounts and their tokens, users and invites. */
import { beforeAll, describe, expect, it } from 'vitest'
import { TEST_ADMIN_EMAIL } from '../test-helpers'
import { type hdx, hdxcliLogin, org, raw, unwrapList, useContractCluster } from './helpers'

useContractCluster()

describe('hdxcli', () => {
  let api: ReturnType<typeof hdx>

  beforeAll(async () => {
    ;({ api } = await hdxcliLogin())
  })

  it('roles: create with exclude_none policies, add_user with [{uuid}] (role/commands.py)', async () => {
    const created = await api.post('/config/v1/roles/', {
      name: 'hdx_role',
      policies: [{ permissions: ['change_table'] }],
    })
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const role = unwrapList((await api.get('/config/v1/roles/')).body).find((r) => r.name === 'hdx_role')
    expect(Number.isInteger(role.id)).toBe(true)
    const users = unwrapList((await api.get('/config/v1/users/')).body)
    const admin = users.find((u) => u.email === TEST_ADMIN_EMAIL)
    const add = await api.post(`/config/v1/roles/${role.id}/add_user/`, { users: [{ uuid: admin.uuid }] })
    expect([200, 201], JSON.stringify(add.body)).toContain(add.status)
    // edit: PUT of the whole role to roles/{id}/
    const full = (await api.get(`/config/v1/roles/${role.id}/`)).body
    full.description = 'edited'
    const put = await api.put(`/config/v1/roles/${role.id}/`, full)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    // permission list: [{scope_type, permissions}]
    const perms = await api.get('/config/v1/roles/permissions')
    expect(unwrapList(perms.body).every((x: any) => Array.isArray(x.permissions))).toBe(true)
  })

  it('service account and token; the token works on /query (svc_account/commands.py, auth/service_account.py)', async () => {
    // create_service_account: basic_create(path, name) -> {"name", "description": "Created with hdxcli tool"}
    const sa = await api.post('/config/v1/service_accounts/', {
      name: 'hdx_sa',
      description: 'Created with hdxcli tool',
    })
    expect([200, 201]).toContain(sa.status)
    // roles go through the users endpoint
    const add = await api.post(`/config/v1/users/${sa.body.uuid}/add_roles/`, { roles: ['reader'] })
    expect([200, 201], JSON.stringify(add.body)).toContain(add.status)
    const tok = await api.post(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    expect([200, 201]).toContain(tok.status)
    // create_service_account_token: jwt.decode(token) -> exp - iat; mcp-hydrolix's ServiceAccountToken reads sub, iss, exp
    const claims = JSON.parse(Buffer.from(tok.body.token.split('.')[1], 'base64url').toString())
    expect(claims.sub).toBe(sa.body.uuid)
    expect(typeof claims.iss).toBe('string')
    expect(claims.exp).toBeGreaterThan(claims.iat)
    // --duration 30d: {"expiry": "%Y-%m-%dT%H:%M:%S.%fZ" cut to milliseconds}
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const dated = await api.post(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`, { expiry })
    expect([200, 201], JSON.stringify(dated.body)).toContain(dated.status)
    const datedClaims = JSON.parse(Buffer.from(dated.body.token.split('.')[1], 'base64url').toString())
    expect(Math.abs(datedClaims.exp - Date.parse(expiry) / 1000)).toBeLessThan(2)
    const q = await raw('POST', '/query', { headers: { Authorization: `Bearer ${tok.body.token}` }, body: 'SELECT 1' })
    expect(q.status).toBe(200)
    expect(q.text.trim()).toBe('1')
    // revoke all tokens: DELETE .../tokens/ -> the token stops working
    // revoke_all_service_account_tokens: basic_delete(url=.../tokens/) -> rest_ops.delete wants 204
    const revoke = await api.delete(`/config/v1/service_accounts/${sa.body.uuid}/tokens/`)
    expect(revoke.status).toBe(204)
    expect(
      (await raw('POST', '/query', { headers: { Authorization: `Bearer ${tok.body.token}` }, body: 'SELECT 1' }))
        .status,
    ).toBe(401)
  })

  it('users and invites: invite send, pending list, resend, delete by url (user/commands.py)', async () => {
    // older hdxcli posts to /config/v1/invite/ (singular), newer to invites/
    const invite = await api.post('/config/v1/invite/', {
      email: 'test_ci_invite_user@hydolix.io',
      org,
      roles: ['reader'],
    })
    expect([200, 201], JSON.stringify(invite.body)).toContain(invite.status)
    const second = await api.post('/config/v1/invites/', { email: 'second_invite@hydolix.io', org, roles: ['reader'] })
    expect([200, 201], JSON.stringify(second.body)).toContain(second.status)
    const pending = await api.get('/config/v1/invites/?pending_only=true')
    const mine = unwrapList(pending.body).find((i) => i.email === 'test_ci_invite_user@hydolix.io')
    expect(Number.isInteger(mine.id)).toBe(true)
    expect(typeof mine.status).toBe('string')
    const resend = await api.post(`/config/v1/invites/${mine.id}/resend_invite/`)
    expect([200, 201], JSON.stringify(resend.body)).toContain(resend.status)
    // user delete: the invited user appears in users/ and goes by its url
    const users = unwrapList((await api.get('/config/v1/users/')).body)
    const invited = users.find((u) => u.email === 'test_ci_invite_user@hydolix.io')
    expect(invited).toMatchObject({ status: 'pending', emailVerified: false })
    expect((await api.delete(invited.url ?? `/config/v1/users/${invited.uuid}`)).status).toBe(204)
    // users/current and credentials/types as the credential command reads them
    expect((await api.get('/config/v1/users/current')).body.email).toBe(TEST_ADMIN_EMAIL)
    const types = await api.get(`/config/v1/orgs/${org}/credentials/types/`)
    for (const [, t] of Object.entries<any>(types.body)) expect(t.fields).toBeTypeOf('object')
  })
})
