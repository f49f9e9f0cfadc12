/** The alter job routes (`/config/v1/orgs/:org/jobs/alter`): list, show, status, commit, cancel, retry, verify, delete. */
import type { ClusterRouter } from '../../context'
import { badRequest, forbidden, json, listResponse, noContent } from '../../http'
import { authorize, can, canSomewhere, requireUser } from '../../config/access'
import { audit } from '../../config/audit'
import { toEngineError } from '../engine'
import type { Plane } from '../plane'
import { commitAlter, countWhere, prepareAlter } from './alter'
import { ALTER, checkOrg, getJob, orgJobsNewestFirst, save, scopeOf, visible, withUrl, type Job } from './job-store'

/** Registers the alter job routes; commit and retry start their work in the background. */
export function registerAlterJobRoutes(plane: Plane, router: ClusterRouter) {
  const { cluster } = plane
  const alterBase = '/config/v1/orgs/:org/jobs/alter'
  router.get(alterBase, (ctx) => {
    const user = requireUser(ctx)
    checkOrg(ctx)
    if (!canSomewhere(cluster, user, 'view_alterjob')) throw forbidden()
    // filtered in place from the kept newest-first order (no sort per page); a user with the
    // permission org-wide is not checked job by job; only the page answered is serialized (in place:
    // withUrl makes a new object, the answer is JSON text)
    const status = ctx.url.searchParams.get('status')
    const seesAll = can(cluster, user, 'view_alterjob')
    const ofOrg = orgJobsNewestFirst(cluster, ALTER, ctx.params.org) as Job[]
    const jobs =
      seesAll && !status
        ? ofOrg
        : ofOrg.filter((j) => (!status || j.status === status) && (seesAll || visible(ctx, user, j, 'view_alterjob')))
    // alter job lists were paginated even before v5.4
    return listResponse(ctx.request, jobs, {
      bareArrays: false,
      serialize: (j) => withUrl(ctx, j, 'alter'),
    })
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
    audit(
      cluster,
      user,
      'commit_alterjob',
      `Committed alter job ${job.name} on ${job.settings.project_name}.${job.settings.table_name}`,
      { kind: 'alterjob', id: job.uuid },
    )
    void commitAlter(plane, job.uuid)
    return json(withUrl(ctx, job, 'alter'))
  })
  router.post(`${alterBase}/:job/cancel`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'cancel_alterjob', scopeOf(cluster, job))
    if (job.settings.committing && job.status === 'running')
      throw badRequest('The job is being committed and can no longer be canceled.')
    if (!['ready', 'running', 'pending'].includes(job.status))
      throw badRequest(`Job is ${job.status}; only ready, running or pending jobs can be canceled.`)
    job.status = 'canceled'
    save(cluster, ALTER, job)
    audit(cluster, user, 'cancel_alterjob', `Canceled alter job ${job.name}`, { kind: 'alterjob', id: job.uuid })
    return json(withUrl(ctx, job, 'alter'))
  })
  router.post(`${alterBase}/:job/retry`, (ctx) => {
    const job = getJob(ctx, ALTER)
    const user = authorize(ctx, 'retry_alterjob', scopeOf(cluster, job))
    if (!['failed', 'canceled'].includes(job.status))
      throw badRequest(`Job is ${job.status}; only failed or canceled jobs can be retried.`)
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
    if (job.status === 'running' && job.settings.committing)
      throw badRequest('The job is being committed; delete it when it is done.')
    cluster.store.delete(ALTER, job.uuid)
    audit(cluster, user, 'delete_alterjob', `Deleted alter job ${job.name}`, { kind: 'alterjob', id: job.uuid })
    return noContent()
  })
}
