/**
 * Batch jobs (load CSV/JSON files from a local path or a bucket folder inside the data directory
 * through a transform) and alter jobs (ALTER TABLE ... UPDATE|DELETE sent to /query: count, wait as
 * `pending`, change data only on commit). Both are kept in the durable store.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { ClusterState, Ctx } from '../context'
import { badRequest, forbidden, json, listResponse, noContent, notFound, nowIso, readJsonObject, validationError } from '../http'
import { authorize, can, canSomewhere, requireUser, type User } from '../config/access'
import { audit } from '../config/audit'
import { describe, f, type Fields } from '../config/schema'
import { origin } from '../config/util'
import { parentOf, pickTransform, resolveTable } from './catalog'
import { qualified, toEngineError } from './engine'
import type { Resource } from './hooks'
import type { Plane } from './plane'
import type { AlterStatement } from './sql'
import { makeMapper, recordsOf, toJsonEachRow } from './transform'

const BATCH = 'batch_job'
const ALTER = 'alter_job'

const BATCH_SETTINGS_DEFAULTS = {
  max_active_partitions: 576,
  max_rows_per_partition: 33554432,
  max_minutes_per_partition: 15,
  input_concurrency: 1,
  input_aggregation: 1536000000,
  max_files: 0,
  dry_run: false,
  regex_filter: '',
}

interface Progress {
  percent: number
  files_total: number
  files_done: number
  rows_read: number
  rows_ingested: number
  rows_rejected: number
  errors: string[]
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Job = Record<string, any> & { uuid: string; name: string; status: string; org: string }

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v)

function withUrl(ctx: Ctx | null, job: Job, kind: 'batch' | 'alter') {
  const base = ctx ? origin(ctx) : 'http://local-cluster'
  return { ...job, url: `${base}/config/v1/orgs/${job.org}/jobs/${kind}/${job.uuid}` }
}

function scopeOf(cluster: ClusterState, job: Job) {
  return { projectId: job.settings?.source?.project_id ?? job.settings?.project_id, tableId: job.settings?.source?.table_id ?? job.settings?.table_id, id: job.uuid }
}

function save(cluster: ClusterState, kind: string, job: Job) {
  job.modified = nowIso()
  try {
    cluster.store.put(kind, job.uuid, job)
  } catch (error) {
    // the cluster is closing: the job's state is recovered on the next start
    if (!/store is closed/.test(String((error as Error).message))) throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Batch

export class BatchRunner {
  private queue: string[] = []
  private running = false
  private cancelled = new Set<string>()
  private stopped = false

  constructor(private plane: Plane) {}

  /** After a restart: jobs that were running were interrupted; ready ones run again. */
  recover() {
    const { store } = this.plane.cluster
    for (const job of store.all<Job>(BATCH)) {
      if (job.status === 'running') {
        job.status = 'failed'
        job.error = 'The cluster restarted while this job ran; rows loaded before the restart were kept. Retry to load the files again.'
        save(this.plane.cluster, BATCH, job)
      } else if (job.status === 'ready') this.enqueue(job.uuid)
    }
  }

  enqueue(id: string) {
    this.queue.push(id)
    void this.pump()
  }

  cancel(id: string) {
    this.cancelled.add(id)
  }

  stop() {
    this.stopped = true
  }

  private async pump() {
    if (this.running) return
    this.running = true
    try {
      while (this.queue.length && !this.stopped) {
        const id = this.queue.shift()!
        await this.run(id).catch((error) => {
          this.plane.cluster.log({ level: 'error', service: 'batch-peer', component: 'batch', message: `batch job ${id} crashed`, error: String(error) })
        })
      }
    } finally {
      this.running = false
    }
  }

  private async run(id: string) {
    const { cluster, engine } = this.plane
    let job = cluster.store.get<Job>(BATCH, id)
    if (!job || job.status !== 'ready') return
    this.cancelled.delete(id)
    const progress: Progress = { percent: 0, files_total: 0, files_done: 0, rows_read: 0, rows_ingested: 0, rows_rejected: 0, errors: [] }
    const update = (patch: Partial<Job>) => {
      job = { ...cluster.store.get<Job>(BATCH, id)!, ...patch, progress: { ...progress } }
      save(cluster, BATCH, job)
    }
    const fail = (message: string) => {
      update({ status: 'failed', error: message, finished: nowIso() })
      cluster.log({ level: 'error', service: 'batch-peer', component: 'batch', message: `batch job ${job!.name} failed`, error: message })
    }
    update({ status: 'running', started: nowIso(), error: null })
    cluster.log({ level: 'info', service: 'batch-peer', component: 'batch', message: `batch job ${job.name} started` })

    const source = job.settings.source
    const resolved = resolveTable(cluster, source.table)
    if ('error' in resolved) return fail(resolved.error)
    const transform = pickTransform(cluster, resolved.table.uuid, source.transform || null)
    if (!transform) return fail(`Table ${source.table} has no transform${source.transform ? ` named "${source.transform}"` : ''}`)
    const located = locate(cluster.options.dataDir, String(source.settings?.url ?? ''))
    if ('error' in located) return fail(located.error)
    let files = listFiles(located.path)
    if (job.settings.regex_filter) {
      let re: RegExp
      try {
        re = new RegExp(job.settings.regex_filter)
      } catch {
        return fail(`regex_filter "${job.settings.regex_filter}" is not a valid regular expression`)
      }
      files = files.filter((f) => re.test(f))
    }
    if (job.settings.max_files > 0) files = files.slice(0, job.settings.max_files)
    if (!files.length) return fail(`No files to load under ${source.settings.url} (looked in ${located.path})`)
    progress.files_total = files.length
    update({})

    const orderKey = (await tableOrderKey(this.plane, resolved.project.name, resolved.table.name)) ?? undefined
    const mapper = makeMapper(transform, { tableOrderKey: orderKey })
    for (const file of files) {
      if (this.cancelled.has(id) || this.stopped) {
        update({ status: 'canceled', finished: nowIso() })
        return
      }
      let text: string
      try {
        const raw = fs.readFileSync(file)
        text = (/\.gz$/i.test(file) ? zlib.gunzipSync(raw) : raw).toString('utf8')
      } catch (error) {
        progress.errors.push(`${path.basename(file)}: ${(error as Error).message}`)
        progress.files_done++
        continue
      }
      const type = mapper.type
      const { records, error } = recordsOf(text, type, transform.settings?.format_details)
      if (error) progress.errors.push(`${path.basename(file)}: ${error}`)
      progress.rows_read += records.length
      const rows: Record<string, unknown>[] = []
      records.forEach((r, i) => {
        const m = mapper.map(r, i)
        if (m.ok) rows.push(m.row)
        else {
          progress.rows_rejected++
          if (progress.errors.length < 50) progress.errors.push(`${path.basename(file)}: ${m.error}`)
        }
      })
      if (!job.settings.dry_run) {
        for (let k = 0; k < rows.length; k += 50_000) {
          try {
            await engine.insert(resolved.project.name, resolved.table.name, toJsonEachRow(rows.slice(k, k + 50_000)))
            progress.rows_ingested += Math.min(50_000, rows.length - k)
          } catch (e) {
            progress.errors.push(`${path.basename(file)}: ${toEngineError(e).message}`)
          }
        }
        this.plane.touched(resolved.project.name, resolved.table.name)
      }
      progress.files_done++
      progress.percent = Math.round((progress.files_done / progress.files_total) * 100)
      update({})
    }
    cluster.metrics.inc('rows_ingested_total', { service: 'batch-peer' }, progress.rows_ingested)
    if (progress.rows_ingested === 0 && progress.errors.length && !job.settings.dry_run) {
      return fail(`No rows were loaded: ${progress.errors[0]}`)
    }
    update({ status: 'done', finished: nowIso() })
    cluster.log({ level: 'info', service: 'batch-peer', component: 'batch', message: `batch job ${job!.name} done: ${progress.rows_ingested} rows from ${progress.files_done} files` })
  }
}

