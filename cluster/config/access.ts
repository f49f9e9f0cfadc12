import crypto from 'node:crypto'
import { readCredentials, verifyPassword, verifyToken } from '../auth'
import type { ClusterState, Ctx } from '../context'
import { forbidden, unauthorized } from '../http'
import type { Policy } from './permissions'
import type { ClusterRequest } from '../node-http'

/** A stored user or service account (kind `user`). Service accounts have no password. */
export interface User {
  uuid: string
  email: string
  /** Display name; a service account's name. */
  name?: string
  type: 'user' | 'service_account'
  org: string
  /** Integer ids of the user's roles (answered to clients as role names). */
  role_ids: number[]
  status: 'active' | 'pending'
  password_hash?: string
  /**
   * Raised by every password change or reset: a user token carries the value it was signed with
   * (`pwv`) and is refused once they differ, so a new password ends every other session (issue 49).
   */
  password_version?: number
  description?: string
  created: string
  modified: string
}

export interface Role {
  id: number
  name: string
  description: string
  policies: Policy[]
  built_in?: boolean
  created: string
  modified: string
}

/** What a permission is checked against: the project/table it lives in, and the object itself. */
export interface Scope {
  projectId?: string
  tableId?: string
  /** The object's own id, for policies scoped to one pool, storage, transform, ... */
  id?: string
}

const users = new WeakMap<ClusterRequest, User>()

/**
 * The caller: a bearer token (signed, unexpired, of a live user, or a service-account token not
 * revoked), HTTP Basic email:password, or a token as a Basic password (see readCredentials). 401 otherwise.
 */
export function requireUser(ctx: Ctx): User {
  const cached = users.get(ctx.request)
  if (cached) return cached
  const user = authenticate(ctx.cluster, ctx.request)
  users.set(ctx.request, user)
  return user
}

/** The store's id of a user token revoked by `POST /config/v1/logout` (a hash: the token itself is never stored). */
export function revokedTokenId(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url')
}

/** Same as requireUser, for code that has a Request and the cluster but no Ctx. */
export function authenticate(cluster: ClusterState, request: ClusterRequest): User {
  const credentials = readCredentials(request)
  const bearer = credentials.bearer
  if (bearer) {
    const claims = verifyToken(cluster.secret, bearer)
    const user = cluster.store.get<User>('user', claims.sub)
    if (!user || user.status !== 'active') throw unauthorized('User not found')
    if (claims.typ === 'service_account' && !cluster.store.get('sa_token', claims.jti)) {
      throw unauthorized('Token has been revoked')
    }
    if (claims.typ === 'user' && (claims.pwv ?? 0) !== (user.password_version ?? 0)) {
      throw unauthorized('Token has been revoked')
    }
    if (cluster.store.peek('revoked_token', revokedTokenId(bearer))) throw unauthorized('Token has been revoked')
    return user
  }
  if (credentials.basic) {
    // checked before the route ran (checkBasicCredentials: scrypt off the event loop)
    const user = basicChecked.get(request)
    if (!user || cluster.store.peek<User>('user', user.uuid)?.password_hash !== user.password_hash) {
      throw unauthorized('Invalid username/password.')
    }
    return user
  }
  throw unauthorized()
}

/** The user a request's Basic email:password names, when the password is right (set by checkBasicCredentials). */
const basicChecked = new WeakMap<ClusterRequest, User>()

/**
 * Basic credentials checked once (a ClickHouse client sends them with every query): a digest of
 * email, password and the stored hash, so a new password voids the entry. In memory only; bounded.
 */
const verifiedBasic = new Set<string>()

/**
 * Checks a request's HTTP Basic email:password before its route runs, so that the route's
 * synchronous `requireUser` never hashes. Requests without Basic credentials cost one header read.
 */
export async function checkBasicCredentials(cluster: ClusterState, request: ClusterRequest): Promise<void> {
  const { basic } = readCredentials(request)
  if (!basic) return
  const email = basic.username.trim().toLowerCase()
  const user = cluster.store.find<User>('user', (u) => u.type === 'user' && u.email.toLowerCase() === email)
  const key = crypto
    .createHash('sha256')
    .update(`${email}\u0000${basic.password}\u0000${user?.password_hash ?? ''}`)
    .digest('base64url')
  if (user?.password_hash && user.status === 'active' && verifiedBasic.has(key)) {
    basicChecked.set(request, user)
    return
  }
  const ok = await verifyPassword(basic.password, user?.password_hash)
  if (!ok || !user || user.status !== 'active') return
  if (verifiedBasic.size >= 10_000) verifiedBasic.clear()
  verifiedBasic.add(key)
  basicChecked.set(request, user)
}

