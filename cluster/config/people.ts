import crypto from 'node:crypto'
import { hashPassword, signToken } from '../auth'
import type { ClusterRouter, ClusterState, Ctx } from '../context'
import { HttpError, json, listResponse, noContent, nowIso, readJsonObject, validationError } from '../http'
import { authorize, can, requireUser, type Role, type User } from './access'
import { issueAccountLink, passwordProblems, userByEmail } from './accounts'
import { audit } from './audit'
import { defineResource, type Item, type PrepareEvent, type ResourceApi } from './crud'
import { ALL_PERMISSIONS, permissionCatalogue, ROLE_LABELS, SCOPE_TYPES } from './permissions'
import { descriptionField, f, nameField } from './schema'
import { nextSeq, origin, publicUser } from './util'

/** Users, service accounts (+ tokens), invites and roles. */

/** How `?ordering=` compares (crud lists' order: localeCompare's). */
const COLLATOR = new Intl.Collator()
const EMAIL = /^[^@\s]+@[^@\s]+$/
const SA_TOKEN_DAYS = 365
/** A real cluster's answer to inviting an email that already has a user or a pending invite (its text, as is). */
export const USER_EXISTS = 'User already exists. if trying to resend an invite, use /invites/<invite_id>/resend_invite.'

/** Role names → ids; unknown names become a `roles` error. Accepts the UI labels ("Org admin"). */
function roleIds(
  cluster: ClusterState,
  names: unknown,
  errors: Record<string, unknown>,
  field = 'roles',
): number[] | undefined {
  if (names === undefined) return undefined
  const list = names as string[]
  const ids: number[] = []
  const unknown: string[] = []
  for (const name of list) {
    const wanted = ROLE_LABELS[name.toLowerCase()] ?? name
    const role = cluster.store.find<Role>('role', (r) => r.name === wanted || String(r.id) === String(name))
    if (role) ids.push(role.id)
    else unknown.push(name)
  }
  // a real cluster's roles field is a DRF SlugRelatedField on the name: its does_not_exist text
  if (unknown.length) errors[field] = unknown.map((n) => `Object with name=${n} does not exist.`)
  return [...new Set(ids)]
}

function userView(item: Item, ctx: Ctx) {
  const out: Record<string, unknown> = publicUser(ctx.cluster, item as unknown as User)
  return out
}

// ---- users ----------------------------------------------------------------------------------------

