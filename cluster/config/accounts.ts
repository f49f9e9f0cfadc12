import crypto from 'node:crypto'
import { hashPassword, readCredentials, signToken, verifyPassword, verifyToken } from '../auth'
import type { ClusterRouter, ClusterState, Ctx } from '../context'
import {
  CONFIG_GENERATION_HEADER,
  configStamp,
  isNotModified,
  json,
  noContent,
  notModified,
  nowIso,
  readJsonObject,
  STAMP_EPOCH,
  unauthorized,
  validationError,
} from '../http'
import { permissionsOf, requireUser, revokedTokenId, type User } from './access'
import { audit } from './audit'
import { publicUser } from './util'
import type { ClusterRequest } from '../node-http'

/** Login, the current user, password reset/confirm/change, and the auth log they write. */

export interface AuthLogEvent {
  id: string
  time: number
  timestamp: string
  type: string
  realmId: string
  clientId: string
  userId: string | null
  username: string
  sessionId: string | null
  ipAddress: string
  error: string | null
  details: Record<string, unknown>
}

export function recordAuthEvent(
  cluster: ClusterState,
  request: ClusterRequest,
  e: { type: string; user?: User | null; username: string; error?: string; details?: Record<string, unknown> },
) {
  const now = Date.now()
  const event: AuthLogEvent = {
    id: crypto.randomUUID(),
    time: now,
    timestamp: new Date(now).toISOString(),
    type: e.type,
    realmId: 'hydrolix-users',
    clientId: 'config-api',
    userId: e.user?.uuid ?? null,
    username: e.username,
    sessionId: e.type === 'LOGIN' ? crypto.randomUUID() : null,
    ipAddress: (request.headers.get('x-forwarded-for') ?? '127.0.0.1').split(',')[0].trim(),
    error: e.error ?? null,
    details: { auth_method: 'password', username: e.username, ...(e.details ?? {}) },
  }
  cluster.store.put('authlog', event.id, event)
}

export const MIN_PASSWORD_LENGTH = 8

export function passwordProblems(password: unknown): string[] {
  if (typeof password !== 'string' || password === '') return ['This field is required.']
  if (password.length < MIN_PASSWORD_LENGTH)
    return [`This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`]
  return []
}

export function userByEmail(cluster: ClusterState, email: string): User | undefined {
  const wanted = email.trim().toLowerCase()
  return cluster.store.find<User>('user', (u) => u.type === 'user' && u.email.toLowerCase() === wanted)
}

function loginAnswer(ctx: Ctx, user: User) {
  const ttl = ctx.cluster.options.tokenTtlSeconds
  const token = signToken(ctx.cluster.secret, {
    sub: user.uuid,
    typ: 'user',
    exp: Math.floor(Date.now() / 1000) + ttl,
    pwv: user.password_version ?? 0,
  })
  return {
    ...publicUser(ctx.cluster, user),
    groups: [],
    auth_token: { access_token: token, expires_in: ttl, token_type: 'Bearer' },
  }
}