/** Where a job's url points on this machine: a local path, or a bucket folder in the data dir. */
export function locate(dataDir: string, url: string): { path: string } | { error: string } {
  if (!url) return { error: 'settings.source.settings.url is empty' }
  let local: string
  if (url.startsWith('file://')) local = decodeURIComponent(url.slice('file://'.length))
  else if (url.startsWith('/')) local = url
  else {
    const m = /^(s3|gs|gcs|az|azure|abfs|abfss|wasb|wasbs|r2|https?):\/\/([^/]+)\/?(.*)$/i.exec(url)
    if (!m) return { error: `Unsupported url "${url}": use file:///path, an absolute path, or s3://bucket/path` }
    const [, scheme, bucket, rest] = m
    const folder = path.join(dataDir, 'buckets', bucket, rest)
    if (!folder.startsWith(path.join(dataDir, 'buckets'))) return { error: `Unsupported url "${url}"` }
    if (!fs.existsSync(folder)) {
      return {
        error: `Cannot reach ${url}: this local cluster has no network access to ${scheme.toLowerCase().startsWith('http') ? 'remote servers' : 'cloud storage'}. Put the files under ${path.join(dataDir, 'buckets', bucket, rest)} to load them as if from that bucket.`,
      }
    }
    local = folder
  }
  if (!fs.existsSync(local)) return { error: `Path ${local} does not exist` }
  return { path: local }
}

