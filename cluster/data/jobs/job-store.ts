/**
 * What batch and alter jobs share: the job record, the store kinds they are kept under, and the
 * lookups and checks every job route makes. Both kinds are kept in the durable store.
 */
import type { ClusterState, Ctx } from '../../context'
import { notFound, nowIso } from '../../http'
import { can, type User } from '../../config/access'
import { origin } from '../../config/util'

export const BATCH = 'batch_job'
export const ALTER = 'alter_job'

/** A stored job: its own fields beside uuid, name, status and the org it belongs to. */
export type Job = Record<string, any> & { uuid: string; name: string; status: string; org: string }

const newest = new WeakMap<
  object,
  Map<string, { generation: number; jobs: Readonly<Job>[]; ofOrg: Map<string, readonly Readonly<Job>[]> }>
>()

/**
 * Every stored job of `kind`, newest first (by `created`; ISO times compare as text, ties in the
 * order stored), themselves (not copies: only look), kept while the kind is unchanged (the store's
 * generation): 10,000 alter jobs are sorted once, not on every page asked (issue 33).
 */
export function jobsNewestFirst(cluster: ClusterState, kind: string): readonly Readonly<Job>[] {
  let kinds = newest.get(cluster.store)
  if (!kinds) newest.set(cluster.store, (kinds = new Map()))
  const generation = cluster.store.generation(kind)
  const kept = kinds.get(kind)
  if (kept && kept.generation === generation) return kept.jobs
  const jobs = [...cluster.store.values<Job>(kind)].sort((a, b) =>
    a.created < b.created ? 1 : a.created > b.created ? -1 : 0,
  )
  kinds.set(kind, { generation, jobs, ofOrg: new Map() })
  return jobs
}

/**
 * The org's jobs of `kind`, newest first, kept as `jobsNewestFirst` is (only look): a list page of
 * an org of 10,000 jobs does not walk and copy them all again while none has changed (decision 090).
 */
export function orgJobsNewestFirst(cluster: ClusterState, kind: string, org: string): readonly Readonly<Job>[] {
  const all = jobsNewestFirst(cluster, kind)
  const kept = newest.get(cluster.store)!.get(kind)!
  let jobs = kept.ofOrg.get(org)
  if (!jobs) kept.ofOrg.set(org, (jobs = all.filter((job) => job.org === org)))
  return jobs
}

/** The job as the API answers it, with a `url` on the scheme and host the client used. */
export function withUrl(ctx: Ctx | null, job: Job, kind: 'batch' | 'alter') {
  const base = ctx ? origin(ctx) : 'http://local-cluster'
  return { ...job, url: `${base}/config/v1/orgs/${job.org}/jobs/${kind}/${job.uuid}` }
}

/** The project and table a job's permissions are checked on. */
export function scopeOf(cluster: ClusterState, job: Job) {
  return {
    projectId: job.settings?.source?.project_id ?? job.settings?.project_id,
    tableId: job.settings?.source?.table_id ?? job.settings?.table_id,
    id: job.uuid,
  }
}

/** Stores a job with a new `modified`; a closing store is ignored (the job is recovered on the next start). */
export function save(cluster: ClusterState, kind: string, job: Job) {
  job.modified = nowIso()
  try {
    cluster.store.put(kind, job.uuid, job)
  } catch (error) {
    // the cluster is closing: the job's state is recovered on the next start
    if (!/store is closed/.test(String((error as Error).message))) throw error
  }
}

/** Whether the user holds `permission` on the job's table. */
export function visible(ctx: Ctx, user: User, job: Job, permission: string) {
  return can(ctx.cluster, user, permission, scopeOf(ctx.cluster, job))
}

/** The job of the path (`:job` in `:org`); throws a 404 when there is none. */
export function getJob(ctx: Ctx, kind: string): Job {
  const job = ctx.cluster.store.get<Job>(kind, ctx.params.job)
  if (!job || job.org !== ctx.params.org) throw notFound()
  return job
}

/** Throws a 404 when the org of the path does not exist. */
export function checkOrg(ctx: Ctx) {
  if (!ctx.cluster.store.get('org', ctx.params.org)) throw notFound('Org not found.')
}