export function registerAccountRoutes(router: ClusterRouter) {
  router.post('/config/v1/login', async (ctx) => {
    const body = await readJsonObject(ctx.request)
    const username =
      typeof body.username === 'string' ? body.username : typeof body.email === 'string' ? body.email : ''
    const errors: Record<string, string[]> = {}
    if (!username) errors.username = ['This field is required.']
    if (typeof body.password !== 'string' || !body.password) errors.password = ['This field is required.']
    if (Object.keys(errors).length) throw validationError(errors)
    const user = userByEmail(ctx.cluster, username)
    // an unknown email is hashed too (against a hash of nothing), so it costs a wrong password's time
    const passwordOk = await verifyPassword(String(body.password), user?.password_hash)
    if (!user || !passwordOk || user.status !== 'active') {
      recordAuthEvent(ctx.cluster, ctx.request, {
        type: 'LOGIN_ERROR',
        user,
        username,
        error: user ? 'invalid_user_credentials' : 'user_not_found',
      })
      throw unauthorized('Invalid username or password.')
    }
    recordAuthEvent(ctx.cluster, ctx.request, { type: 'LOGIN', user, username })
    return json(loginAnswer(ctx, user))
  })

  // Ends the caller's token now (issue 37: a console's Log out must end the session everywhere, also
  // for a copy of its cookie). An extension of the local cluster: the public API documents none, so
  // the console treats a 404 as "not offered". The revocation is kept until the token would expire.
  router.post('/config/v1/logout', (ctx) => {
    const user = requireUser(ctx)
    const bearer = readCredentials(ctx.request).bearer
    if (bearer) {
      const { exp } = verifyToken(ctx.cluster.secret, bearer)
      for (const revoked of ctx.cluster.store.filter<{ id: string; exp: number }>(
        'revoked_token',
        (entry) => entry.exp * 1000 <= Date.now(),
      ))
        ctx.cluster.store.put('revoked_token', revoked.id, undefined)
      ctx.cluster.store.put('revoked_token', revokedTokenId(bearer), {
        id: revokedTokenId(bearer),
        exp,
        user: user.uuid,
      })
    }
    return noContent()
  })

  router.get('/config/v1/users/current', (ctx) => {
    const user = requireUser(ctx)
    // The answer reads the user, their roles and their org: its ETag is the user and those kinds'
    // generations (any change to any user, role or org makes a new one), so If-None-Match is
    // answered 304 without building the answer (decision 102). Checked after the token, as every read.
    // Both answers name the configuration generation (decision 113): the console checks its kept
    // answers of this caller against it.
    const { store } = ctx.cluster
    const stamp = { [CONFIG_GENERATION_HEADER]: configStamp(store.configGeneration()) }
    const etag = `"u-${user.uuid}-${STAMP_EPOCH}.${store.generation('user')}.${store.generation('role')}.${store.generation('org')}"`
    if (isNotModified(ctx.request, etag)) return notModified(etag, stamp)
    return json({ ...publicUser(ctx.cluster, user), permissions: permissionsOf(ctx.cluster, user) }, 200, {
      etag,
      ...stamp,
    })
  })

  router.post('/config/v1/reset_password', async (ctx) => {
    const body = await readJsonObject(ctx.request)
    if (typeof body.email !== 'string' || !body.email.trim())
      throw validationError({ email: ['This field is required.'] })
    if (!/^[^@\s]+@[^@\s]+$/.test(body.email.trim())) throw validationError({ email: ['Enter a valid email address.'] })
    const user = userByEmail(ctx.cluster, body.email)
    // logged alike for every email, known or not (the log is readable by users; it must not tell)
    ctx.cluster.log({
      level: 'info',
      service: 'turbine-api',
      component: 'auth',
      message: `password reset requested for ${body.email.trim().toLowerCase().slice(0, 254)}`,
    })
    if (user) {
      const link = issueAccountLink(ctx.cluster, user, { ttlSeconds: ctx.cluster.options.resetTokenTtlSeconds })
      ctx.cluster.mail({
        to: user.email,
        subject: 'Reset your password',
        text:
          `Someone asked to reset the password of ${user.email}. To set a new one, open ${link} ` +
          `within ${Math.round(ctx.cluster.options.resetTokenTtlSeconds / 60)} minutes. If it was ` +
          `not you, ignore this mail.`,
        link,
      })
      recordAuthEvent(ctx.cluster, ctx.request, { type: 'SEND_RESET_PASSWORD', user, username: user.email })
    }
    // Always 200: the answer must not tell whether the email is known.
    return json({ detail: 'If the email is registered, a password reset link has been sent.' })
  })

  router.post('/config/v1/password_reset_confirm', async (ctx) => {
    const body = await readJsonObject(ctx.request)
    const errors: Record<string, string[]> = {}
    for (const f of ['uuidb64', 'token', 'password', 'password_confirm']) {
      if (typeof body[f] !== 'string' || !body[f]) errors[f] = ['This field is required.']
    }
    if (!errors.password) {
      const problems = passwordProblems(body.password)
      if (problems.length) errors.password = problems
    }
    if (!errors.password && !errors.password_confirm && body.password !== body.password_confirm) {
      errors.password_confirm = ['Passwords do not match.']
    }
    if (Object.keys(errors).length) throw validationError(errors)
    const userId = Buffer.from(String(body.uuidb64), 'base64url').toString('utf8')
    const record = ctx.cluster.store.get<{ user: string; exp: number; invite?: number }>(
      'reset_token',
      sha256(String(body.token)),
    )
    const user = ctx.cluster.store.get<User>('user', userId)
    if (!record || record.user !== userId || record.exp < Date.now() || !user) {
      throw validationError({ non_field_errors: ['The reset link is invalid or has expired.'] })
    }
    // single use, and with it every other link of the user's
    voidAccountLinks(ctx.cluster, user.uuid)
    ctx.cluster.store.put('user', user.uuid, {
      ...user,
      status: 'active',
      password_hash: await hashPassword(String(body.password)),
      // every session of the user ends (a reset is what someone does who fears their password is known)
      password_version: (user.password_version ?? 0) + 1,
      modified: nowIso(),
    })
    // the user's pending invite is accepted, also when a reset link (which voided the invite's) was used
    for (const invite of ctx.cluster.store.filter<{ id: number; user?: string; status?: string }>(
      'invite',
      (i) => i.status === 'pending' && (i.user === user.uuid || i.id === record.invite),
    ))
      ctx.cluster.store.put('invite', String(invite.id), { ...invite, status: 'accepted', modified: nowIso() })
    recordAuthEvent(ctx.cluster, ctx.request, { type: 'UPDATE_PASSWORD', user, username: user.email })
    audit(ctx.cluster, user, 'reset_password', `${user.email} set a new password`, { kind: 'user', id: user.uuid })
    return json({ success: true })
  })

  router.put('/config/v1/change_password', async (ctx) => {
    const user = requireUser(ctx)
    const body = await readJsonObject(ctx.request)
    const errors: Record<string, string[]> = {}
    for (const f of ['current_password', 'new_password', 'confirm_password']) {
      if (typeof body[f] !== 'string' || !body[f]) errors[f] = ['This field is required.']
    }
    if (!errors.current_password && !(await verifyPassword(String(body.current_password), user.password_hash))) {
      errors.current_password = ['The current password is incorrect.']
    }
    if (!errors.new_password) {
      const problems = passwordProblems(body.new_password)
      if (problems.length) errors.new_password = problems
    }
    if (!errors.new_password && !errors.confirm_password && body.new_password !== body.confirm_password) {
      errors.confirm_password = ['Passwords do not match.']
    }
    if (Object.keys(errors).length) throw validationError(errors)
    const changed: User = {
      ...user,
      password_hash: await hashPassword(String(body.new_password)),
      // the user's other sessions end; this one goes on with the token in the answer
      password_version: (user.password_version ?? 0) + 1,
      modified: nowIso(),
    }
    ctx.cluster.store.put('user', user.uuid, changed)
    voidAccountLinks(ctx.cluster, user.uuid)
    recordAuthEvent(ctx.cluster, ctx.request, { type: 'UPDATE_PASSWORD', user, username: user.email })
    audit(ctx.cluster, user, 'change_password', `${user.email} changed their password`, { kind: 'user', id: user.uuid })
    // A real cluster answers only the detail. The local cluster adds a new token for the caller
    // (the old one ended with the change): a client that knows the key keeps its session.
    return json({ detail: 'Password changed.', auth_token: loginAnswer(ctx, changed).auth_token })
  })
}

/**
 * A set-password link for `user` (a reset, or an invite's): a random token whose SHA-256 is kept
 * with its expiry, never the token. The newest voids every earlier link of the user's.
 */
export function issueAccountLink(
  cluster: ClusterState,
  user: User,
  e: { ttlSeconds: number; invite?: number },
): string {
  voidAccountLinks(cluster, user.uuid)
  const token = crypto.randomBytes(20).toString('hex')
  const id = sha256(token)
  cluster.store.put('reset_token', id, {
    id,
    user: user.uuid,
    ...(e.invite !== undefined ? { invite: e.invite } : {}),
    exp: Date.now() + e.ttlSeconds * 1000,
    created: nowIso(),
  })
  return `/verifyaccount/${Buffer.from(user.uuid).toString('base64url')}/${token}`
}

/** Ends every set-password link of a user's (on a new link, a reset, a password change). */
export function voidAccountLinks(cluster: ClusterState, userId: string) {
  for (const id of cluster.store.ids<{ user: string }>('reset_token', (t) => t.user === userId))
    cluster.store.delete('reset_token', id)
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex')
}
