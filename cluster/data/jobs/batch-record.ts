/**
 * What a batch job's record keeps across attempts (`status_detail`), and the totals (`progress`)
 * derived from it.
 *
 * - `status_detail.attempts`: one entry per run of the job (the first run and every Retry), each
 *   with its own counts. Counts are taken when a file is recorded as loaded, so a file is counted
 *   in exactly one attempt and the attempts' counts add up to the totals in `progress`.
 * - `status_detail.files_completed`: the files (paths relative to the job's url) whose rows are
 *   stored. A file is added in the same store write that adds its counts to the attempt, and only
 *   after its one engine insert succeeded. Retry skips these files, so it resumes and never loads
 *   a file twice.
 * - `status_detail.current_file`: the file whose insert is in flight (null between files), so a
 *   record left by a process that died mid-insert says which file was being loaded.
 */
import type { Job } from './job-store'

export interface BatchAttempt {
  /** 1 for the first run, 2 for the first Retry, ... */
  attempt: number
  started: string
  ended: string | null
  status: 'running' | 'done' | 'failed' | 'canceled'
  /** Files this attempt loaded (recorded in `files_completed`). */
  files_done: number
  /** Rows this attempt stored. */
  rows: number
  /** Source bytes (as read, before gunzip) of the files this attempt loaded. */
  bytes: number
  /** Records read from the files this attempt loaded. */
  rows_read: number
  /** Records of those files the transform rejected. */
  rows_rejected: number
  error: string | null
  /** This attempt's file errors (at most 50). */
  errors: string[]
}

export interface BatchStatusDetail {
  attempts: BatchAttempt[]
  files_completed: string[]
  current_file: string | null
  /**
   * Set on a record written before attempts were kept: how many files (the first ones of the
   * listing) it had loaded. The next run turns it into `files_completed` and drops it.
   */
  legacy_files_done?: number
}

export interface BatchProgress {
  percent: number
  files_total: number
  files_done: number
  rows_read: number
  rows_ingested: number
  rows_rejected: number
  bytes_read: number
  attempts: number
  /** The latest attempt's errors (each attempt keeps its own in `status_detail.attempts`). */
  errors: string[]
}

export const MAX_ERRORS = 50

export const emptyProgress = (): BatchProgress => ({
  percent: 0,
  files_total: 0,
  files_done: 0,
  rows_read: 0,
  rows_ingested: 0,
  rows_rejected: 0,
  bytes_read: 0,
  attempts: 0,
  errors: [],
})

/**
 * The job's status detail, copied so it can be changed. A record written before attempts were kept
 * (no `status_detail`) becomes one attempt with its old counts, and `legacyFilesDone` says how many
 * files it had loaded: the old runner loaded files in listing order, so they are the first ones.
 */
export function detailOf(job: Job): { detail: BatchStatusDetail; legacyFilesDone: number } {
  const d = job.status_detail as Partial<BatchStatusDetail> | undefined
  if (d && Array.isArray(d.attempts)) {
    return {
      detail: {
        attempts: d.attempts.map((a) => ({ ...a, errors: [...(a.errors ?? [])] })),
        files_completed: [...(d.files_completed ?? [])],
        current_file: d.current_file ?? null,
        ...(d.legacy_files_done ? { legacy_files_done: d.legacy_files_done } : {}),
      },
      legacyFilesDone: d.legacy_files_done ?? 0,
    }
  }
  const p = (job.progress ?? {}) as Partial<BatchProgress>
  const filesDone = Number(p.files_done ?? 0)
  const detail: BatchStatusDetail = {
    attempts: [],
    files_completed: [],
    current_file: null,
    ...(filesDone > 0 ? { legacy_files_done: filesDone } : {}),
  }
  if (job.started || filesDone > 0) {
    detail.attempts.push({
      attempt: 1,
      started: job.started ?? job.created,
      ended: job.finished ?? null,
      status: job.status === 'done' || job.status === 'canceled' ? job.status : 'failed',
      files_done: filesDone,
      rows: Number(p.rows_ingested ?? 0),
      bytes: 0,
      rows_read: Number(p.rows_read ?? 0),
      rows_rejected: Number(p.rows_rejected ?? 0),
      error: job.error ?? null,
      errors: [...(p.errors ?? [])].slice(0, MAX_ERRORS),
    })
  }
  return { detail, legacyFilesDone: filesDone }
}

/** The totals over every attempt, in the fields the console reads. */
export function progressOf(
  detail: BatchStatusDetail,
  filesTotal: number,
  filesDone = detail.files_completed.length,
): BatchProgress {
  const sum = (k: 'rows' | 'rows_read' | 'rows_rejected' | 'bytes') =>
    detail.attempts.reduce((n, a) => n + (a[k] ?? 0), 0)
  const total = Math.max(filesTotal, filesDone)
  return {
    percent: total ? Math.round((filesDone / total) * 100) : 0,
    files_total: total,
    files_done: filesDone,
    rows_read: sum('rows_read'),
    rows_ingested: sum('rows'),
    rows_rejected: sum('rows_rejected'),
    bytes_read: sum('bytes'),
    attempts: detail.attempts.length,
    errors: [...(detail.attempts.at(-1)?.errors ?? [])],
  }
}

/** Why Retry is refused for a job in this state, or null when it may be retried. */
export function retryRefusal(job: Job): string | null {
  const p = (job.progress ?? {}) as Partial<BatchProgress>
  switch (job.status) {
    case 'failed':
    case 'canceled':
      return null
    case 'done':
      return (
        `Job is done: all ${p.files_done ?? 0} files were loaded (${p.rows_ingested ?? 0} rows). ` +
        `Retrying would load them again; nothing is left to resume. Create a new job to load the ` +
        `files again.`
      )
    case 'ready':
      return 'Job is ready and waits to run; there is nothing to retry.'
    case 'running':
      return 'Job is running; cancel it or wait for it to end before retrying.'
    default:
      return `Job is ${job.status}; only failed or canceled jobs can be retried.`
  }
}
