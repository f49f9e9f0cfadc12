import { whyNotEach } from '~/api/access.server'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi, Page } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { FINISHED_STATUSES, RUNNING_STATUSES } from '~/api/jobs.server'
import { listAll } from '~/api/list-all.server'
import { parsePaging } from '~/components/data-table/paging'
import { loadFromCluster, nullOnMissing, toastOnFailure } from '~/api/policies.server'
import { ForceConfirmSchema } from '~/schemas/confirm'
import { withoutBase } from '~/utils/base-path'
import { redirectWithToast } from '~/utils/toast.server'

/** URL parameters that open a step (a confirmation) and must not survive the action that ends it. */
const STEP_PARAMS = ['index', 'delete', 'purge']

/**
 * Where a list action goes back to: the list's own URL with its filters, paging and open job
 * (`?job=`) kept, and the confirmation step that led to the action closed.
 */
export function backTo(request: Request, changes: Record<string, string | null> = {}): string {
  const url = new URL(request.url)
  for (const key of STEP_PARAMS) url.searchParams.delete(key)
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key)
    else url.searchParams.set(key, value)
  }
  const search = url.searchParams.toString()
  return `${withoutBase(url.pathname)}${search ? `?${search}` : ''}`
}

/**
 * Runs one row action (commit, cancel, retry, delete) and answers with a redirect back to the list
 * and a toast: a success title, or the cluster's message when it refused (a job that is no longer
 * pending, already gone, …). Never throws a cluster error to the page:
 * the list stays usable.
 */
export async function runJobAction(
  request: Request,
  run: () => Promise<unknown>,
  success: string | (() => string),
  changes: Record<string, string | null> = {},
): Promise<Response> {
  return toastOnFailure(backTo(request), async () => {
    await run()
    return redirectWithToast(backTo(request, changes), {
      title: typeof success === 'function' ? success() : success,
      type: 'success',
    })
  })
}

/** Checks the purge form's FORCE; returns the 400 reply to show when it is missing, else null. */
export function checkPurge(formData: FormData) {
  const submission = parseWithZod(formData, { schema: ForceConfirmSchema })
  if (submission.status === 'success') return null
  return data({ purge: submission.reply() }, { status: 400 })
}

/** The job id a row form sends; a form without one is refused. */
export function jobIdOf(formData: FormData): string {
  const id = formData.get('job')
  if (typeof id !== 'string' || !id) throw data({ message: 'Which job? The form sent no job id.' }, { status: 400 })
  return id
}

/** A single-valued `?name=` from a list of allowed values, else ''. */
export function oneOf<T extends string>(url: URL, name: string, allowed: readonly T[]): T | '' {
  const value = url.searchParams.get(name) ?? ''
  return (allowed as readonly string[]).includes(value) ? (value as T) : ''
}

const isActive = (job: { status: string }) => (RUNNING_STATUSES as readonly string[]).includes(job.status)

type JobLike = { uuid: string; name: string; status: string }

/**
 * A job list page's data: the page of rows (the first page when the asked one is past the end), the
 * open job (`?job=`, its row refreshed from the same read), the job a delete confirms (`?delete=`)
 * and, while purging (`?purge`), how many jobs are finished. Cluster errors go the way of
 * `loadFromCluster` (thrown as the catalogue's message).
 */
/** Each job type's row intents and the permission each needs (alter jobs also commit). */
const JOB_PERMISSIONS = {
  alter: { commit: 'commit_alterjob', cancel: 'cancel_alterjob', retry: 'retry_alterjob', delete: 'delete_alterjob' },
  batch: { cancel: 'cancel_batchjob', retry: 'retry_batchjob', delete: 'delete_batchjob' },
}