/** The user's roles as stored (not copies: for reading only). */
export function rolesOf(cluster: ClusterState, user: User): readonly Readonly<Role>[] {
  return user.role_ids.map((id) => cluster.store.peek<Role>('role', String(id))).filter((r): r is Readonly<Role> => !!r)
}

function policyCovers(policy: Policy, scope: Scope | undefined): boolean {
  if (!policy.scope_type || policy.scope_type === 'org') return true
  if (!scope) return false
  if (policy.scope_type === 'project') return !!scope.projectId && scope.projectId === policy.scope_id
  if (policy.scope_type === 'table') return !!scope.tableId && scope.tableId === policy.scope_id
  return !!scope.id && scope.id === policy.scope_id
}

/** Whether `user` holds `permission` in `scope` (a global grant covers every scope). */
export function can(cluster: ClusterState, user: User, permission: string, scope?: Scope): boolean {
  for (const role of rolesOf(cluster, user)) {
    if (role.name === 'super_admin' && role.built_in) return true
    for (const policy of role.policies) {
      if (policy.permissions.includes(permission) && policyCovers(policy, scope)) return true
    }
  }
  return false
}

/**
 * Whether `user` holds `permission` anywhere (in any scope): lists use it to decide between
 * a 403 and a list filtered to what the user may see.
 */
export function canSomewhere(cluster: ClusterState, user: User, permission: string): boolean {
  return rolesOf(cluster, user).some(
    (role) =>
      (role.name === 'super_admin' && role.built_in) || role.policies.some((p) => p.permissions.includes(permission)),
  )
}

/**
 * Where `user` holds `permission`, read once from its policies: `all` for a grant that covers every
 * scope (the org's, or super_admin), `none` for no grant at all (a list answers 403), otherwise the
 * ids of the projects, tables and single objects granted, and `covers(scope)`, which answers as
 * `can(cluster, user, permission, scope)` does without walking the roles again (counting 10,000
 * tables one by one: the org summary of a scoped user).
 */
export type Reach =
  | { kind: 'all'; covers(scope: Scope): boolean }
  | { kind: 'none'; covers(scope: Scope): boolean }
  | { kind: 'some'; covers(scope: Scope): boolean; projects: Set<string>; tables: Set<string>; ids: Set<string> }

const REACH_ALL: Reach = { kind: 'all', covers: () => true }
const REACH_NONE: Reach = { kind: 'none', covers: () => false }

export function reach(cluster: ClusterState, user: User, permission: string): Reach {
  const projects = new Set<string>()
  const tables = new Set<string>()
  const ids = new Set<string>()
  let any = false
  for (const role of rolesOf(cluster, user)) {
    if (role.name === 'super_admin' && role.built_in) return REACH_ALL
    for (const policy of role.policies) {
      if (!policy.permissions.includes(permission)) continue
      if (!policy.scope_type || policy.scope_type === 'org') return REACH_ALL
      any = true
      if (!policy.scope_id) continue // covers nothing, as policyCovers answers
      const into = policy.scope_type === 'project' ? projects : policy.scope_type === 'table' ? tables : ids
      into.add(policy.scope_id)
    }
  }
  if (!any) return REACH_NONE
  return {
    kind: 'some',
    projects,
    tables,
    ids,
    covers: (scope) =>
      (!!scope.projectId && projects.has(scope.projectId)) ||
      (!!scope.tableId && tables.has(scope.tableId)) ||
      (!!scope.id && ids.has(scope.id)),
  }
}

/** The caller, if they hold `permission` in `scope`; 401 when not signed in, 403 otherwise. */
export function authorize(ctx: Ctx, permission: string, scope?: Scope): User {
  const user = requireUser(ctx)
  if (!can(ctx.cluster, user, permission, scope)) throw forbidden()
  return user
}

/** Every permission the user holds, with the scopes of scoped grants. */
export function permissionsOf(cluster: ClusterState, user: User): string[] {
  const out = new Set<string>()
  for (const role of rolesOf(cluster, user))
    for (const p of role.policies) for (const perm of p.permissions) out.add(perm)
  return [...out].sort()
}