function listFiles(p: string): string[] {
  const st = fs.statSync(p)
  if (st.isFile()) return [p]
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile() && !entry.name.startsWith('.')) out.push(full)
    }
  }
  walk(p)
  return out
}

/** The first ORDER BY column of the engine table (its primary datetime), if the table exists. */
export async function tableOrderKey(plane: Plane, database: string, table: string): Promise<string | null> {
  try {
    const rows = await plane.engine.rows<{ sorting_key: string }>(`SELECT sorting_key FROM system.tables WHERE database = '${database.replace(/'/g, "\\'")}' AND name = '${table.replace(/'/g, "\\'")}'`)
    const key = rows[0]?.sorting_key?.split(',')[0]?.trim()
    return key ? key.replace(/^`|`$/g, '') : null
  } catch {
    return null
  }
}

function validateBatch(cluster: ClusterState, body: Record<string, any>, existing?: Job): { job?: Partial<Job>; errors?: Record<string, unknown>; table?: { project: Resource; table: Resource } } {
  const errors: Record<string, unknown> = {}
  const name = body.name ?? existing?.name
  if (typeof name !== 'string' || !name.trim()) errors.name = ['This field is required.']
  else if (name.length >= 64) errors.name = ['Ensure this field has no more than 63 characters.']
  const type = body.type ?? existing?.type ?? 'batch_import'
  if (type !== 'batch_import') errors.type = [`"${type}" is not a valid choice.`]
  const settings = isObj(body.settings) ? body.settings : existing?.settings
  let resolved: { project: Resource; table: Resource } | undefined
  if (!isObj(settings)) errors.settings = { source: ['This field is required.'] }
  else if (!isObj(settings.source)) errors.settings = { source: ['This field is required.'] }
  else {
    const s = settings.source
    const se: Record<string, unknown> = {}
    if (typeof s.table !== 'string' || !s.table) se.table = ['This field is required.']
    else {
      const r = resolveTable(cluster, s.table)
      if ('error' in r) se.table = [r.error]
      else {
        resolved = r
        if (s.transform && !pickTransform(cluster, r.table.uuid, s.transform)) se.transform = [`Transform "${s.transform}" does not exist on ${s.table}`]
        else if (!pickTransform(cluster, r.table.uuid, null)) se.transform = [`Table ${s.table} has no transform`]
      }
    }
    if (!isObj(s.settings) || typeof s.settings.url !== 'string' || !s.settings.url) se.settings = { url: ['This field is required.'] }
    if (Object.keys(se).length) errors.settings = { source: se }
    for (const k of ['max_files', 'max_active_partitions', 'max_rows_per_partition', 'max_minutes_per_partition', 'input_concurrency']) {
      if (settings[k] !== undefined && (typeof settings[k] !== 'number' || settings[k] < 0)) {
        errors.settings = { ...(errors.settings as object), [k]: ['A valid non-negative integer is required.'] }
      }
    }
  }
  if (Object.keys(errors).length) return { errors }
  const source = {
    type: 'batch',
    subtype: 'aws s3',
    ...settings.source,
    project_id: resolved!.project.uuid,
    table_id: resolved!.table.uuid,
  }
  return {
    table: resolved,
    job: {
      name: name.trim(),
      description: typeof body.description === 'string' ? body.description : (existing?.description ?? ''),
      type,
      settings: { ...BATCH_SETTINGS_DEFAULTS, ...settings, source },
    },
  }
}

