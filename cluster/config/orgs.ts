import type { ClusterRouter, Ctx } from '../context'
import { json, listResponse, nowIso, readJsonObject, text, validationError } from '../http'
import { authenticate, authorize, reach, requireUser, type Reach, type Scope, type User } from './access'
import type { AuthLogEvent } from './accounts'
import { audit, type AuditEntry } from './audit'
import { idOf, registry, stripInternal, type Item } from './crud'
import { scopeOf as jobScope, type Job } from '../data/jobs/job-store'
import type { FigureScope } from '../hooks'
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
type Counts = ReturnType<typeof countOrg>
type Kept = { stamp: string; counts: Counts }
const keptCounts = new WeakMap<object, Map<string, Kept>>()
/** Kept counts of one store: the orgs' own and their callers' by policy set; cleared beyond this. */
const MAX_KEPT = 1_000

/**
 * What the summary counts of each kind, and the permission a list of it asks: a caller's counts are
 * of what its lists would show (an item in a scope its policies cover), and a kind whose list would
 * answer 403 is left out. Users are listed only to a holder of `view_user` org-wide (users/).
 */
const VIEWS = {
  project: 'view_project',
  table: 'view_table',
  transform: 'view_transform',
  view: 'view_view',
  column: 'view_column',
  kafkasource: 'view_kafkasource',
  kinesissource: 'view_kinesissource',
  siemsource: 'view_siemsource',
  summarysource: 'view_summarysource',
  dictionary: 'view_dictionary',
  dictionaryfile: 'view_dictionaryfile',
  function: 'view_function',
  pool: 'view_pool',
  user: 'view_user',
  serviceaccount: 'view_serviceaccount',
  invite: 'view_invite',
  role: 'view_role',
  storage: 'view_hdxstorage',
  credential: 'view_credential',
  batch_job: 'view_batchjob',
  alter_job: 'view_alterjob',
} as const
type Reaches = Record<keyof typeof VIEWS, Reach>
/** The counted kinds stored inside a project (`_project`, and `_table` for a table's objects). */
const IN_PROJECTS = new Set([
  'table',
  'transform',
  'view',
  'column',
  'kafkasource',
  'kinesissource',
  'siemsource',
  'summarysource',
  'dictionary',
  'dictionaryfile',
  'function',
])

/**
 * The org's counts, kept per org while none of the counted kinds has changed (the store's
 * generations): at 10,000 tables and 10,000 jobs, counting them all took ~7 ms of the single-threaded
 * cluster on every dashboard, health and table page (decision 090). Any change is counted again.
 * They are the caller's (issue 54): a caller with every view permission org-wide gets the org's
 * counts, kept per org; any other, the counts of what it may view, kept per org and set of roles
 * (the stamp has the roles' and users' generations, so a changed role or grant is counted again).
 */
function orgCounts(ctx: Ctx, org: Org, user: User) {
  const { store } = ctx.cluster
  let kept = keptCounts.get(store)
  if (!kept) keptCounts.set(store, (kept = new Map()))
  const stamp = COUNTED_KINDS.map((kind) => store.generation(kind)).join(',')
  const byRoles = `${org.uuid}|${[...user.role_ids].sort((a, b) => a - b).join(',')}`
  const mine = kept.get(byRoles)
  if (mine?.stamp === stamp) return mine.counts
  const reaches = Object.fromEntries(
    Object.entries(VIEWS).map(([kind, permission]) => [kind, reach(ctx.cluster, user, permission)]),
  ) as Reaches
  const seesAll = Object.values(reaches).every((r) => r.kind === 'all')
  let counts: Counts
  if (seesAll) {
    const whole = kept.get(org.uuid)
    counts = whole?.stamp === stamp ? whole.counts : countOrg(ctx, org, reaches)
    if (kept.size >= MAX_KEPT) kept.clear()
    kept.set(org.uuid, { stamp, counts })
  } else counts = countOrg(ctx, org, reaches)
  if (kept.size >= MAX_KEPT) kept.clear()
  kept.set(byRoles, { stamp, counts })
  return counts
}

