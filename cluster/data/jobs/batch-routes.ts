/** The batch job routes (`/config/v1/orgs/:org/jobs/batch`, `purgejobs`) and their validation. */
import crypto from 'node:crypto'
import type { ClusterRouter, ClusterState, Ctx } from '../../context'
import {
  badRequest,
  forbidden,
  json,
  listResponse,
  noContent,
  nowIso,
  readJsonObject,
  validationError,
} from '../../http'
import { authorize, canSomewhere, requireUser } from '../../config/access'
import { audit } from '../../config/audit'
import { withIdInSettings } from '../../config/crud'
import { describe, f, type Fields } from '../../config/schema'
import type { Resource } from '../../hooks'
import { pickTransform, resolveTable } from '../catalog'
import type { Plane } from '../plane'
import { detailOf, emptyProgress, retryRefusal } from './batch-record'
import type { BatchRunner } from './batch-runner'
import { checkBatchSql } from './batch-sql'
import { BATCH, checkOrg, getJob, orgJobsNewestFirst, save, scopeOf, visible, withUrl, type Job } from './job-store'

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

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v)

function validateBatch(
  cluster: ClusterState,
  body: Record<string, any>,
  existing?: Job,
): { job?: Partial<Job>; errors?: Record<string, unknown>; table?: { project: Resource; table: Resource } } {
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
        if (s.transform && !pickTransform(cluster, r.table.uuid, s.transform))
          se.transform = [`Transform "${s.transform}" does not exist on ${s.table}`]
        else if (!pickTransform(cluster, r.table.uuid, null)) se.transform = [`Table ${s.table} has no transform`]
      }
    }
    if (!isObj(s.settings) || typeof s.settings.url !== 'string' || !s.settings.url)
      se.settings = { url: ['This field is required.'] }
    if (Object.keys(se).length) errors.settings = { source: se }
    if (settings.pool_name !== undefined && settings.pool_name !== null && settings.pool_name !== '') {
      if (typeof settings.pool_name !== 'string')
        errors.settings = { ...(errors.settings as object), pool_name: ['Not a valid string.'] }
      else if (!cluster.store.find<{ name: string }>('pool', (pool) => pool.name === settings.pool_name)) {
        errors.settings = {
          ...(errors.settings as object),
          pool_name: [`Pool "${settings.pool_name}" does not exist.`],
        }
      }
    }
    if (
      settings.sql_transform !== undefined &&
      settings.sql_transform !== null &&
      typeof settings.sql_transform !== 'string'
    ) {
      errors.settings = { ...(errors.settings as object), sql_transform: ['Not a valid string.'] }
    }
    for (const k of [
      'max_files',
      'max_active_partitions',
      'max_rows_per_partition',
      'max_minutes_per_partition',
      'input_concurrency',
    ]) {
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

/** A 400 on `settings.sql_transform` when the job's SQL cannot run against its table. */
async function checkSql(plane: Plane, job: Partial<Job>, table: { project: Resource; table: Resource }) {
  const sql = typeof job.settings?.sql_transform === 'string' ? job.settings.sql_transform.trim() : ''
  if (!sql) return
  const problem = await checkBatchSql(plane.engine, table.project.name, table.table.name, sql)
  if (problem) throw validationError({ settings: { sql_transform: [problem] } })
}

/** What decides which files a job loads: changing it after files were loaded would mislead a Retry. */
const sourceKey = (settings: Record<string, any> | undefined) => {
  const src = settings?.source ?? {}
  return JSON.stringify([
    src.table,
    src.transform ?? null,
    src.settings?.url,
    settings?.regex_filter ?? '',
    settings?.max_files ?? 0,
  ])
}

function publicBatch(ctx: Ctx, job: Job) {
  return withUrl(ctx, job, 'batch')
}

/** OPTIONS metadata of batch jobs (hdxcli's `job batch settings` walks `actions.POST`). */
const BATCH_FIELDS: Fields = {
  name: f.str({ required: true, maxLength: 255 }),
  description: f.str({ nullable: true, blank: true }),
  type: f.str({ choices: ['batch_import'] }),
  settings: f.obj(
    {
      source: f.obj(
        {
          table: f.str({ required: true, help: 'project.table' }),
          transform: f.str({ help: 'a transform name of the table (default: its default transform)' }),
          type: f.str(),
          subtype: f.str(),
          settings: f.obj(
            {
              url: f.str({
                required: true,
                help: 'file:///path, /path, or s3://bucket/path (read from the data directory)',
              }),
            },
            { required: true },
          ),
        },
        { required: true },
      ),
      regex_filter: f.str({ blank: true }),
      pool_name: f.str({
        blank: true,
        nullable: true,
        help: 'the pool that runs the job (default: the default batch or intake pool)',
      }),
      sql_transform: f.str({
        blank: true,
        nullable: true,
        help: 'SELECT … FROM {STREAM} …: what of each file the table stores',
      }),
      max_files: f.int({ min: 0 }),
      dry_run: f.bool(),
      max_active_partitions: f.int({ min: 1 }),
      max_rows_per_partition: f.int({ min: 1 }),
      max_minutes_per_partition: f.int({ min: 1 }),
      input_concurrency: f.int({ min: 1 }),
      input_aggregation: f.int({ min: 0 }),
    },
    { required: true },
  ),
}

function batchOptions(method: 'POST' | 'PUT') {
  return {
    name: method === 'POST' ? 'Batch Job List' : 'Batch Job Instance',
    description: 'Batch ingest jobs: files loaded into a table through its transform.',
    renders: ['application/json'],
    parses: ['application/json'],
    actions: {
      // the uuid is listed as a field that is not read-only, as a real cluster lists it: hdxcli's
      // `job batch settings` walk skips read-only fields and its suite expects the uuid there
      [method]: withIdInSettings(
        describe(BATCH_FIELDS, {
          uuid: 'Id',
          org: 'Org',
          status: 'Status',
          progress: 'Progress',
          status_detail: 'Status detail',
          created: 'Created',
          modified: 'Modified',
          url: 'Url',
        }),
        'uuid',
      ),
    },
  }
}

/** Registers the batch job routes and `purgejobs`; new and retried jobs go to `runner`. */
export function registerBatchJobRoutes(plane: Plane, router: ClusterRouter, runner: BatchRunner) {
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
    // filtered from the org's kept newest-first order (no sort per page); only the page answered is
    // copied and serialized
    const name = ctx.url.searchParams.get('name')
    const status = ctx.url.searchParams.get('status')
    const jobs = (orgJobsNewestFirst(cluster, BATCH, ctx.params.org) as Job[]).filter(
      (j) => (!name || j.name === name) && (!status || j.status === status) && visible(ctx, user, j, 'view_batchjob'),
    )
    return listResponse(ctx.request, jobs, {
      bareArrays: cluster.options.bareArrays,
      serialize: (j) => publicBatch(ctx, cluster.store.copy<Job>(j)),
    })
  })

  router.post(base, async (ctx) => {
    requireUser(ctx)
    checkOrg(ctx)
    const body = await readJsonObject(ctx.request)
    const { job, errors, table } = validateBatch(cluster, body)
    if (errors) throw validationError(errors)
    const user = authorize(ctx, 'add_batchjob', { projectId: table!.project.uuid, tableId: table!.table.uuid })
    await checkSql(plane, job!, table!)
    const now = nowIso()
    const full: Job = {
      uuid: crypto.randomUUID(),
      org: ctx.params.org,
      ...job!,
      status: 'ready',
      progress: emptyProgress(),
      status_detail: { attempts: [], files_completed: [], current_file: null },
      error: null,
      created: now,
      modified: now,
      started: null,
      finished: null,
      created_by: user.email,
    } as Job
    cluster.store.put(BATCH, full.uuid, full)
    audit(cluster, user, 'add_batchjob', `Created batch job ${full.name} into ${full.settings.source.table}`, {
      kind: 'batchjob',
      id: full.uuid,
      project: table!.project.uuid,
      table: table!.table.uuid,
    })
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
    return json({
      uuid: job.uuid,
      name: job.name,
      status: job.status,
      progress: job.progress,
      status_detail: job.status_detail,
      error: job.error,
      started: job.started,
      finished: job.finished,
    })
  })

  const update = async (ctx: Ctx) => {
    const existing = getJob(ctx, BATCH)
    const user = authorize(ctx, 'add_batchjob', scopeOf(cluster, existing)) // the catalogue has no change_batchjob
    if (existing.status === 'running') throw badRequest('A running job cannot be changed; cancel it first.')
    const body = await readJsonObject(ctx.request)
    const merged =
      ctx.request.method === 'PATCH'
        ? { ...existing, ...body, settings: { ...existing.settings, ...(isObj(body.settings) ? body.settings : {}) } }
        : body
    const { job, errors, table } = validateBatch(cluster, merged, existing)
    if (errors) throw validationError(errors)
    await checkSql(plane, job!, table!)
    const loaded = detailOf(existing).detail.files_completed.length || Number(existing.progress?.files_done ?? 0)
    if (loaded > 0 && sourceKey(job!.settings) !== sourceKey(existing.settings)) {
      throw badRequest(
        `${loaded} files of this job are loaded already; changing its source, table, transform or ` +
          `file selection would make Retry load the wrong files. Create a new job instead.`,
      )
    }
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
    // a job that failed has stopped already: the answer says so and why it failed (hdxcli's
    // `job batch cancel` of a job whose source could not be reached; issue 50), and it stays failed
    if (job.status === 'failed')
      return json({
        ...publicBatch(ctx, job),
        detail: `Job had already failed, so there was nothing to cancel: ${job.error ?? 'no reason was recorded'}`,
      })
    if (!['ready', 'running'].includes(job.status))
      throw badRequest(`Job is ${job.status}; only ready or running jobs can be canceled.`)
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
    const refusal = retryRefusal(job)
    if (refusal) throw badRequest(refusal)
    // the record keeps every attempt and the files loaded: the next run resumes after them
    const { detail } = detailOf(job)
    Object.assign(job, { status: 'ready', error: null, finished: null, status_detail: detail })
    save(cluster, BATCH, job)
    audit(
      cluster,
      user,
      'retry_batchjob',
      `Retried batch job ${job.name} (attempt ${detail.attempts.length + 1}, resuming after ${detail.files_completed.length} loaded files)`,
      { kind: 'batchjob', id: job.uuid },
    )
    runner.enqueue(job.uuid)
    return json(publicBatch(ctx, job))
  })

  router.post('/config/v1/orgs/:org/purgejobs', (ctx) => {
    checkOrg(ctx)
    const user = authorize(ctx, 'purge_jobs')
    const purge = cluster.store.filter<Job>(
      BATCH,
      (j) => j.org === ctx.params.org && ['failed', 'canceled', 'unknown', 'done'].includes(j.status),
    )
    for (const j of purge) cluster.store.delete(BATCH, j.uuid)
    audit(cluster, user, 'purge_jobs', `Purged ${purge.length} finished batch jobs`, {
      kind: 'org',
      id: ctx.params.org,
    })
    return json({ detail: `Purged ${purge.length} jobs.`, purged: purge.length })
  })
}
