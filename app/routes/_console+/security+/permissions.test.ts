import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, post, returnedOrThrown, unwrap } from '#tests/session'
import { loader as invitesLoader } from './pending-invites'
import { loader as editRoleLoader } from './roles.$roleId.edit-role'
import { loader as rolesLoader } from './roles._index'
import { loader as newRoleLoader } from './roles.new-role'
import { loader as editUserLoader } from './users.$userId.edit-user'
import { loader as usersLoader } from './users._index'
import { loader as inviteLoader } from './users.invite-new-user'
import { ADD_NEW_ENTRIES } from '~/components/layout/nav-config'

useTestCluster()

/*
 * The permission matrix of the people pages, with real users of each built-in role against the
 * local cluster: what each page offers, and that what it offers does not then fail with a 403.
 */

const PASSWORD = 'a-long-password-1'
const cookies: Record<string, string> = {}
let customRoleId = ''
let someoneId = ''

async function loginAs(email: string) {
  const { action } = await import('~/routes/_auth+/login')
  return cookieFrom(
    asResponse(await returnedOrThrown(() => action(args(post('/login', { email, password: PASSWORD }))))),
  )
}

beforeAll(async () => {
  for (const role of ['reader', 'publisher', 'operator', 'org_admin']) {
    await clusterCall('POST', '/config/v1/users/', { email: `${role}@example.com`, password: PASSWORD, roles: [role] })
    cookies[role] = await loginAs(`${role}@example.com`)
  }
  someoneId = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/users/', {
      email: 'someone@example.com',
      password: PASSWORD,
      roles: ['reader'],
    })
  ).uuid
  customRoleId = String(
    (
      await clusterCall<{ id: number }>('POST', '/config/v1/roles/', {
        name: 'custom',
        policies: [{ permissions: ['view_table'], scope_type: null, scope_id: null }],
      })
    ).id,
  )
})

const statusOf = (thrown: unknown) => unwrap<{ status: number; message: string }>(thrown).data

describe('reader and publisher: Security people pages are refused inside the page (403), never a 500', () => {
  for (const role of ['reader', 'publisher']) {
    it(`${role}: users, pending invites and roles answer the cluster's 403 for the error boundary`, async () => {
      for (const load of [
        () => usersLoader(args(get('/security/users', cookies[role]))),
        () => invitesLoader(args(get('/security/pending-invites', cookies[role]))),
        () => rolesLoader(args(get('/security/roles', cookies[role]))),
      ]) {
        const thrown = statusOf(await returnedOrThrown(load))
        expect(thrown.status).toBe(403)
        expect(thrown.message).toMatch(/permission/i)
      }
    })
  }
})