function registerUsers(router: ClusterRouter): ResourceApi {
  const roleChange = (verb: 'add' | 'remove') => async (ctx: Ctx, api: ResourceApi) => {
    // users and service accounts alike (roles of a service account are set here too)
    const item = ctx.cluster.store.get<Item>('user', ctx.params.id)
    if (!item) throw new HttpError(404, { detail: 'Not found.' })
    const actor = authorize(ctx, 'change_user', { id: item.uuid })
    const body = await readJsonObject(ctx.request)
    if (!Array.isArray(body.roles) || body.roles.some((r) => typeof r !== 'string'))
      throw validationError({ roles: ['Expected a list of role names.'] })
    const errors: Record<string, unknown> = {}
    const ids = roleIds(ctx.cluster, body.roles, errors)!
    if (Object.keys(errors).length) throw validationError(errors)
    const current = item.role_ids as number[]
    const next = verb === 'add' ? [...new Set([...current, ...ids])] : current.filter((id) => !ids.includes(id))
    const saved = { ...item, role_ids: next, modified: nowIso() }
    ctx.cluster.store.put('user', item.uuid, saved)
    audit(
      ctx.cluster,
      actor,
      `change_user`,
      `${verb === 'add' ? 'Added' : 'Removed'} ` +
        `roles ${(body.roles as string[]).join(', ')} ${verb === 'add' ? 'to' : 'from'} ${item.email}`,
      { kind: 'user', id: item.uuid },
    )
    return json(api.serialize(saved, ctx))
  }

  return defineResource(router, {
    kind: 'user',
    resource: 'user',
    label: 'user',
    level: 'global',
    path: 'users',
    noName: true,
    uniqueBy: 'email',
    // service accounts are users too: users/{uuid} reads, changes and deletes them as well
    displayName: (u) => u.email,
    description:
      'Users (service accounts are listed too). POST creates a user with a password directly (a ' +
      'local-cluster convenience; real clusters invite).',
    fields: {
      email: f.str({
        required: true,
        blank: false,
        maxLength: 254,
        pattern: EMAIL,
        patternMessage: 'Enter a valid email address.',
      }),
      name: f.str({ blank: true, maxLength: 150 }),
      password: f.str({ blank: false, help: 'Write only' }),
      roles: f.list(f.str()),
    },
    view: userView,
    routes(router, api) {
      // users/ lists service accounts too, as a real cluster does
      router.get(api.collectionPattern, (ctx) => {
        const user = requireUser(ctx)
        if (!can(ctx.cluster, user, 'view_user')) authorize(ctx, 'view_user')
        // invited users are listed too (status "pending", emailVerified false), as on a real cluster:
        // hdxcli deletes an invited user through users/ by email
        // filtered in place; only the page answered is copied and serialized
        const email = ctx.url.searchParams.get('email')
        let users: Readonly<User>[] = []
        for (const u of ctx.cluster.store.values<User>('user')) if (!email || u.email === email) users.push(u)
        // DRF's ordering filter, as crud lists have it (`?ordering=email`, `-email`): one page of a sorted list
        const ordering = ctx.url.searchParams.get('ordering')
        const field = ordering?.replace(/^-/, '') as keyof User | undefined
        if (field && ['email', 'name', 'created', 'modified'].includes(field)) {
          const sign = ordering!.startsWith('-') ? -1 : 1
          users = [...users].sort((a, b) => sign * COLLATOR.compare(String(a[field] ?? ''), String(b[field] ?? '')))
        }
        const base = origin(ctx)
        // publicUser only reads: the stored user itself, no copy
        return listResponse(ctx.request, users, {
          bareArrays: ctx.cluster.options.bareArrays,
          serialize: (u) => ({ ...publicUser(ctx.cluster, u as User), url: `${base}/config/v1/users/${u.uuid}` }),
        })
      })
      // anyone may read themselves
      router.get(api.itemPattern, (ctx) => {
        const me = requireUser(ctx)
        const target = ctx.cluster.store.get<User>('user', ctx.params.id)
        if (!target) throw new HttpError(404, { detail: 'Not found.' })
        if (target.uuid !== me.uuid) authorize(ctx, 'view_user', { id: target.uuid })
        const base = origin(ctx)
        return json({ ...publicUser(ctx.cluster, target), url: `${base}/config/v1/users/${target.uuid}` })
      })
      router.post(`${api.itemPattern}/add_roles`, (ctx) => roleChange('add')(ctx, api))
      router.post(`${api.itemPattern}/remove_roles`, (ctx) => roleChange('remove')(ctx, api))
    },
    async prepare({ ctx, data, previous, parents, errors }: PrepareEvent) {
      data.email = String(data.email).trim().toLowerCase()
      if (!previous && data.password === undefined) errors.password = ['This field is required.']
      if (previous?.type === 'service_account' && data.password !== undefined)
        errors.password = ['Service accounts have no password.']
      if (data.password !== undefined) {
        const problems = passwordProblems(data.password)
        if (problems.length) errors.password = problems
        else {
          data.password_hash = await hashPassword(String(data.password))
          // a password set by an admin ends the user's sessions, as a change or reset does
          if (previous) data.password_version = Number(previous.password_version ?? 0) + 1
        }
        delete data.password
      }
      const ids = roleIds(ctx.cluster, data.roles, errors)
      delete data.roles
      data.role_ids = ids ?? previous?.role_ids ?? []
      data.type = previous?.type ?? 'user'
      data.status = previous?.status ?? 'active'
      data.org = parents.org.uuid
      data.name ??= data.email
    },
    beforeDelete({ ctx, user, item }) {
      if (item.uuid === user.uuid) throw validationError({ non_field_errors: ['You cannot delete yourself.'] })
      for (const invite of ctx.cluster.store.filter<Item>('invite', (i) => i.email === item.email))
        ctx.cluster.store.delete('invite', String(invite.id))
    },
  })
}

// ---- service accounts -----------------------------------------------------------------------------