function countOrg(ctx: Ctx, org: Org, reaches: Reaches) {
  const { store } = ctx.cluster
  // counted where they lie (the dashboard asks on every view): no copies
  const isInOrg = (i: unknown) => ((i as Item)._org ?? (i as Item).org) === org.uuid
  /** An item's scope as its list checks it: its project, its table (a table is its own) and itself. */
  const scopeOf = (kind: string, i: Item): Scope => ({
    projectId: kind === 'project' ? i.uuid : i._project,
    tableId: kind === 'table' ? i.uuid : i._table,
    id: idOf(i),
  })
  /** The kind's count of what the caller may view; undefined when its list would answer 403. */
  const countOf = (kind: keyof typeof VIEWS, also: (i: Item) => boolean, storeKind: string = kind) => {
    const r = reaches[kind]
    if (r.kind === 'none') return undefined
    if (r.kind === 'all') return store.count(storeKind, (i) => also(i as Item))
    if (!IN_PROJECTS.has(storeKind))
      return store.count(storeKind, (i) => also(i as Item) && r.covers(scopeOf(storeKind, i as Item)))
    // inside projects: only what lies in the projects and tables granted, from the store's parent
    // index (a Reader of one project of 50 looks at its 200 tables, not the org's 10,000), each once
    let n = 0
    const take = (i: Readonly<Item> | undefined) => {
      if (i && also(i as Item)) n++
    }
    for (const project of r.projects) for (const i of store.children<Item>(storeKind, '_project', project)) take(i)
    for (const table of r.tables) {
      if (storeKind === 'table') {
        const own = store.peek<Item>('table', table)
        if (own && !r.projects.has(own._project!)) take(own)
      } else for (const i of store.children<Item>(storeKind, '_table', table)) if (!r.projects.has(i._project!)) take(i)
    }
    for (const id of r.ids) {
      const i = store.peek<Item>(storeKind, id)
      if (i && !r.projects.has(i._project!) && !r.tables.has(storeKind === 'table' ? i.uuid! : i._table!)) take(i)
    }
    return n
  }
  const countInOrg = (kind: keyof typeof VIEWS, also: (i: Item) => boolean = () => true) =>
    countOf(kind, (i) => isInOrg(i) && also(i))
  const kinds = ['kafka', 'kinesis', 'siem', 'summary'] as const
  const bySource = kinds.map((s) => [s, countInOrg(`${s}source`)] as const).filter(([, n]) => n !== undefined)
  const sources = bySource.length
    ? {
        ...(Object.fromEntries(bySource) as Partial<Record<(typeof kinds)[number], number>>),
        total: bySource.reduce((sum, [, n]) => sum + n!, 0),
      }
    : undefined
  const users = (also: (u: Readonly<User>) => boolean) =>
    reaches.user.kind === 'all'
      ? store.count('user', (u) => (u as User).org === org.uuid && also(u as User))
      : undefined
  const serviceAccounts = countOf(
    'serviceaccount',
    (u) => (u as unknown as User).org === org.uuid && (u as unknown as User).type === 'service_account',
    'user',
  )
  const jobs = (kind: 'batch_job' | 'alter_job') => {
    const r = reaches[kind]
    if (r.kind === 'none') return undefined
    const inOrg: Readonly<Job>[] = []
    for (const job of store.values<Job>(kind))
      if ((!job.org || job.org === org.uuid) && (r.kind === 'all' || r.covers(jobScope(ctx.cluster, job as Job))))
        inOrg.push(job)
    return countBy(inOrg, (j) => j.status ?? 'unknown')
  }
  const counts = {
    projects: countInOrg('project'),
    tables: countInOrg('table'),
    summary_tables: countInOrg('table', (t) => t.type === 'summary'),
    transforms: countInOrg('transform'),
    views: countInOrg('view'),
    columns: countInOrg('column'),
    sources,
    dictionaries: countInOrg('dictionary'),
    dictionary_files: countInOrg('dictionaryfile'),
    functions: countInOrg('function'),
    pools: countOf('pool', () => true),
    users: users((u) => u.type === 'user' && u.status === 'active'),
    service_accounts: serviceAccounts,
    pending_invites: countOf('invite', (i) => (i as { status?: string }).status === 'pending'),
    roles: countOf('role', () => true),
    storages: countInOrg('storage'),
    credentials: countInOrg('credential'),
    batch_jobs: jobs('batch_job'),
    alter_jobs: jobs('alter_job'),
  }
  // a kind the caller may not list is left out, not answered as 0
  return Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== undefined)) as Partial<typeof counts>
}

/** The engine figures of tables' rows and bytes (`stats_table`, as a table's stats/ asks). */
const STORAGE_FIGURES = [
  'total_rows',
  'raw_data_size',
  'compressed_data_size',
  'compression_ratio',
  'total_partitions',
  'rows_ingested_last_5_minutes',
  'rows_ingested_last_hour',
]

/**
 * What the caller's engine figures take in: none for a caller with `stats_table`, `view_batchjob`
 * and `view_alterjob` org-wide (the org's figures); otherwise the tables and jobs in its reach, and
 * the figures it may not see at all (no grant anywhere: left out, as the counts are).
 */
function figureScope(ctx: Ctx, user: User): { scope?: FigureScope; hidden: string[] } {
  const stats = reach(ctx.cluster, user, 'stats_table')
  const batch = reach(ctx.cluster, user, 'view_batchjob')
  const alter = reach(ctx.cluster, user, 'view_alterjob')
  if (stats.kind === 'all' && batch.kind === 'all' && alter.kind === 'all') return { hidden: [] }
  const hidden = [
    ...(stats.kind === 'none' ? STORAGE_FIGURES : []),
    ...(batch.kind === 'none' ? ['active_batch_jobs'] : []),
    ...(alter.kind === 'none' ? ['pending_alter_jobs'] : []),
    ...(batch.kind === 'none' && alter.kind === 'none' ? ['active_jobs'] : []),
  ]
  return {
    hidden,
    scope: {
      table: (project, table) => stats.covers({ projectId: project.uuid, tableId: table.uuid, id: table.uuid }),
      job: (kind, job) => (kind === 'batch_job' ? batch : alter).covers(jobScope(ctx.cluster, job as Job)),
    },
  }
}

/** Counts the console's dashboard shows, plus the engine's own figures (both the caller's: decision 108). */
export async function orgSummary(ctx: Ctx, org: Org) {
  const user = requireUser(ctx)
  const { scope, hidden } = figureScope(ctx, user)
  let figures: Record<string, number> = {}
  try {
    figures = await ctx.cluster.data.hooks.orgFigures(scope)
    for (const key of hidden) delete figures[key]
  } catch (error) {
    ctx.cluster.log({
      level: 'warning',
      service: 'turbine-api',
      component: 'summary',
      message: 'engine figures unavailable',
      error: String(error),
    })
  }
  const counts = orgCounts(ctx, org, user)
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