export async function loadJobList<Job extends JobLike, Row extends JobLike, Status extends string, Selected>(
  request: Request,
  api: ClusterApi,
  options: {
    /** The cluster's job type, as in `/orgs/{org}/jobs/{type}/`. */
    type: 'alter' | 'batch'
    statuses: readonly Status[]
    list: (api: ClusterApi, query: { page: number; pageSize: number; status: Status | '' }) => Promise<Page<Job>>
    get: (api: ClusterApi, jobId: string) => Promise<Job>
    toRow: (job: Job) => Row
    toSelected: (job: Job) => Selected | Promise<Selected>
  },
) {
  const { type, list, get, toRow } = options
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const status = oneOf(url, 'status', options.statuses)
  const jobId = url.searchParams.get('job')
  const deleteId = url.searchParams.get('delete')
  const isPurging = url.searchParams.has('purge')

  const page = await loadFromCluster(async () => {
    try {
      return await list(api, { page: paging.page, pageSize: paging.pageSize, status })
    } catch (error) {
      // A page past the end (the list shrank): the first page instead of an error.
      if (error instanceof ClusterError && error.status === 404 && paging.page > 1) {
        paging.page = 1
        return list(api, { page: 1, pageSize: paging.pageSize, status })
      }
      throw error
    }
  })
  const rows = page.results.map(toRow)

  // The open job: its details; a job that is gone says so.
  let selected: Selected | null = null
  let selectedJob: Job | null = null
  let selectedMissing = false
  if (jobId) {
    selectedJob = await loadFromCluster(() => nullOnMissing(() => get(api, jobId)))
    if (selectedJob) {
      selected = await options.toSelected(selectedJob)
      // Read after the list: its row shows the same, fresher state as the panel.
      const index = rows.findIndex((row) => row.uuid === selectedJob!.uuid)
      if (index >= 0) rows[index] = toRow(selectedJob)
    } else selectedMissing = true
  }

  let deleting: { uuid: string; name: string } | null = null
  if (deleteId) {
    const job =
      rows.find((row) => row.uuid === deleteId) ??
      (await loadFromCluster(() => nullOnMissing(() => get(api, deleteId))))
    if (job) deleting = { uuid: job.uuid, name: job.name }
  }

  let finishedCount: number | null = null
  if (isPurging) {
    const all = await loadFromCluster(() => listFinishedJobs(api, type))
    finishedCount = all.length
  }

  // Row actions the user holds nowhere are not offered (a job's table is its scope; the list spans many).
  const denied = await whyNotEach<string>(api, JOB_PERMISSIONS[type], 'anywhere')
  const pageCount = Math.max(1, Math.ceil(page.count / paging.pageSize))
  return {
    denied,
    rows,
    total: page.count,
    page: Math.min(paging.page, pageCount),
    pageCount,
    pageSize: paging.pageSize,
    status,
    selected,
    selectedMissing,
    deleting,
    isPurging,
    finishedCount,
    isAnyActive: rows.some(isActive) || Boolean(selectedJob && isActive(selectedJob)),
  }
}

/** Every finished (failed, canceled, unknown, done) job of a type, across all pages. */
export async function listFinishedJobs(api: ClusterApi, type: 'alter' | 'batch') {
  const all = await listAll<JobLike>(api, `/orgs/${api.orgId}/jobs/${type}/`)
  return all.filter((job) => (FINISHED_STATUSES as readonly string[]).includes(job.status))
}

/** The form's `intent` when it is one of `intents`; throws a 400 Response otherwise. */
export function intentOf<T extends string>(formData: FormData, intents: readonly T[]): T {
  const intent = formData.get('intent')
  if (!(intents as readonly unknown[]).includes(intent)) throw data({ message: 'Unknown action' }, { status: 400 })
  return intent as T
}

/**
 * The purge action: the form's FORCE checked (a 400 reply without it), then `purge` run; redirects
 * back with "Purged N <noun>s" or the cluster's refusal as a toast.
 */
export async function purgeJobsAction(
  request: Request,
  formData: FormData,
  noun: string,
  purge: () => Promise<number>,
) {
  const refused = checkPurge(formData)
  if (refused) return refused
  let purged = 0
  return runJobAction(
    request,
    async () => {
      purged = await purge()
    },
    () => `Purged ${purged} ${noun}${purged === 1 ? '' : 's'}`,
  )
}

/** The delete action: runs `remove` and redirects back, closing the open panel when it showed this job. */
export function deleteJobAction(request: Request, jobId: string, title: string, remove: () => Promise<unknown>) {
  const url = new URL(request.url)
  const changes: Record<string, string | null> = url.searchParams.get('job') === jobId ? { job: null } : {}
  return runJobAction(request, remove, title, changes)
}