function registerServiceAccounts(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'user',
    resource: 'serviceaccount',
    label: 'service account',
    level: 'global',
    path: 'service_accounts',
    match: (u) => u.type === 'service_account',
    description: 'Service accounts: non-human users that authenticate with long-lived, revocable tokens.',
    fields: {
      name: nameField(63, { pattern: /^[A-Za-z0-9_.@-]+$/, patternMessage: 'Use letters, digits and . _ - @ only.' }),
      description: descriptionField(),
      roles: f.list(f.str()),
    },
    view: (item, ctx) => {
      const u = publicUser(ctx.cluster, item as unknown as User)
      return {
        uuid: u.uuid,
        name: item.name,
        description: item.description ?? '',
        roles: u.roles,
        org: item.org,
        created: item.created,
        modified: item.modified,
      }
    },
    prepare({ ctx, data, previous, parents, errors }) {
      const ids = roleIds(ctx.cluster, data.roles, errors)
      delete data.roles
      data.role_ids = ids ?? previous?.role_ids ?? []
      data.type = 'service_account'
      data.status = 'active'
      data.email = `${data.name}@service-accounts.local`
      data.org = parents.org.uuid
    },
    afterDelete({ ctx, item }) {
      for (const t of ctx.cluster.store.filter<{ jti: string; sub: string }>('sa_token', (t) => t.sub === item.uuid))
        ctx.cluster.store.delete('sa_token', t.jti)
    },
    routes(router, api) {
      const tokens = `${api.itemPattern}/tokens`
      router.post(tokens, async (ctx) => {
        const { item } = api.load(ctx)
        const actor = authorize(ctx, 'change_serviceaccount', { id: item.uuid })
        const body = await readJsonObject(ctx.request)
        let exp = Math.floor(Date.now() / 1000) + SA_TOKEN_DAYS * 86_400
        if (body.expiry !== undefined && body.expiry !== null) {
          const t = typeof body.expiry === 'string' ? Date.parse(body.expiry) : NaN
          if (Number.isNaN(t)) throw validationError({ expiry: ['Datetime has wrong format. Use ISO 8601.'] })
          if (t <= Date.now()) throw validationError({ expiry: ['The expiry must be in the future.'] })
          exp = Math.floor(t / 1000)
        }
        const token = signToken(ctx.cluster.secret, { sub: item.uuid, typ: 'service_account', exp })
        const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as {
          jti: string
          iat: number
        }
        ctx.cluster.store.put('sa_token', claims.jti, {
          jti: claims.jti,
          sub: item.uuid,
          created: nowIso(),
          expiry: new Date(exp * 1000).toISOString(),
        })
        audit(
          ctx.cluster,
          actor,
          'change_serviceaccount',
          `Issued a token for service account "${item.name}" (expires ${new Date(exp * 1000).toISOString()})`,
          { kind: 'serviceaccount', id: item.uuid },
        )
        return json(
          { token, jti: claims.jti, expiry: new Date(exp * 1000).toISOString(), expires_in: exp - claims.iat },
          201,
        )
      })
      router.get(tokens, (ctx) => {
        const { item } = api.load(ctx)
        authorize(ctx, 'view_serviceaccount', { id: item.uuid })
        const list = ctx.cluster.store.filter<Record<string, unknown>>('sa_token', (t) => t.sub === item.uuid)
        return listResponse(
          ctx.request,
          list.map((t) => ({ jti: t.jti, created: t.created, expiry: t.expiry })),
          { bareArrays: ctx.cluster.options.bareArrays },
        )
      })
      router.delete(tokens, (ctx) => {
        const { item } = api.load(ctx)
        const actor = authorize(ctx, 'change_serviceaccount', { id: item.uuid })
        const list = ctx.cluster.store.filter<{ jti: string; sub: string }>('sa_token', (t) => t.sub === item.uuid)
        for (const t of list) ctx.cluster.store.delete('sa_token', t.jti)
        audit(
          ctx.cluster,
          actor,
          'change_serviceaccount',
          `Revoked ${list.length} token(s) of service account "${item.name}"`,
          { kind: 'serviceaccount', id: item.uuid },
        )
        return noContent()
      })
    },
  })
}

// ---- invites --------------------------------------------------------------------------------------

/**
 * Issues a set-password link for a (pending) user, voiding the earlier ones (a resent invite
 * replaces its link). There is no mail server: the mail goes to the outbox, never to the log.
 */
function issueInviteLink(ctx: Ctx, invite: Item, user: User) {
  const ttlSeconds = ctx.cluster.options.inviteTokenTtlSeconds
  const link = issueAccountLink(ctx.cluster, user, { ttlSeconds, invite: invite.id as number })
  ctx.cluster.mail({
    to: user.email,
    subject: 'You are invited to the cluster',
    text:
      `You are invited to the cluster as ${user.email}. To set your password, open ${link} ` +
      `within ${Math.round(ttlSeconds / 3600)} hours.`,
    link,
  })
  ctx.cluster.log({
    level: 'info',
    service: 'turbine-api',
    component: 'invites',
    message: `invite sent to ${user.email}`,
  })
  return link
}

