import type { ClusterRouter, Ctx } from '../context'
import { json, listResponse, nowIso, readJsonObject, text, validationError } from '../http'
import { authenticate, authorize, requireUser, type User } from './access'
import type { AuthLogEvent } from './accounts'
import { audit, type AuditEntry } from './audit'
import { registry, stripInternal, type Item } from './crud'
import { allDefaults, queryOptionsField } from './defaults'
import { describe, f, validateValue } from './schema'
import { getOrg, origin, publicOrg, type Org } from './util'

/** Orgs, summary, config blob, query options, defaults, version, audit trail and auth logs. */

/** The body of a GET (auth_logs filters): main.ts forwards it in this header, base64. */
export const GET_BODY_HEADER = 'x-cluster-get-body'

export function registerOrgRoutes(router: ClusterRouter) {
  router.get('/config/v1/orgs', (ctx) => {
    const user = requireUser(ctx)
    const orgs = ctx.cluster.store
      .filter<Org>('org', (o) => o.uuid === user.org)
      .map((o) => ({
        ...publicOrg(o),
        created: o.created,
        modified: o.modified,
        url: `${origin(ctx)}/config/v1/orgs/${o.uuid}`,
      }))
    return listResponse(ctx.request, orgs, { bareArrays: ctx.cluster.options.bareArrays })
  })

  router.get('/config/v1/orgs/:org', (ctx) => {
    const org = getOrg(ctx.cluster, ctx.params.org)
    authorize(ctx, 'view_org')
    return json({
      ...publicOrg(org),
      created: org.created,
      modified: org.modified,
      url: `${origin(ctx)}/config/v1/orgs/${org.uuid}`,
    })
  })

  router.get('/config/v1/orgs/:org/summary', async (ctx) => {
    const org = getOrg(ctx.cluster, ctx.params.org)
    requireUser(ctx)
    return json(await orgSummary(ctx, org))
  })

  router.get('/config/v1/orgs/:org/config_blob', (ctx) => {
    const org = getOrg(ctx.cluster, ctx.params.org)
    authorize(ctx, 'view_org')
    return json(configBlob(ctx, org))
  })

  // ---- query options ---------------------------------------------------------------------------
  const qoPath = '/config/v1/orgs/:org/query_options'
  const qoField = f.obj({ default_query_options: queryOptionsField() })
  const readOptions = (ctx: Ctx, org: Org) => {
    const stored = ctx.cluster.store.get<Item>('query_options', org.uuid)
    return {
      uuid: org.uuid,
      org: org.uuid,
      name: `${org.name} query options`,
      settings: { default_query_options: stored?.settings?.default_query_options ?? {} },
      created: stored?.created ?? org.created,
      modified: stored?.modified ?? org.modified,
      url: `${origin(ctx)}/config/v1/orgs/${org.uuid}/query_options`,
    }
  }
  router.get(qoPath, (ctx) => {
    const org = getOrg(ctx.cluster, ctx.params.org)
    authorize(ctx, 'view_org')
    return json(readOptions(ctx, org))
  })
  router.add(['PUT', 'PATCH'], qoPath, async (ctx) => {
    const org = getOrg(ctx.cluster, ctx.params.org)
    const user = authorize(ctx, 'change_org')
    const body = await readJsonObject(ctx.request)
    const current = readOptions(ctx, org).settings.default_query_options
    const incoming = (body.settings as Record<string, unknown> | undefined) ?? {}
    if (body.settings !== undefined && (typeof incoming !== 'object' || Array.isArray(incoming) || incoming === null)) {
      throw validationError({ settings: { non_field_errors: ['Invalid data. Expected a dictionary.'] } })
    }
    let options = (incoming as Record<string, unknown>).default_query_options
    // PUT replaces: settings without default_query_options unset them all (hdxcli `query-option unset
    // --all` deletes the key and PUTs the object back); a PUT without settings keeps them
    if (options === undefined)
      options = ctx.request.method === 'PATCH' ? {} : body.settings === undefined ? current : {}
    if (ctx.request.method === 'PATCH' && options && typeof options === 'object' && !Array.isArray(options))
      options = { ...current, ...options }
    const r = validateValue(qoField, { default_query_options: options })
    if (r.errors) throw validationError({ settings: r.errors })
    const value = (r.value as { default_query_options: Record<string, unknown> }).default_query_options
    const now = nowIso()
    const stored = ctx.cluster.store.get<Item>('query_options', org.uuid)
    ctx.cluster.store.put('query_options', org.uuid, {
      uuid: org.uuid,
      name: 'query_options',
      org: org.uuid,
      _org: org.uuid,
      settings: { default_query_options: value },
      created: stored?.created ?? now,
      modified: now,
    })
    audit(
      ctx.cluster,
      user,
      'change_queryoptions',
      `Updated the org's default query options: ${JSON.stringify(value)}`,
      { kind: 'query_options', id: org.uuid },
    )
    return json(readOptions(ctx, org))
  })
  router.add('OPTIONS', qoPath, (ctx) => {
    getOrg(ctx.cluster, ctx.params.org)
    requireUser(ctx)
    const actions = describe(
      { settings: qoField },
      { uuid: 'Id', org: 'Org', created: 'Created', modified: 'Modified', url: 'Url' },
    )
    return json(
      {
        name: 'Query Options',
        description: 'Default query options of the org.',
        renders: ['application/json'],
        parses: ['application/json'],
        actions: { PUT: actions },
      },
      200,
      { allow: 'GET, PUT, PATCH, HEAD, OPTIONS' },
    )
  })

  // ---- defaults, version -----------------------------------------------------------------------
  router.get('/config/v1/defaults', (ctx) => {
    requireUser(ctx)
    return json(allDefaults())
  })

  router.get('/version', (ctx) => {
    authenticate(ctx.cluster, ctx.request)
    return text(ctx.cluster.options.version)
  })

  // ---- audit trail, auth logs ------------------------------------------------------------------
  const auditTrail = (ctx: Ctx, org: Org) => {
    authorize(ctx, 'view_audittrail')
    const q = ctx.url.searchParams
    const { from, to } = dateRange(q.get('from_date'), q.get('to_date'))
    const who = q.get('user') ?? q.get('user_id')
    const action = q.get('action')
    const search = q.get('search')?.toLowerCase()
    const entries = ctx.cluster.store
      .filter<AuditEntry>('audit', (e) => {
        const t = Date.parse(e.created)
        return (
          (!who || e.user === who || e.user_id === who) &&
          (!action || e.action === action) &&
          (!search || e.text.toLowerCase().includes(search)) &&
          t >= from &&
          t < to
        )
      })
      .reverse()
      .map((e) => ({
        uuid: e.uuid,
        created: e.created,
        user: e.user,
        user_id: e.user_id,
        action: e.action,
        text: e.text,
        org: org.uuid,
      }))
    return listResponse(ctx.request, entries, { bareArrays: ctx.cluster.options.bareArrays })
  }
  router.get('/config/v1/orgs/:org/audit_trail', (ctx) => auditTrail(ctx, getOrg(ctx.cluster, ctx.params.org)))

  const authLogs = async (ctx: Ctx) => {
    authorize(ctx, 'view_authlog')
    const filters: Record<string, unknown> = {}
    for (const [k, v] of ctx.url.searchParams)
      filters[k] = k === 'event_types' ? ctx.url.searchParams.getAll(k).flatMap((x) => x.split(',')) : v
    const forwarded = ctx.request.headers.get(GET_BODY_HEADER)
    let body: Record<string, unknown> = {}
    if (forwarded) {
      try {
        body = JSON.parse(Buffer.from(forwarded, 'base64').toString('utf8'))
      } catch {
        throw validationError({ non_field_errors: ['The request body is not valid JSON.'] })
      }
    } else if (ctx.request.method === 'POST') body = await readJsonObject(ctx.request)
    Object.assign(filters, body)
    const errors: Record<string, string[]> = {}
    for (const k of ['from_date', 'to_date']) {
      if (filters[k] !== undefined && filters[k] !== '' && Number.isNaN(Date.parse(String(filters[k]))))
        errors[k] = ['Date has wrong format. Use YYYY-MM-DD.']
    }
    const types =
      filters.event_types === undefined
        ? []
        : Array.isArray(filters.event_types)
          ? filters.event_types.map(String)
          : String(filters.event_types).split(',')
    const limit = filters.limit ?? filters.max
    if (limit !== undefined && (!Number.isInteger(Number(limit)) || Number(limit) < 1))
      errors.limit = ['A valid integer is required.']
    if (Object.keys(errors).length) throw validationError(errors)
    const { from, to } = dateRange(filters.from_date as string | undefined, filters.to_date as string | undefined)
    let events = ctx.cluster.store
      .filter<AuthLogEvent>(
        'authlog',
        (e) =>
          (!filters.user_id || e.userId === filters.user_id || e.username === filters.user_id) &&
          (!types.length || types.includes(e.type)) &&
          e.time >= from &&
          e.time < to,
      )
      .reverse()
    if (limit !== undefined) events = events.slice(0, Number(limit))
    return listResponse(ctx.request, events, { bareArrays: ctx.cluster.options.bareArrays })
  }
  router.get('/config/v1/auth_logs', authLogs)
  router.post('/config/v1/auth_logs', authLogs)
}