function publicBatch(ctx: Ctx, job: Job) {
  return withUrl(ctx, job, 'batch')
}

function visible(ctx: Ctx, user: User, job: Job, permission: string) {
  return can(ctx.cluster, user, permission, scopeOf(ctx.cluster, job))
}

function getJob(ctx: Ctx, kind: string): Job {
  const job = ctx.cluster.store.get<Job>(kind, ctx.params.job)
  if (!job || job.org !== ctx.params.org) throw notFound()
  return job
}

function checkOrg(ctx: Ctx) {
  if (!ctx.cluster.store.get('org', ctx.params.org)) throw notFound('Org not found.')
}

/** OPTIONS metadata of batch jobs (hdxcli's `job batch settings` walks `actions.POST`). */
const BATCH_FIELDS: Fields = {
  name: f.str({ required: true, maxLength: 255 }),
  description: f.str({ nullable: true, blank: true }),
  type: f.str({ choices: ['batch_import'] }),
  settings: f.obj({
    source: f.obj(
      {
        table: f.str({ required: true, help: 'project.table' }),
        transform: f.str({ help: 'a transform name of the table (default: its default transform)' }),
        type: f.str(),
        subtype: f.str(),
        settings: f.obj({ url: f.str({ required: true, help: 'file:///path, /path, or s3://bucket/path (read from the data directory)' }) }, { required: true }),
      },
      { required: true },
    ),
    regex_filter: f.str({ blank: true }),
    max_files: f.int({ min: 0 }),
    dry_run: f.bool(),
    max_active_partitions: f.int({ min: 1 }),
    max_rows_per_partition: f.int({ min: 1 }),
    max_minutes_per_partition: f.int({ min: 1 }),
    input_concurrency: f.int({ min: 1 }),
    input_aggregation: f.int({ min: 0 }),
  }, { required: true }),
}

function batchOptions(method: 'POST' | 'PUT') {
  return {
    name: method === 'POST' ? 'Batch Job List' : 'Batch Job Instance',
    description: 'Batch ingest jobs: files loaded into a table through its transform.',
    renders: ['application/json'],
    parses: ['application/json'],
    actions: {
      [method]: describe(BATCH_FIELDS, { uuid: 'Id', org: 'Org', status: 'Status', progress: 'Progress', created: 'Created', modified: 'Modified', url: 'Url' }),
    },
  }
}