/** Why an invite's scope cannot be used (as field errors), or undefined: the org, or a project or table of it. */
function inviteScopeProblem(
  cluster: ClusterState,
  scopeType: string | null,
  scopeId: string | null,
  orgId: string,
): Record<string, string[]> | undefined {
  if (!scopeType) return scopeId ? { scope_type: ['A scope type is required with a scope id.'] } : undefined
  if (scopeType === 'org')
    return scopeId && scopeId !== orgId ? { scope_id: ['The scope id of an org scope is the org.'] } : undefined
  if (!scopeId) return { scope_id: ['A scope id is required with a scope type.'] }
  if (scopeType === 'project')
    return cluster.store.get('project', scopeId) ? undefined : { scope_id: ['Project not found.'] }
  if (scopeType === 'table') return cluster.store.get('table', scopeId) ? undefined : { scope_id: ['Table not found.'] }
  return { scope_type: [`An invite is scoped to the org, a project or a table, not "${scopeType}".`] }
}

/**
 * The id of the role that grants role `roleId`'s permissions in one project or table, made when
 * first needed (named `<role>_<scope type>_<scope id>`; a real cluster grants an invite's role
 * through policies scoped the same way). An org-wide policy becomes scoped; a policy already scoped
 * is kept only inside the scope (the same object, or a table of the project), else left out.
 */
function scopedRoleId(cluster: ClusterState, roleId: number, scopeType: string, scopeId: string): number {
  const base = cluster.store.get<Role>('role', String(roleId))
  if (!base) return roleId
  const name = `${base.name}_${scopeType}_${scopeId}`.slice(0, 63)
  const found = cluster.store.find<Role>('role', (role) => role.name === name)
  if (found) return found.id
  const inScope = (policy: Role['policies'][number]) => {
    if (policy.scope_type === scopeType && policy.scope_id === scopeId) return true
    if (scopeType !== 'project' || policy.scope_type !== 'table' || !policy.scope_id) return false
    return cluster.store.get<{ project?: string }>('table', policy.scope_id)?.project === scopeId
  }
  const policies = base.policies.flatMap((policy) =>
    !policy.scope_type || policy.scope_type === 'org'
      ? [{ ...policy, scope_type: scopeType, scope_id: scopeId }]
      : inScope(policy)
        ? [policy]
        : [],
  )
  const label = scopeType === 'project' ? 'project' : 'table'
  const scopeName = cluster.store.get<{ name?: string }>(scopeType, scopeId)?.name ?? scopeId
  const now = nowIso()
  const id = nextSeq(cluster, 'role')
  cluster.store.put<Role>('role', String(id), {
    id,
    name,
    description: `${base.name} in ${label} ${scopeName} only (made for a scoped invite)`,
    policies,
    created: now,
    modified: now,
  })
  return id
}