/** `from_date`/`to_date` (YYYY-MM-DD, inclusive, or ISO instants) as a half-open ms range. */
function dateRange(fromDate?: string | null, toDate?: string | null) {
  const from = fromDate ? Date.parse(fromDate) : -Infinity
  let to = Infinity
  if (toDate) to = /^\d{4}-\d{2}-\d{2}$/.test(toDate) ? Date.parse(toDate) + 86_400_000 : Date.parse(toDate) + 1
  return { from: Number.isNaN(from) ? -Infinity : from, to: Number.isNaN(to) ? Infinity : to }
}

function countBy<T>(items: T[], key: (t: T) => string) {
  const out: Record<string, number> = { total: items.length }
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1
  return out
}

/** The kinds an org summary counts: its counts are kept until one of them changes. */
const COUNTED_KINDS = [
  'kafkasource',
  'kinesissource',
  'siemsource',
  'summarysource',
  'project',
  'table',
  'transform',
  'view',
  'column',
  'dictionary',
  'dictionaryfile',
  'function',
  'pool',
  'user',
  'invite',
  'role',
  'storage',
  'credential',
  'batch_job',
  'alter_job',
]
const keptCounts = new WeakMap<object, Map<string, { stamp: string; counts: ReturnType<typeof countOrg> }>>()

