import type { ClusterApi, Page } from './client.server'
import { ClusterError } from './errors.server'

/** Job states as the cluster reports them (cluster-api.md 6); anything else is shown as is. */
export const RUNNING_STATUSES = ['ready', 'running'] as const
/** What purge clears (spec section 4). */
export const FINISHED_STATUSES = ['failed', 'canceled', 'unknown', 'done'] as const

export type AlterJob = {
  uuid: string
  name: string
  status: string
  description?: string
  created?: string
  modified?: string
  created_by?: string
  error?: string | null
  settings: {
    project_name?: string
    table_name?: string
    kind?: string
    sql?: string
    where?: string
    assignments?: string
    committing?: boolean
    [key: string]: unknown
  }
  progress?: { rows_to_alter?: number | null; rows_altered?: number | null }
}

export type AlterVerify = {
  table: string
  status: string
  kind?: string
  rows_to_alter: number | null
  rows_matching_now: number | null
  verified: boolean
  error?: string | null
}

export type BatchProgress = {
  percent: number
  files_total: number
  files_done: number
  rows_read: number
  rows_ingested: number
  rows_rejected: number
  /** Source bytes of the files loaded, over every attempt. */
  bytes_read: number
  /** How many times the job ran (first run + retries). */
  attempts: number
  /** The latest attempt's errors (each attempt keeps its own in `status_detail.attempts`). */
  errors: string[]
}

/**
 * One run of a batch job (the first run and each Retry). Counts are taken when a file is recorded
 * as loaded, so each file counts in exactly one attempt and the attempts add up to `progress`.
 */
export type BatchAttempt = {
  attempt: number
  started: string
  ended: string | null
  status: 'running' | 'done' | 'failed' | 'canceled'
  files_done: number
  rows: number
  bytes: number
  rows_read: number
  rows_rejected: number
  error: string | null
  errors: string[]
}

export type BatchStatusDetail = {
  attempts: BatchAttempt[]
  /** Files (paths under the job's url) whose rows are stored; Retry skips them. */
  files_completed: string[]
  /** The file whose insert is in flight, null between files. */
  current_file: string | null
}

export type BatchJob = {
  uuid: string
  name: string
  description?: string
  status: string
  type?: string
  created?: string
  modified?: string
  started?: string | null
  finished?: string | null
  created_by?: string
  error?: string | null
  progress?: Partial<BatchProgress>
  /** Absent on records from clusters that do not keep attempts. */
  status_detail?: Partial<BatchStatusDetail>
  settings: {
    source?: { table?: string; transform?: string; type?: string; subtype?: string; settings?: Record<string, unknown> }
    [key: string]: unknown
  }
}

/** The create body of a batch job (cluster-api.md 6.1). */
export type NewBatchJob = {
  name: string
  description?: string
  table: string
  transform: string
  url: string
  subtype: string
  sourceSettings?: Record<string, unknown>
  settings?: Record<string, unknown>
}

const alterPath = (api: ClusterApi, jobId = '') =>
  `/orgs/${api.orgId}/jobs/alter/${jobId ? encodeURIComponent(jobId) : ''}`
const batchPath = (api: ClusterApi, jobId = '') =>
  `/orgs/${api.orgId}/jobs/batch/${jobId ? encodeURIComponent(jobId) : ''}`

/** Returns one page of the org's alter jobs, newest first, optionally of one status; throws ClusterError. */
export function listAlterJobs(
  api: ClusterApi,
  options: { page?: number; pageSize?: number; status?: string } = {},
): Promise<Page<AlterJob>> {
  return api.list<AlterJob>(alterPath(api), {
    page: options.page,
    pageSize: options.pageSize,
    params: { status: options.status },
  })
}

/** Returns one alter job; throws ClusterError (404 when there is none). */
export function getAlterJob(api: ClusterApi, jobId: string): Promise<AlterJob> {
  return api.get<AlterJob>(alterPath(api, jobId))
}

/** Returns the alter job's verify results (rows matching its WHERE now); throws ClusterError. */
export async function verifyAlterJob(api: ClusterApi, jobId: string): Promise<AlterVerify[]> {
  const answer = await api.get<{ results?: AlterVerify[] }>(`${alterPath(api, jobId)}/verify/`)
  return answer?.results ?? []
}