function registerInvites(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'invite',
    resource: 'invite',
    label: 'invite',
    level: 'global',
    path: 'invites',
    idKind: 'int',
    noName: true,
    uniqueBy: 'email',
    uniqueMessage: USER_EXISTS,
    displayName: (i) => i.email,
    methods: { update: false },
    description: 'Invites: a pending user who sets a password through the link (written to the cluster log).',
    fields: {
      email: f.str({
        required: true,
        blank: false,
        maxLength: 254,
        pattern: EMAIL,
        patternMessage: 'Enter a valid email address.',
      }),
      org: f.uuid(),
      roles: f.list(f.str(), { required: true, minItems: 1 }),
      scope_type: f.str({ nullable: true, blank: true }),
      scope_id: f.str({ nullable: true, blank: true }),
      status: f.str({ readOnly: true }),
    },
    listFilter: (items, ctx) =>
      ctx.url.searchParams.get('pending_only') === 'true' ? items.filter((i) => i.status === 'pending') : items,
    prepare({ ctx, data, parents, errors }) {
      data.email = String(data.email).trim().toLowerCase()
      const existing = userByEmail(ctx.cluster, String(data.email))
      if (existing && existing.status === 'active') errors.email = [USER_EXISTS]
      if (data.org && data.org !== parents.org.uuid) errors.org = ['Unknown org.']
      data.org = parents.org.uuid
      const ids = roleIds(ctx.cluster, data.roles, errors)
      data.role_ids = ids
      data.status = 'pending'
      // the scope the invite's roles are granted in (blank or org: the whole org, as before)
      data.scope_type = data.scope_type || null
      data.scope_id = data.scope_id || null
      const scopeProblem = inviteScopeProblem(
        ctx.cluster,
        data.scope_type as string | null,
        data.scope_id as string | null,
        parents.org.uuid,
      )
      if (scopeProblem) Object.assign(errors, scopeProblem)
    },
    afterSave({ ctx, user, item }) {
      const now = nowIso()
      // a scoped invite grants its roles in that scope only: each role as a role of its own whose
      // policies hold the same permissions scoped to the project or table (decision 098)
      if (item.scope_type && item.scope_type !== 'org' && item.scope_id)
        item.role_ids = (item.role_ids as number[]).map((id) =>
          scopedRoleId(ctx.cluster, id, item.scope_type as string, item.scope_id as string),
        )
      let invitee = userByEmail(ctx.cluster, item.email)
      if (!invitee) {
        invitee = {
          uuid: crypto.randomUUID(),
          email: item.email,
          name: item.email,
          type: 'user',
          org: item.org,
          role_ids: item.role_ids,
          status: 'pending',
          created: now,
          modified: now,
        }
      } else invitee = { ...invitee, role_ids: item.role_ids, modified: now }
      ctx.cluster.store.put('user', invitee.uuid, invitee)
      issueInviteLink(ctx, item, invitee)
      ctx.cluster.store.put('invite', String(item.id), {
        ...item,
        invited_by: user.email,
        user: invitee.uuid,
        sent: now,
        sent_count: 1,
      })
    },
    view: (item) => {
      const { role_ids: _r, ...rest } = item
      void _r
      return Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith('_')))
    },
    beforeDelete({ ctx, item }) {
      const invitee = ctx.cluster.store.get<User>('user', item.user)
      if (invitee?.status === 'pending') ctx.cluster.store.delete('user', invitee.uuid)
    },
    routes(router, api) {
      router.post(`${api.itemPattern}/resend_invite`, (ctx) => {
        const { item } = api.load(ctx)
        const actor = authorize(ctx, 'change_invite', { id: String(item.id) })
        if (item.status !== 'pending') throw validationError({ non_field_errors: ['The invite was already accepted.'] })
        const invitee = ctx.cluster.store.get<User>('user', item.user)
        if (!invitee) throw validationError({ non_field_errors: ['The invited user no longer exists.'] })
        issueInviteLink(ctx, item, invitee)
        const saved = { ...item, sent: nowIso(), sent_count: (item.sent_count ?? 1) + 1, modified: nowIso() }
        ctx.cluster.store.put('invite', String(item.id), saved)
        audit(ctx.cluster, actor, 'change_invite', `Resent the invite to ${item.email}`, {
          kind: 'invite',
          id: String(item.id),
        })
        return json({ detail: 'Invite resent.', ...api.serialize(saved, ctx) })
      })
    },
  })
}

// ---- roles ----------------------------------------------------------------------------------------