export function registerJobRoutes(plane: Plane, router: import('../context').ClusterRouter, runner: BatchRunner) {
  const { cluster } = plane
  const base = '/config/v1/orgs/:org/jobs/batch'

  router.add('OPTIONS', base, (ctx) => {
    requireUser(ctx)
    checkOrg(ctx)
    return json(batchOptions('POST'), 200, { allow: 'GET, POST, HEAD, OPTIONS' })
  })
  router.add('OPTIONS', `${base}/:job`, (ctx) => {
    requireUser(ctx)
    getJob(ctx, BATCH)
    return json(batchOptions('PUT'), 200, { allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS' })
  })

  router.get(base, (ctx) => {
    const user = requireUser(ctx)
    checkOrg(ctx)
    if (!canSomewhere(cluster, user, 'view_batchjob')) throw forbidden()
    let jobs = cluster.store.filter<Job>(BATCH, (j) => j.org === ctx.params.org).filter((j) => visible(ctx, user, j, 'view_batchjob'))
    const name = ctx.url.searchParams.get('name')
    if (name) jobs = jobs.filter((j) => j.name === name)
    const status = ctx.url.searchParams.get('status')
    if (status) jobs = jobs.filter((j) => j.status === status)
    jobs.sort((a, b) => String(b.created).localeCompare(String(a.created)))
    return listResponse(ctx.request, jobs.map((j) => publicBatch(ctx, j)), { bareArrays: cluster.options.bareArrays })
  })

  router.post(base, async (ctx) => {
    requireUser(ctx)
    checkOrg(ctx)
    const body = await readJsonObject(ctx.request)
    const { job, errors, table } = validateBatch(cluster, body)
    if (errors) throw validationError(errors)
    const user = authorize(ctx, 'add_batchjob', { projectId: table!.project.uuid, tableId: table!.table.uuid })
    const now = nowIso()
    const full: Job = {
      uuid: crypto.randomUUID(),
      org: ctx.params.org,
      ...job!,
      status: 'ready',
      progress: { percent: 0, files_total: 0, files_done: 0, rows_read: 0, rows_ingested: 0, rows_rejected: 0, errors: [] },
      error: null,
      created: now,
      modified: now,
      started: null,
      finished: null,
      created_by: user.email,
    } as Job
    cluster.store.put(BATCH, full.uuid, full)
    audit(cluster, user, 'add_batchjob', `Created batch job ${full.name} into ${full.settings.source.table}`, { kind: 'batchjob', id: full.uuid, project: table!.project.uuid, table: table!.table.uuid })
    runner.enqueue(full.uuid)
    return json(publicBatch(ctx, full), 201)
  })

  router.get(`${base}/:job`, (ctx) => {
    const job = getJob(ctx, BATCH)
    authorize(ctx, 'view_batchjob', scopeOf(cluster, job))
    return json(publicBatch(ctx, job))
  })

  router.get(`${base}/:job/status`, (ctx) => {
    const job = getJob(ctx, BATCH)
    authorize(ctx, 'status_batchjob', scopeOf(cluster, job))
    return json({ uuid: job.uuid, name: job.name, status: job.status, progress: job.progress, error: job.error, started: job.started, finished: job.finished })
  })

  const update = async (ctx: Ctx) => {
    const existing = getJob(ctx, BATCH)
    const user = authorize(ctx, 'add_batchjob', scopeOf(cluster, existing)) // the catalogue has no change_batchjob
    if (existing.status === 'running') throw badRequest('A running job cannot be changed; cancel it first.')
    const body = await readJsonObject(ctx.request)
    const merged = ctx.request.method === 'PATCH' ? { ...existing, ...body, settings: { ...existing.settings, ...(isObj(body.settings) ? body.settings : {}) } } : body
    const { job, errors } = validateBatch(cluster, merged, existing)
    if (errors) throw validationError(errors)
    const saved: Job = { ...existing, ...job! }
    save(cluster, BATCH, saved)
    audit(cluster, user, 'change_batchjob', `Changed batch job ${saved.name}`, { kind: 'batchjob', id: saved.uuid })
    return json(publicBatch(ctx, saved))
  }
  router.put(`${base}/:job`, update)
  router.patch(`${base}/:job`, update)

  router.delete(`${base}/:job`, (ctx) => {
    const job = getJob(ctx, BATCH)
    const user = authorize(ctx, 'delete_batchjob', scopeOf(cluster, job))
    runner.cancel(job.uuid)
    cluster.store.delete(BATCH, job.uuid)
    audit(cluster, user, 'delete_batchjob', `Deleted batch job ${job.name}`, { kind: 'batchjob', id: job.uuid })
    return noContent()
  })

  router.post(`${base}/:job/cancel`, (ctx) => {
    const job = getJob(ctx, BATCH)
    const user = authorize(ctx, 'cancel_batchjob', scopeOf(cluster, job))
    if (!['ready', 'running'].includes(job.status)) throw badRequest(`Job is ${job.status}; only ready or running jobs can be canceled.`)
    runner.cancel(job.uuid)
    if (job.status === 'ready') {
      job.status = 'canceled'
      job.finished = nowIso()
      save(cluster, BATCH, job)
    }
    audit(cluster, user, 'cancel_batchjob', `Canceled batch job ${job.name}`, { kind: 'batchjob', id: job.uuid })
    return json({ ...publicBatch(ctx, cluster.store.get<Job>(BATCH, job.uuid)!), detail: 'Cancel requested.' })
  })

  router.post(`${base}/:job/retry`, (ctx) => {
    const job = getJob(ctx, BATCH)
    const user = authorize(ctx, 'retry_batchjob', scopeOf(cluster, job))
    if (!['failed', 'canceled', 'done'].includes(job.status)) throw badRequest(`Job is ${job.status}; only failed, canceled or done jobs can be retried.`)
    Object.assign(job, { status: 'ready', error: null, started: null, finished: null, progress: { percent: 0, files_total: 0, files_done: 0, rows_read: 0, rows_ingested: 0, rows_rejected: 0, errors: [] } })
    save(cluster, BATCH, job)
    audit(cluster, user, 'retry_batchjob', `Retried batch job ${job.name}`, { kind: 'batchjob', id: job.uuid })
    runner.enqueue(job.uuid)
    return json(publicBatch(ctx, job))
  })

  router.post('/config/v1/orgs/:org/purgejobs', (ctx) => {
    checkOrg(ctx)
    const user = authorize(ctx, 'purge_jobs')
    const purge = cluster.store.filter<Job>(BATCH, (j) => j.org === ctx.params.org && ['failed', 'canceled', 'unknown', 'done'].includes(j.status))
    for (const j of purge) cluster.store.delete(BATCH, j.uuid)
    audit(cluster, user, 'purge_jobs', `Purged ${purge.length} finished batch jobs`, { kind: 'org', id: ctx.params.org })
    return json({ detail: `Purged ${purge.length} jobs.`, purged: purge.length })
  })

  // ----- alter jobs
  const alterBase = '/config/v1/orgs/:org/jobs/alter'
  router.get(alterBase, (ctx) => {
    const user = requireUser(ctx)
    checkOrg(ctx)
    if (!canSomewhere(cluster, user, 'view_alterjob')) throw forbidden()
    let jobs = cluster.store.filter<Job>(ALTER, (j) => j.org === ctx.params.org).filter((j) => visible(ctx, user, j, 'view_alterjob'))
    const status = ctx.url.searchParams.get('status')
    if (status) jobs = jobs.filter((j) => j.status === status)
    jobs.sort((a, b) => String(b.created).localeCompare(String(a.created)))
    // alter job lists were paginated even before v5.4
    return listResponse(ctx.request, jobs.map((j) => withUrl(ctx, j, 'alter')), { bareArrays: false })
  })
  router.get(`${alterBase}/:job`, (ctx) => {
    const job = getJob(ctx, ALTER)
    authorize(ctx, 'view_alterjob', scopeOf(cluster, job))
    return json(withUrl(ctx, job, 'alter'))
  })
  router.get(`${alterBase}/:job/status`, (ctx) => {
    const job = getJob(ctx, ALTER)
    authorize(ctx, 'status_alterjob', scopeOf(cluster, job))
    return json({ uuid: job.uuid, name: job.name, status: job.status, progress: job.progress, error: job.error })
  })
  router.post(`${alterBase}/:job/commit`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'commit_alterjob', scopeOf(cluster, job))
    if (job.status !== 'pending') throw badRequest(`Job is ${job.status}; only pending jobs can be committed.`)
    job.status = 'running'
    job.settings.committing = true
    save(cluster, ALTER, job)
    audit(cluster, user, 'commit_alterjob', `Committed alter job ${job.name} on ${job.settings.project_name}.${job.settings.table_name}`, { kind: 'alterjob', id: job.uuid })
    void commitAlter(plane, job.uuid)
    return json(withUrl(ctx, job, 'alter'))
  })
  router.post(`${alterBase}/:job/cancel`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'cancel_alterjob', scopeOf(cluster, job))
    if (job.settings.committing && job.status === 'running') throw badRequest('The job is being committed and can no longer be canceled.')
    if (!['ready', 'running', 'pending'].includes(job.status)) throw badRequest(`Job is ${job.status}; only ready, running or pending jobs can be canceled.`)
    job.status = 'canceled'
    save(cluster, ALTER, job)
    audit(cluster, user, 'cancel_alterjob', `Canceled alter job ${job.name}`, { kind: 'alterjob', id: job.uuid })
    return json(withUrl(ctx, job, 'alter'))
  })
  router.post(`${alterBase}/:job/retry`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'retry_alterjob', scopeOf(cluster, job))
    if (!['failed', 'canceled'].includes(job.status)) throw badRequest(`Job is ${job.status}; only failed or canceled jobs can be retried.`)
    Object.assign(job, { status: 'ready', error: null })
    job.settings.committing = false
    save(cluster, ALTER, job)
    audit(cluster, user, 'retry_alterjob', `Retried alter job ${job.name}`, { kind: 'alterjob', id: job.uuid })
    void prepareAlter(plane, job.uuid)
    return json(withUrl(ctx, job, 'alter'))
  })
  router.get(`${alterBase}/:job/verify`, async (ctx) => {
    const job = getJob(ctx, ALTER)
    authorize(ctx, 'verify_alterjob', scopeOf(cluster, job))
    const s = job.settings
    let matching: number | null = null
    let error: string | null = null
    try {
      matching = await countWhere(plane, s.project_name, s.table_name, s.where)
    } catch (e) {
      error = toEngineError(e).message
    }
    const verified = job.status === 'done' ? (s.kind === 'delete' ? matching === 0 : true) : false
    return json({
      results: [
        {
          table: `${s.project_name}.${s.table_name}`,
          status: job.status,
          kind: s.kind,
          rows_to_alter: job.progress?.rows_to_alter ?? null,
          rows_matching_now: matching,
          verified,
          error,
        },
      ],
    })
  })
  router.delete(`${alterBase}/:job`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'delete_alterjob', scopeOf(cluster, job))
    if (job.status === 'running' && job.settings.committing) throw badRequest('The job is being committed; delete it when it is done.')
    cluster.store.delete(ALTER, job.uuid)
    audit(cluster, user, 'delete_alterjob', `Deleted alter job ${job.name}`, { kind: 'alterjob', id: job.uuid })
    return noContent()
  })
}