/**
 * The org's counts, kept per org while none of the counted kinds has changed (the store's
 * generations): at 10,000 tables and 10,000 jobs, counting them all took ~7 ms of the single-threaded
 * cluster on every dashboard, health and table page (decision 090). Any change is counted again.
 */
function orgCounts(ctx: Ctx, org: Org) {
  const { store } = ctx.cluster
  let byOrg = keptCounts.get(store)
  if (!byOrg) keptCounts.set(store, (byOrg = new Map()))
  const stamp = COUNTED_KINDS.map((kind) => store.generation(kind)).join(',')
  const kept = byOrg.get(org.uuid)
  if (kept?.stamp === stamp) return kept.counts
  const counts = countOrg(ctx, org)
  byOrg.set(org.uuid, { stamp, counts })
  return counts
}

function countOrg(ctx: Ctx, org: Org) {
  const { store } = ctx.cluster
  // counted where they lie (the dashboard asks on every view): no copies
  const isInOrg = (i: unknown) => ((i as Item)._org ?? (i as Item).org) === org.uuid
  const countInOrg = (kind: string, also: (i: Item) => boolean = () => true) =>
    store.count(kind, (i) => isInOrg(i) && also(i as Item))
  const sources = {
    kafka: countInOrg('kafkasource'),
    kinesis: countInOrg('kinesissource'),
    siem: countInOrg('siemsource'),
    summary: countInOrg('summarysource'),
  }
  const countUsers = (also: (u: Readonly<User>) => boolean) =>
    store.count('user', (u) => (u as User).org === org.uuid && also(u as User))
  const jobs = (kind: string) => {
    const inOrg: Readonly<{ org?: string; status?: string }>[] = []
    for (const job of store.values<{ org?: string; status?: string }>(kind))
      if (!job.org || job.org === org.uuid) inOrg.push(job)
    return countBy(inOrg, (j) => j.status ?? 'unknown')
  }
  return {
    projects: countInOrg('project'),
    tables: countInOrg('table'),
    summary_tables: countInOrg('table', (t) => t.type === 'summary'),
    transforms: countInOrg('transform'),
    views: countInOrg('view'),
    columns: countInOrg('column'),
    sources: { ...sources, total: sources.kafka + sources.kinesis + sources.siem + sources.summary },
    dictionaries: countInOrg('dictionary'),
    dictionary_files: countInOrg('dictionaryfile'),
    functions: countInOrg('function'),
    pools: store.count('pool'),
    users: countUsers((u) => u.type === 'user' && u.status === 'active'),
    service_accounts: countUsers((u) => u.type === 'service_account'),
    pending_invites: store.count('invite', (i) => (i as { status?: string }).status === 'pending'),
    roles: store.count('role'),
    storages: countInOrg('storage'),
    credentials: countInOrg('credential'),
    batch_jobs: jobs('batch_job'),
    alter_jobs: jobs('alter_job'),
  }
}