function registerRoles(router: ClusterRouter): ResourceApi {
  const builtIn = 'Built-in roles cannot be changed or deleted; create a custom role instead.'
  return defineResource(router, {
    kind: 'role',
    resource: 'role',
    label: 'role',
    level: 'global',
    path: 'roles',
    idKind: 'int',
    // a real cluster's role name has a UniqueValidator (DRF's own text), not the model's unique message
    uniqueMessage: 'This field must be unique.',
    description: 'Roles: named sets of policies (permissions, optionally scoped to one object).',
    fields: {
      name: nameField(63, {
        pattern: /^[a-zA-Z0-9_-]+$/,
        patternMessage: 'Role names may contain letters, digits, "_" and "-" only.',
      }),
      description: descriptionField(),
      policies: f.list(
        f.obj({
          permissions: f.list(f.str(), { required: true, minItems: 1 }),
          scope_type: f.str({ nullable: true, blank: true, choices: SCOPE_TYPES }),
          scope_id: f.str({ nullable: true, blank: true }),
        }),
      ),
      built_in: f.bool({ readOnly: true }),
    },
    serialize: (item, ctx) => ({
      // read in place (no copy of every user per role answered)
      users: usersOfRole(ctx.cluster, item.id as number),
      built_in: !!item.built_in,
    }),
    serializeReads: ['user'],
    prepare({ ctx, data, previous, errors }) {
      if (previous?.built_in) {
        errors.non_field_errors = [builtIn]
        return
      }
      // a policy keeps the keys it was given (a newer cluster's, another tool's), in their order,
      // as every nested object of the local cluster does; only a missing or blank scope reads null
      const policies = (
        (data.policies ?? []) as { permissions: string[]; scope_type?: string | null; scope_id?: string | null }[]
      ).map((p) => ({
        ...p,
        permissions: p.permissions,
        scope_type: p.scope_type || null,
        scope_id: p.scope_id || null,
      }))
      const policyErrors = policies.map((p) => {
        const e: Record<string, string[]> = {}
        const unknown = p.permissions.filter((x) => !ALL_PERMISSIONS.includes(x))
        if (unknown.length) e.permissions = unknown.map((x) => `"${x}" is not a known permission.`)
        if (p.scope_type && p.scope_type !== 'org' && !p.scope_id)
          e.scope_id = ['A scope id is required with a scope type.']
        if (!p.scope_type && p.scope_id) e.scope_type = ['A scope type is required with a scope id.']
        if (p.scope_type === 'project' && p.scope_id && !ctx.cluster.store.get('project', p.scope_id))
          e.scope_id = ['Project not found.']
        if (p.scope_type === 'table' && p.scope_id && !ctx.cluster.store.get('table', p.scope_id))
          e.scope_id = ['Table not found.']
        return e
      })
      if (policyErrors.some((e) => Object.keys(e).length)) errors.policies = policyErrors
      data.policies = policies
    },
    beforeDelete({ item }) {
      if (item.built_in) throw validationError({ non_field_errors: [builtIn] })
    },
    afterDelete({ ctx, item }) {
      for (const held of [...ctx.cluster.store.referrers<User>('user', 'role_ids', item.id as number)]) {
        const u = ctx.cluster.store.copy<User>(held)
        ctx.cluster.store.put('user', u.uuid, { ...u, role_ids: u.role_ids.filter((id) => id !== item.id) })
      }
    },
    routes(router, api) {
      router.get(`${api.collectionPattern}/permissions`, (ctx) => {
        requireUser(ctx)
        return json(permissionCatalogue())
      })
      const membership = (verb: 'add' | 'remove') => async (ctx: Ctx) => {
        const { item } = api.load(ctx)
        const actor = authorize(ctx, 'change_role', { id: String(item.id) })
        const body = await readJsonObject(ctx.request)
        if (!Array.isArray(body.users))
          throw validationError({ users: ['Expected a list of users ({"uuid": ...} or uuids).'] })
        const ids = body.users.map((u) => (typeof u === 'string' ? u : (u as { uuid?: string })?.uuid))
        const missing = ids.filter((id) => !id || !ctx.cluster.store.get('user', String(id)))
        if (missing.length) throw validationError({ users: missing.map((id) => `User "${id}" does not exist.`) })
        for (const id of ids as string[]) {
          const u = ctx.cluster.store.get<User>('user', id)!
          const role_ids =
            verb === 'add' ? [...new Set([...u.role_ids, item.id as number])] : u.role_ids.filter((r) => r !== item.id)
          ctx.cluster.store.put('user', id, { ...u, role_ids, modified: nowIso() })
        }
        audit(
          ctx.cluster,
          actor,
          'change_role',
          `${verb === 'add' ? 'Added' : 'Removed'} ${ids.length} user(s) ${verb === 'add' ? 'to' : 'from'} role "${item.name}"`,
          { kind: 'role', id: String(item.id) },
        )
        return json(api.serialize(ctx.cluster.store.get<Item>('role', String(item.id))!, ctx))
      }
      router.post(`${api.itemPattern}/add_user`, membership('add'))
      router.post(`${api.itemPattern}/remove_user`, membership('remove'))
    },
  })
}

export function registerPeople(router: ClusterRouter) {
  registerUsers(router)
  registerServiceAccounts(router)
  registerInvites(router)
  registerRoles(router)
}

/** The uuids of the users holding the role, from the store's index of role ids (not every user per role). */
function usersOfRole(cluster: ClusterState, roleId: number): string[] {
  const out: string[] = []
  for (const user of cluster.store.referrers<User>('user', 'role_ids', roleId)) out.push(user.uuid)
  return out
}