// ---------------------------------------------------------------------------------------------
// Alter

async function countWhere(plane: Plane, project: string, table: string, where: string): Promise<number> {
  const rows = await plane.engine.rows<{ n: string | number }>(`SELECT count() AS n FROM ${qualified(project, table)}${where ? ` WHERE ${where}` : ''}`)
  return Number(rows[0]?.n ?? 0)
}

/** Creates an alter job from a parsed statement (called by /query). */
export async function createAlterJob(plane: Plane, ctx: Ctx, user: User, alter: AlterStatement, sql: string): Promise<Job> {
  const { cluster } = plane
  const resolved = resolveTable(cluster, alter.table)
  if ('error' in resolved) throw toEngineError(new Error(`Code: 60. DB::Exception: ${resolved.error}. (UNKNOWN_TABLE)`))
  if (!can(cluster, user, 'add_alterjob', { projectId: resolved.project.uuid, tableId: resolved.table.uuid }) || !can(cluster, user, 'alter_table_sql', { projectId: resolved.project.uuid, tableId: resolved.table.uuid })) {
    throw forbidden()
  }
  if (!alter.where) throw toEngineError(new Error('Code: 62. DB::Exception: ALTER TABLE ... UPDATE|DELETE needs a WHERE clause (use WHERE 1 to touch every row). (SYNTAX_ERROR)'))
  if (alter.kind === 'update' && !alter.assignments) throw toEngineError(new Error('Code: 62. DB::Exception: ALTER TABLE ... UPDATE needs assignments. (SYNTAX_ERROR)'))
  // the WHERE must be valid now: count once to surface errors to the caller
  await countWhere(plane, resolved.project.name, resolved.table.name, alter.where)
  const org = parentOf(resolved.project, 'org') ?? ctx.cluster.store.all<Resource>('org')[0]?.uuid
  const now = nowIso()
  const job: Job = {
    uuid: crypto.randomUUID(),
    name: `alter_${resolved.project.name}_${resolved.table.name}_${Date.now().toString(36)}`,
    org,
    type: 'alter',
    status: 'ready',
    description: sql.trim().slice(0, 500),
    settings: {
      project_name: resolved.project.name,
      table_name: resolved.table.name,
      project_id: resolved.project.uuid,
      table_id: resolved.table.uuid,
      kind: alter.kind,
      assignments: alter.assignments,
      where: alter.where,
      sql: sql.trim(),
      committing: false,
    },
    progress: { rows_to_alter: null, rows_altered: null },
    error: null,
    created: now,
    modified: now,
    created_by: user.email,
  }
  cluster.store.put(ALTER, job.uuid, job)
  audit(cluster, user, 'add_alterjob', `Created alter job ${job.name}: ${alter.kind} on ${resolved.project.name}.${resolved.table.name}`, { kind: 'alterjob', id: job.uuid, project: resolved.project.uuid, table: resolved.table.uuid })
  void prepareAlter(plane, job.uuid)
  return job
}