/** Counts the console's dashboard shows, plus the engine's own figures. */
export async function orgSummary(ctx: Ctx, org: Org) {
  let figures: Record<string, number> = {}
  try {
    figures = await ctx.cluster.data.hooks.orgFigures()
  } catch (error) {
    ctx.cluster.log({
      level: 'warning',
      service: 'turbine-api',
      component: 'summary',
      message: 'engine figures unavailable',
      error: String(error),
    })
  }
  const counts = orgCounts(ctx, org)
  return {
    ...figures,
    ...counts,
    uuid: org.uuid,
    name: org.name,
    org: publicOrg(org),
    version: ctx.cluster.options.version,
    ...(ctx.url.searchParams.get('meta') ? { meta: { generated: nowIso(), engine: figures } } : {}),
  }
}

/** The whole org as one tree, keyed by names (hdxcli `resource-summary`). */
function configBlob(ctx: Ctx, org: Org) {
  const { store } = ctx.cluster
  const clean = (kind: string, item: Item) => {
    const api = registry.get(kind)
    return api ? api.serialize(item, ctx) : stripInternal(item)
  }
  const byName = (kind: string, pred: (i: Item) => boolean, extra: (i: Item) => Record<string, unknown> = () => ({})) =>
    Object.fromEntries(store.filter<Item>(kind, pred).map((i) => [i.name, { ...clean(kind, i), ...extra(i) }]))
  const projects = byName(
    'project',
    (p) => p._org === org.uuid,
    (p) => ({
      tables: byName(
        'table',
        (t) => t._project === p.uuid,
        (t) => ({
          transforms: byName('transform', (x) => x._table === t.uuid),
          views: byName('view', (x) => x._table === t.uuid),
        }),
      ),
      functions: byName('function', (x) => x._project === p.uuid),
      dictionaries: byName('dictionary', (x) => x._project === p.uuid),
    }),
  )
  const sources = Object.fromEntries(
    ['kafka', 'kinesis', 'siem', 'summary'].map((s) => [s, byName(`${s}source`, (x) => x._org === org.uuid)]),
  )
  return {
    org: publicOrg(org),
    projects,
    sources,
    storages: store.filter<Item>('storage', (s) => s._org === org.uuid).map((s) => clean('storage', s)),
    credentials: store.filter<Item>('credential', (s) => s._org === org.uuid).map((s) => clean('credential', s)),
    pools: store.all<Item>('pool').map((p) => clean('pool', p)),
  }
}
