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
    if (cluster.store.peek('revoked_token', revokedTokenId(bearer))) throw unauthorized('Token has been revoked')
    return user
  }
  if (credentials.basic) {
    const email = credentials.basic.username.trim().toLowerCase()
    const user = cluster.store.find<User>('user', (u) => u.type === 'user' && u.email.toLowerCase() === email)
    if (
      !user ||
      !user.password_hash ||
      user.status !== 'active' ||
      !verifyPassword(credentials.basic.password, user.password_hash)
    ) {
      throw unauthorized('Invalid username/password.')
    }
    return user
  }
  throw unauthorized()
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