/** ready → running (counting the rows it will touch) → pending. */
export async function prepareAlter(plane: Plane, id: string) {
  const { cluster } = plane
  let job = cluster.store.get<Job>(ALTER, id)
  if (!job || job.status !== 'ready') return
  job.status = 'running'
  save(cluster, ALTER, job)
  try {
    const n = await countWhere(plane, job.settings.project_name, job.settings.table_name, job.settings.where)
    job = cluster.store.get<Job>(ALTER, id)
    if (!job || job.status !== 'running') return // canceled or deleted meanwhile
    job.progress = { ...job.progress, rows_to_alter: n }
    job.status = 'pending'
    save(cluster, ALTER, job)
  } catch (e) {
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'failed'
    job.error = toEngineError(e).message
    save(cluster, ALTER, job)
  }
}

async function commitAlter(plane: Plane, id: string) {
  const { cluster, engine } = plane
  let job = cluster.store.get<Job>(ALTER, id)
  if (!job) return
  const s = job.settings
  const target = qualified(s.project_name, s.table_name)
  const sql = s.kind === 'delete' ? `ALTER TABLE ${target} DELETE WHERE ${s.where}` : `ALTER TABLE ${target} UPDATE ${s.assignments} WHERE ${s.where}`
  try {
    await engine.exec(`${sql} SETTINGS mutations_sync = 2`)
    plane.touched(s.project_name, s.table_name)
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'done'
    job.settings.committing = false
    job.progress = { ...job.progress, rows_altered: job.progress?.rows_to_alter ?? null }
    save(cluster, ALTER, job)
    cluster.log({ level: 'info', service: 'alter-peer', component: 'alter', message: `alter job ${job.name} committed` })
  } catch (e) {
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'failed'
    job.settings.committing = false
    job.error = toEngineError(e).message
    save(cluster, ALTER, job)
    cluster.log({ level: 'error', service: 'alter-peer', component: 'alter', message: `alter job ${job.name} failed`, error: job.error })
  }
}

/** After a restart: counting restarts; an interrupted commit is reported as failed. */
export function recoverAlterJobs(plane: Plane) {
  const { cluster } = plane
  for (const job of cluster.store.all<Job>(ALTER)) {
    if (job.status === 'running' && job.settings?.committing) {
      job.status = 'failed'
      job.settings.committing = false
      job.error = 'The cluster restarted during the commit; verify the table before retrying.'
      save(cluster, ALTER, job)
    } else if (job.status === 'running' || job.status === 'ready') {
      job.status = 'ready'
      save(cluster, ALTER, job)
      void prepareAlter(plane, job.uuid)
    }
  }
}

