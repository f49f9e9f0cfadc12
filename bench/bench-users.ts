/**
 * The org a load bench signs in as (issue 52): distinct users with the roles a real org has, made
 * through the cluster's own API at the bench's start (an invite each, accepted through the link the
 * cluster mails to `<dataDir>/outbox.jsonl`, as a person would), never one user a hundred times. A page
 * cache, a per-user read or a permission check then costs what it costs with real operators.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ADMIN, clusterCall } from './console'

export type BenchUser = { email: string; password: string; role: string }

/**
 * The roles, in the order users get them: of every ten, one org admin, three operators, one
 * publisher, three org-wide readers and two readers of the sample project only. The bench's own
 * admin (super_admin) is the first user.
 */
export const ROLE_MIX = [
  'org_admin',
  'operator',
  'reader',
  'operator',
  'project:reader',
  'publisher',
  'reader',
  'operator',
  'reader',
  'project:reader',
] as const

const PASSWORD = 'bench-user-password-1'

/** Answers `count` users (the bench's admin first), making the others through the cluster's API. */
export async function createBenchUsers(clusterUrl: string, dataDir: string, count: number): Promise<BenchUser[]> {
  const login = await clusterCall<{ auth_token: { access_token: string }; orgs: { uuid: string }[] }>(
    clusterUrl,
    'POST',
    '/login',
    { username: ADMIN.email, password: ADMIN.password },
  )
  const token = login.auth_token.access_token
  const org = login.orgs[0]!.uuid
  const projects = await clusterCall<{ results?: { uuid: string; name: string }[] } | { uuid: string; name: string }[]>(
    clusterUrl,
    'GET',
    `/orgs/${org}/projects/`,
    undefined,
    token,
  )
  const list = Array.isArray(projects) ? projects : (projects.results ?? [])
  const sample = list.find((project) => project.name === 'sample')
  if (!sample) throw new Error('the sample project is missing (the bench cluster is seeded with it)')

  const users: BenchUser[] = [{ ...ADMIN, role: 'super_admin' }]
  for (let i = 1; i < count; i++) {
    const mix = ROLE_MIX[(i - 1) % ROLE_MIX.length]!
    const [role, scoped] = mix.startsWith('project:') ? [mix.slice('project:'.length), true] : [mix, false]
    const email = `bench-${String(i).padStart(3, '0')}-${role}${scoped ? '-sample' : ''}@console.test`
    await clusterCall(
      clusterUrl,
      'POST',
      '/invites/',
      { email, org, roles: [role], ...(scoped ? { scope_type: 'project', scope_id: sample.uuid } : {}) },
      token,
    )
    const link = lastLinkTo(dataDir, email)
    const [, uuidb64, resetToken] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(link) ?? []
    if (!uuidb64 || !resetToken) throw new Error(`no invite link for ${email} in the outbox`)
    await clusterCall(clusterUrl, 'POST', '/password_reset_confirm', {
      uuidb64,
      token: resetToken,
      password: PASSWORD,
      password_confirm: PASSWORD,
    })
    users.push({ email, password: PASSWORD, role: scoped ? `${role} (project sample)` : role })
  }
  return users
}

function lastLinkTo(dataDir: string, email: string): string {
  const lines = readFileSync(path.join(dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const mail = JSON.parse(lines[i]!) as { to?: string; link?: string }
    if (mail.to === email && mail.link) return mail.link
  }
  return ''
}

/** How many users have each role, for the bench's report: `org_admin 2, operator 6, …`. */
export function roleCounts(users: BenchUser[]): string {
  const counts = new Map<string, number>()
  for (const user of users) counts.set(user.role, (counts.get(user.role) ?? 0) + 1)
  return [...counts].map(([role, n]) => `${role} ${n}`).join(', ')
}
