import type { ClusterState, Ctx } from '../context'
import { notFound } from '../http'
import type { Role, User } from './access'

export interface Org {
  uuid: string
  name: string
  type: string
  cloud: string
  kubernetes: boolean
  created: string
  modified: string
}

/** `scheme://host` of the request, as the client used it (urls in answers are built from it). */
export function origin(ctx: Ctx): string {
  // asked once per item of a list answer (its `url`): worked out once per request (issue 33)
  let known = origins.get(ctx)
  if (known === undefined) {
    const proto = ctx.request.headers.get('x-forwarded-proto') ?? ctx.url.protocol.replace(':', '')
    const host = ctx.request.headers.get('x-forwarded-host') ?? ctx.url.host
    known = `${proto}://${host}`
    origins.set(ctx, known)
  }
  return known
}
const origins = new WeakMap<Ctx, string>()

/** Next value of an integer sequence kept in the store (roles, invites). */
export function nextSeq(cluster: ClusterState, name: string): number {
  const current = cluster.store.get<{ value: number }>('meta', `seq:${name}`)?.value ?? 0
  cluster.store.put('meta', `seq:${name}`, { value: current + 1 })
  return current + 1
}

export function getOrg(cluster: ClusterState, orgId: string): Org {
  const org = cluster.store.get<Org>('org', orgId)
  if (!org) throw notFound('Org not found.')
  return org
}

export function primaryOrg(cluster: ClusterState): Org {
  const id = cluster.store.get<{ orgId: string }>('meta', 'bootstrap')?.orgId
  const org = id ? cluster.store.get<Org>('org', id) : undefined
  if (!org) throw new Error('The cluster has no org (bootstrap has not run)')
  return org
}

export function publicOrg(org: Org) {
  return { uuid: org.uuid, name: org.name, type: org.type, cloud: org.cloud, kubernetes: org.kubernetes }
}

/** A user as clients see it (no password hash; role names instead of ids). */
export function publicUser(cluster: ClusterState, user: User, base?: string) {
  const roles = user.role_ids
    .map((id) => cluster.store.peek<Role>('role', String(id))?.name)
    .filter((n): n is string => !!n)
  // read in place (a list of 1,000 users copied every user's roles and org)
  const org = cluster.store.peek<Org>('org', user.org)
  return {
    uuid: user.uuid,
    email: user.email,
    username: user.email,
    name: user.name ?? user.email,
    ...(user.type === 'service_account' ? { description: user.description ?? '' } : {}),
    type: user.type,
    is_service_account: user.type === 'service_account',
    status: user.status,
    emailVerified: user.status === 'active',
    roles,
    org: user.org,
    orgs: org ? [publicOrg(org)] : [],
    created: user.created,
    modified: user.modified,
    ...(base ? { url: `${base}/config/v1/users/${user.uuid}` } : {}),
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Deep merge: objects merge key by key, everything else (arrays included) is replaced. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : structuredClone(patch)) as T
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(patch)) out[k] = k in out ? deepMerge(out[k], v) : structuredClone(v)
  return out as T
}