describe('operator: reads security, changes nothing; every change control is disabled with its reason', () => {
  it('users list: Invite, Edit roles and Delete are not offered, each with "Needs …"', async () => {
    const list = await usersLoader(args(get('/security/users', cookies.operator)))
    expect(list.rows.length).toBeGreaterThan(0)
    expect(list.allowed).toMatchObject({
      inviteUser: 'Needs add_invite',
      editUser: 'Needs change_user',
      deleteUser: 'Needs delete_user',
    })
  })

  it('invite and new role pages show the reason instead of the form', async () => {
    expect((await inviteLoader(args(get('/security/users/invite-new-user', cookies.operator)))).denied).toBe(
      'Needs add_invite',
    )
    expect((await newRoleLoader(args(get('/security/roles/new-role', cookies.operator)))).denied).toBe('Needs add_role')
  })

  it("a user's page shows roles and effective permissions read-only; a role's page is read-only", async () => {
    const user = await editUserLoader(
      args(get(`/security/users/${someoneId}/edit-user`, cookies.operator), { userId: someoneId }),
    )
    expect(user.denied).toBe('Needs change_user')
    expect(user.effective).toEqual([expect.objectContaining({ scope: 'Organization' })])
    expect(user.effective[0]!.permissions).toContain('view_table')
    const role = await editRoleLoader(
      args(get(`/security/roles/${customRoleId}/edit-role`, cookies.operator), { roleId: customRoleId }),
    )
    expect(role.reason).toBe('You cannot change roles: Needs change_role.')
    expect(role.readOnly).toEqual([{ scope: 'Everywhere (all organizations)', count: 1 }])
  })

  it('pending invites and roles lists: Resend, Delete and New role are not offered', async () => {
    const invites = await invitesLoader(args(get('/security/pending-invites', cookies.operator)))
    expect(invites.allowed).toMatchObject({
      resendInvite: 'Needs change_invite',
      deleteInvite: 'Needs delete_invite',
      inviteUser: 'Needs add_invite',
    })
    const roles = await rolesLoader(args(get('/security/roles', cookies.operator)))
    expect(roles.allowed.addRole).toBe('Needs add_role')
  })

  it('the matrix agrees with the cluster: what is withheld really is refused (403)', async () => {
    const { TEST_CLUSTER_URL } = await import('#tests/env')
    const login = await fetch(`${TEST_CLUSTER_URL}/config/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'operator@example.com', password: PASSWORD }),
    })
    const token = ((await login.json()) as { auth_token: { access_token: string } }).auth_token.access_token
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${TEST_CLUSTER_URL}/config/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      })
    expect((await call('DELETE', `/users/${someoneId}`)).status).toBe(403)
    expect((await call('POST', `/users/${someoneId}/add_roles/`, { roles: ['operator'] })).status).toBe(403)
    expect((await call('POST', '/roles/', { name: 'nope', policies: [] })).status).toBe(403)
    expect((await call('POST', '/invites/', { email: 'x@example.com', roles: ['reader'] })).status).toBe(403)
  })
})

describe('org admin: everything is offered', () => {
  it('no control is withheld on any people page', async () => {
    const list = await usersLoader(args(get('/security/users', cookies.org_admin)))
    expect(Object.values(list.allowed).every((reason) => reason === null)).toBe(true)
    expect((await inviteLoader(args(get('/security/users/invite-new-user', cookies.org_admin)))).denied).toBeNull()
    const role = await editRoleLoader(
      args(get(`/security/roles/${customRoleId}/edit-role`, cookies.org_admin), { roleId: customRoleId }),
    )
    expect(role.reason).toBeNull()
    expect(role.readOnly).toBeNull()
  })
})

describe('the shell leaves out of + add new and the sidebar what the user can never do', () => {
  const hiddenFor = async (cookie: string) => {
    const { loader: layoutLoader } = await import('~/routes/_console+/_layout')
    return (await layoutLoader(args(get('/dashboard', cookie)))).hiddenPaths
  }
  const ADD_NEW = ADD_NEW_ENTRIES.map((entry) => entry.to)

  it('per built-in role: a reader creates nothing, a publisher data and batch jobs, an operator all but people, an admin all', async () => {
    expect((await hiddenFor(cookies.reader!)).sort()).toEqual([...ADD_NEW].sort())
    expect(await hiddenFor(cookies.publisher!)).toEqual([
      '/jobs/alter-jobs/create',
      '/scale/pool/create',
      '/security/users/invite-new-user',
      '/security/new-bucket',
      '/security/roles/new-role',
      '/security/new-credential',
    ])
    expect(await hiddenFor(cookies.operator!)).toEqual([
      '/security/users/invite-new-user',
      '/security/roles/new-role',
      '/security/new-credential',
    ])
    expect(await hiddenFor(cookies.org_admin!)).toEqual([])
  })

  it('what the menu still offers the publisher, the cluster lets the publisher do', async () => {
    const { action: newTableAction } = await import('~/routes/_console+/data+/new-table')
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', {
      name: 'publishers',
    })
    const created = asResponse(
      await returnedOrThrown(() =>
        newTableAction(
          args(post('/data/new-table', { project: project.uuid, name: 'by_publisher' }, cookies.publisher!)),
        ),
      ),
    )
    expect(created.status).toBe(302)
  })

  it('a custom role that may only view tables keeps Dashboard, System Health and Data in the sidebar', async () => {
    await clusterCall('POST', '/config/v1/users/', {
      email: 'custom@example.com',
      password: PASSWORD,
      roles: ['custom'],
    })
    const hidden = await hiddenFor(await loginAs('custom@example.com'))
    expect(hidden).toEqual(expect.arrayContaining(['/jobs/alter-jobs', '/scale', '/queries', '/security/users']))
    expect(hidden).not.toContain('/data/tables')
    expect(hidden).not.toContain('/dashboard')
  })
})
