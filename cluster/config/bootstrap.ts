import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { hashPassword } from '../auth'
import type { ClusterState } from '../context'
import { nowIso } from '../http'
import type { Role, User } from './access'
import { audit } from './audit'
import { seedInstall } from './install'
import { BUILT_IN_ROLES } from './permissions'
import { nextSeq, type Org } from './util'

export interface BootstrapResult {
  orgId: string
  admin: { email: string; password: string }
  adminId: string
  isFirstStart: boolean
}

/**
 * First start: creates the org, the built-in roles, the admin (email/password from options,
 * otherwise `admin@localhost` and a generated password) and the install's pools and default storage
 * (`install.ts`), and keeps the admin's credentials in
 * `${dataDir}/admin.json` (mode 600). Later starts read them back.
 */
export async function bootstrap(cluster: ClusterState): Promise<BootstrapResult> {
  const { store, options } = cluster
  const adminFile = path.join(options.dataDir, 'admin.json')
  const existing = store.get<{ orgId: string; adminId: string }>('meta', 'bootstrap')
  if (existing) {
    let admin = { email: store.get<User>('user', existing.adminId)?.email ?? '', password: '' }
    try {
      admin = { ...admin, ...JSON.parse(fs.readFileSync(adminFile, 'utf8')) }
    } catch {
      // admin.json removed by hand: the password is unknown, the account is still there
    }
    ensureBuiltInRoles(cluster)
    return { orgId: existing.orgId, admin, adminId: existing.adminId, isFirstStart: false }
  }

  const created = nowIso()
  // a first start interrupted half-way (before the bootstrap record) left an org: keep it
  const org: Org = store.all<Org>('org')[0] ?? {
    uuid: crypto.randomUUID(),
    name: 'local',
    type: 'singletenant',
    cloud: 'aws',
    kubernetes: true,
    created,
    modified: created,
  }
  store.put('org', org.uuid, org)
  ensureBuiltInRoles(cluster)

  const email = (options.adminEmail ?? 'admin@localhost').trim().toLowerCase()
  const password = options.adminPassword ?? crypto.randomBytes(12).toString('base64url')
  const superAdmin = store.find<Role>('role', (r) => r.name === 'super_admin')!
  const earlier = store.find<User>('user', (u) => u.email === email)
  const admin: User = {
    uuid: earlier?.uuid ?? crypto.randomUUID(),
    email,
    name: email,
    type: 'user',
    org: org.uuid,
    role_ids: [superAdmin.id],
    status: 'active',
    password_hash: await hashPassword(password),
    created,
    modified: created,
  }
  store.put('user', admin.uuid, admin)
  fs.writeFileSync(adminFile, JSON.stringify({ email, password }, null, 2) + '\n', { mode: 0o600 })
  fs.chmodSync(adminFile, 0o600)
  // what a real install has before anyone signs in: its pools and its default bucket (first start only)
  seedInstall(cluster, org.uuid)
  store.put('meta', 'bootstrap', { orgId: org.uuid, adminId: admin.uuid, at: created })
  audit(cluster, null, 'bootstrap', `Cluster initialised: org ${org.name}, admin ${email}`, {
    kind: 'org',
    id: org.uuid,
  })
  return { orgId: org.uuid, admin: { email, password }, adminId: admin.uuid, isFirstStart: true }
}

/** Creates any built-in role that is missing (and refreshes built-ins' permission sets). */
function ensureBuiltInRoles(cluster: ClusterState) {
  for (const builtIn of BUILT_IN_ROLES) {
    const role = cluster.store.find<Role>('role', (r) => r.name === builtIn.name)
    if (role) {
      if (role.built_in && JSON.stringify(role.policies) !== JSON.stringify(builtIn.policies)) {
        cluster.store.put('role', String(role.id), { ...role, policies: builtIn.policies })
      }
      continue
    }
    const now = nowIso()
    const id = nextSeq(cluster, 'role')
    cluster.store.put<Role>('role', String(id), {
      id,
      name: builtIn.name,
      description: builtIn.description,
      policies: builtIn.policies,
      built_in: true,
      created: now,
      modified: now,
    })
  }
}