/** Commits a pending alter job (the data changes); throws ClusterError (400 unless pending). */
export function commitAlterJob(api: ClusterApi, jobId: string): Promise<AlterJob> {
  return api.post<AlterJob>(`${alterPath(api, jobId)}/commit`)
}

export function cancelAlterJob(api: ClusterApi, jobId: string): Promise<AlterJob> {
  return api.post<AlterJob>(`${alterPath(api, jobId)}/cancel/`)
}

export function retryAlterJob(api: ClusterApi, jobId: string): Promise<AlterJob> {
  return api.post<AlterJob>(`${alterPath(api, jobId)}/retry`)
}

export function deleteAlterJob(api: ClusterApi, jobId: string): Promise<void> {
  return api.del(`${alterPath(api, jobId)}/`)
}

/**
 * Creates an alter job by sending its SQL to the query API (`POST /query`), as hdxcli does, and
 * returns the new job's id. Throws ClusterError: a 400 carries the engine's message in `body.error`.
 */
export async function createAlterJob(api: ClusterApi, sql: string): Promise<string> {
  // ClusterApi.raw sends objects as JSON; the SQL goes in ?query= (the query API reads it there too).
  const answer = await api.raw<{ job_id?: string } | string>('POST', `/query?query=${encodeURIComponent(sql)}`, {
    json: true,
  })
  const jobId = typeof answer === 'object' && answer ? answer.job_id : undefined
  if (!jobId) {
    throw new ClusterError({
      status: 400,
      body: { sql: ['The cluster ran this statement as a query instead of creating an alter job.'] },
    })
  }
  return jobId
}

/** The engine's message of a failed query-API call (`{"error": "Code: …"}`), when it has one. */
export function engineMessage(error: unknown): string | undefined {
  if (!(error instanceof ClusterError) || error.status !== 400) return undefined
  const body = error.body
  if (body && typeof body === 'object' && 'error' in body && typeof (body as { error: unknown }).error === 'string') {
    return (body as { error: string }).error
  }
  return typeof body === 'string' && body ? body : undefined
}

/** Returns one page of the org's batch jobs, newest first; throws ClusterError. */
export function listBatchJobs(
  api: ClusterApi,
  options: { page?: number; pageSize?: number; status?: string } = {},
): Promise<Page<BatchJob>> {
  return api.list<BatchJob>(batchPath(api), {
    page: options.page,
    pageSize: options.pageSize,
    params: { status: options.status },
  })
}

export function getBatchJob(api: ClusterApi, jobId: string): Promise<BatchJob> {
  return api.get<BatchJob>(batchPath(api, jobId))
}

/** Creates a batch job (it starts at once); throws ClusterError (400 with field errors). */
export function createBatchJob(api: ClusterApi, job: NewBatchJob): Promise<BatchJob> {
  return api.post<BatchJob>(batchPath(api), {
    name: job.name,
    description: job.description ?? '',
    type: 'batch_import',
    settings: {
      ...job.settings,
      source: {
        table: job.table,
        type: 'batch',
        subtype: job.subtype,
        transform: job.transform,
        settings: { ...job.sourceSettings, url: job.url },
      },
    },
  })
}

export function cancelBatchJob(api: ClusterApi, jobId: string): Promise<BatchJob> {
  return api.post<BatchJob>(`${batchPath(api, jobId)}/cancel`)
}

export function retryBatchJob(api: ClusterApi, jobId: string): Promise<BatchJob> {
  return api.post<BatchJob>(`${batchPath(api, jobId)}/retry`)
}

export function deleteBatchJob(api: ClusterApi, jobId: string): Promise<void> {
  return api.del(batchPath(api, jobId))
}

/** Purges the org's failed, canceled, unknown and done batch jobs; returns how many went. */
export async function purgeBatchJobs(api: ClusterApi): Promise<number> {
  const answer = await api.post<{ purged?: number }>(`/orgs/${api.orgId}/purgejobs/`)
  return answer?.purged ?? 0
}
