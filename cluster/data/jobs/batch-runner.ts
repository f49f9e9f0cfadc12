/**
 * Runs batch jobs one at a time: loads CSV/JSON files from a local path or a bucket folder inside
 * the data directory through the table's transform.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { nowIso } from '../../http'
import { pickTransform, resolveTable } from '../catalog'
import { tableOrderKey, toEngineError } from '../engine'
import type { Plane } from '../plane'
import { makeMapper, recordsOf, toJsonEachRow } from '../transform'
import { detailOf, MAX_ERRORS, progressOf, type BatchAttempt, type BatchStatusDetail } from './batch-record'
import { BATCH, save, type Job } from './job-store'
import { insertThroughSql } from './batch-sql'
import { defaultPool, withPool } from '../../pool-context'
import type { ClusterState } from '../../context'

/**
 * Engine settings that make one file's insert a single block: parsed whole before anything is
 * written, so a file that fails to insert stores none of its rows.
 */
const oneBlock = (rows: number) => ({
  max_insert_block_size: Math.max(rows + 1, 1_048_576),
  min_insert_block_size_rows: 0,
  min_insert_block_size_bytes: 0,
  input_format_parallel_parsing: 0,
})

/** The pool a batch job runs on: the one it names, else the default batch pool, else the default intake pool. */
export function batchPool(cluster: ClusterState, job: Job | undefined): string {
  const named = job?.settings?.pool_name
  if (typeof named === 'string' && named) return named
  return defaultPool(cluster.store, 'batch-peer', 'intake-head')
}

/**
 * Runs batch jobs one at a time. Each run is one attempt in the job's `status_detail.attempts`;
 * files already in `status_detail.files_completed` are skipped, so a Retry resumes after the files
 * earlier attempts loaded (see batch-record.ts).
 *
 * One file is all-or-nothing from the job's point of view: its rows go to the engine in one insert
 * (one block, see `oneBlock`), and the file is recorded as loaded, in the same store write as its
 * counts, only after that insert succeeded. Cancel takes effect between files: a file whose insert
 * has started is finished and recorded; a file read but not yet inserted is abandoned whole (none
 * of its rows stored) and loaded by the next Retry. Stopping the cluster waits for the file in
 * flight the same way. Only a process killed after the engine committed a file's insert and before
 * the store write that follows it (microseconds) can leave that file stored but not recorded; the
 * record then names it in `current_file` and in the error.
 */
export class BatchRunner {
  private queue: string[] = []
  private running: Promise<void> | null = null
  private cancelled = new Set<string>()
  private stopped = false
  /** Jobs whose source could not be reached: since when they have waited, in `ready`, for it. */
  private waiting = new Map<string, number>()
  private retryTimers = new Set<NodeJS.Timeout>()

  constructor(private plane: Plane) {}

  /** After a restart: jobs that were running were interrupted; ready ones run again. */
  recover() {
    const { store } = this.plane.cluster
    for (const job of store.all<Job>(BATCH)) {
      if (job.status === 'running') {
        const { detail } = detailOf(job)
        const inFlight = detail.current_file
        const now = nowIso()
        const error =
          `The cluster restarted while this job ran; the ${detail.files_completed.length} files ` +
          `recorded as loaded are kept, and Retry resumes after them.` +
          (inFlight ? ` The file being loaded, ${inFlight}, was not recorded as loaded, so Retry loads it.` : '')
        const last = detail.attempts.at(-1)
        if (last && last.status === 'running') Object.assign(last, { status: 'failed', ended: now, error })
        detail.current_file = null
        Object.assign(job, {
          status: 'failed',
          error,
          finished: now,
          status_detail: detail,
          progress: progressOf(detail, Number(job.progress?.files_total ?? 0)),
        })
        save(this.plane.cluster, BATCH, job)
      } else if (job.status === 'ready') this.enqueue(job.uuid)
    }
  }

  enqueue(id: string) {
    this.queue.push(id)
    if (!this.running) this.running = this.pump().finally(() => (this.running = null))
  }

  cancel(id: string) {
    this.cancelled.add(id)
    this.waiting.delete(id)
  }

  /** Stops taking jobs; resolves when the job running now has finished its current file and saved. */
  async stop() {
    this.stopped = true
    for (const timer of this.retryTimers) clearTimeout(timer)
    this.retryTimers.clear()
    await this.running
  }

  /**
   * A job whose source cannot be reached (a cloud URL this machine has no copy of) waits in `ready`
   * and tries again, as a real cluster's job waits for its source, for `batchSourceWaitMs`; only then
   * does it run and fail with the reason. Meanwhile it can be listed, shown, canceled or deleted, and
   * it does not hold up the jobs queued after it. True when the job is waiting.
   */
  private waitForSource(job: Job): boolean {
    const waitMs = this.plane.cluster.options.batchSourceWaitMs
    const located = locate(this.plane.cluster.options, String(job.settings?.source?.settings?.url ?? ''))
    if (!('unreachable' in located) || waitMs <= 0) {
      this.waiting.delete(job.uuid)
      return false
    }
    const since = this.waiting.get(job.uuid) ?? Date.now()
    const left = since + waitMs - Date.now()
    if (left <= 0) {
      this.waiting.delete(job.uuid)
      return false
    }
    if (!this.waiting.has(job.uuid))
      this.plane.cluster.log({
        level: 'warning',
        service: 'batch-peer',
        component: 'batch',
        message: `batch job ${job.name} waits for its source: ${located.error}`,
      })
    this.waiting.set(job.uuid, since)
    const timer = setTimeout(
      () => {
        this.retryTimers.delete(timer)
        if (!this.stopped) this.enqueue(job.uuid)
      },
      Math.min(left, Math.max(50, Math.min(5_000, waitMs / 10))),
    )
    timer.unref()
    this.retryTimers.add(timer)
    return true
  }

  private async pump() {
    while (this.queue.length && !this.stopped) {
      const id = this.queue.shift()!
      // what the job counts and logs is labelled with the pool it runs on (settings.pool_name)
      const pool = batchPool(this.plane.cluster, this.plane.cluster.store.get<Job>(BATCH, id))
      await withPool(pool, () => this.run(id)).catch((error) => {
        this.plane.cluster.log({
          level: 'error',
          service: 'batch-peer',
          component: 'batch',
          message: `batch job ${id} crashed`,
          error: String(error),
        })
      })
    }
  }

  private async run(id: string) {
    const { cluster, engine } = this.plane
    const initial = cluster.store.get<Job>(BATCH, id)
    if (!initial || initial.status !== 'ready') {
      this.waiting.delete(id)
      return
    }
    if (this.waitForSource(initial)) return
    this.cancelled.delete(id)
    const { detail, legacyFilesDone } = detailOf(initial)
    const attempt: BatchAttempt = {
      attempt: detail.attempts.length + 1,
      started: nowIso(),
      ended: null,
      status: 'running',
      files_done: 0,
      rows: 0,
      bytes: 0,
      rows_read: 0,
      rows_rejected: 0,
      error: null,
      errors: [],
    }
    detail.attempts.push(attempt)
    let filesTotal = Number(initial.progress?.files_total ?? 0)
    let filesDone: number | undefined
    let name = initial.name
    /** Saves the job with the attempt's state; false when the job was deleted meanwhile. */
    const update = (patch: Partial<Job>) => {
      const current = cluster.store.get<Job>(BATCH, id)
      if (!current) return false
      name = current.name
      const status_detail: BatchStatusDetail = {
        ...detail,
        attempts: detail.attempts.map((a) => ({ ...a, errors: [...a.errors] })),
        files_completed: [...detail.files_completed],
      }
      save(cluster, BATCH, { ...current, ...patch, status_detail, progress: progressOf(detail, filesTotal, filesDone) })
      return true
    }
    const end = (status: 'done' | 'failed' | 'canceled', error: string | null = null) => {
      Object.assign(attempt, { status, ended: nowIso(), error })
      detail.current_file = null
      update({ status, error, finished: attempt.ended })
      if (status === 'failed')
        cluster.log({
          level: 'error',
          service: 'batch-peer',
          component: 'batch',
          message: `batch job ${name} failed`,
          error: error ?? '',
        })
    }
    const fail = (message: string) => end('failed', message)
    const addError = (message: string) => {
      if (attempt.errors.length < MAX_ERRORS) attempt.errors.push(message)
    }
    update({ status: 'running', started: initial.started ?? attempt.started, finished: null, error: null })
    cluster.log({
      level: 'info',
      service: 'batch-peer',
      component: 'batch',
      message: `batch job ${name} started (attempt ${attempt.attempt})`,
    })

    const job = initial
    const source = job.settings.source
    const resolved = resolveTable(cluster, source.table)
    if ('error' in resolved) return fail(resolved.error)
    const transform = pickTransform(cluster, resolved.table.uuid, source.transform || null)
    if (!transform)
      return fail(`Table ${source.table} has no transform${source.transform ? ` named "${source.transform}"` : ''}`)
    const located = locate(cluster.options, String(source.settings?.url ?? ''))
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
    /** A file's key in `files_completed`: its path under the job's url. */
    const keyOf = (file: string) => path.relative(located.path, file) || path.basename(file)
    if (legacyFilesDone > 0 && !detail.files_completed.length)
      detail.files_completed = files.slice(0, legacyFilesDone).map(keyOf)
    delete detail.legacy_files_done
    const completed = new Set(detail.files_completed)
    const countDone = () => files.reduce((n, f) => n + (completed.has(keyOf(f)) ? 1 : 0), 0)
    filesTotal = files.length
    filesDone = countDone()
    if (!update({})) return

    const dryRun = !!job.settings.dry_run
    const orderKey = (await tableOrderKey(engine, resolved.project.name, resolved.table.name)) ?? undefined
    const mapper = makeMapper(transform, { tableOrderKey: orderKey })
    const stopping = () => this.cancelled.has(id) || this.stopped
    const stopNow = () =>
      this.cancelled.has(id)
        ? end('canceled')
        : fail(
            `The cluster stopped while this job ran; the ${detail.files_completed.length} files ` +
              `recorded as loaded are kept, and Retry resumes after them.`,
          )
    for (const file of files) {
      const key = keyOf(file)
      if (completed.has(key)) continue
      if (!cluster.store.get(BATCH, id)) return // deleted
      if (stopping()) return stopNow()
      let raw: Buffer
      let text: string
      try {
        raw = fs.readFileSync(file)
        text = (/\.gz$/i.test(file) ? zlib.gunzipSync(raw) : raw).toString('utf8')
      } catch (error) {
        addError(`${key}: ${(error as Error).message}`)
        update({})
        continue
      }
      const fileErrors: string[] = []
      const { records, error } = recordsOf(text, mapper.type, transform.settings?.format_details)
      if (error) fileErrors.push(`${key}: ${error}`)
      const rows: Record<string, unknown>[] = []
      let rejected = 0
      records.forEach((r, i) => {
        const m = mapper.map(r, i)
        if (m.ok) rows.push(m.row)
        else {
          rejected++
          fileErrors.push(`${key}: ${m.error}`)
        }
      })
      if (!dryRun && !rows.length && fileErrors.length) {
        // nothing of this file can be stored: it stays unloaded, so a Retry (after a fix) reads it again
        fileErrors.forEach(addError)
        update({})
        continue
      }
      // abandon a file not yet inserted when a cancel came in meanwhile: none of its rows are stored
      if (stopping()) return stopNow()
      let stored = rows.length
      if (!dryRun && rows.length) {
        detail.current_file = key
        update({})
        try {
          const sql = typeof job.settings.sql_transform === 'string' ? job.settings.sql_transform.trim() : ''
          if (sql)
            stored = await insertThroughSql(
              engine,
              resolved.project.name,
              resolved.table.name,
              sql,
              toJsonEachRow(rows),
              id,
            )
          else
            await engine.insert(
              resolved.project.name,
              resolved.table.name,
              toJsonEachRow(rows),
              'JSONEachRow',
              oneBlock(rows.length),
            )
        } catch (e) {
          detail.current_file = null
          addError(`${key}: ${toEngineError(e).message}`)
          update({})
          continue
        }
        this.plane.touched(resolved.project.name, resolved.table.name)
      }
      // the file's rows are stored: record it and count it, in one store write
      detail.current_file = null
      detail.files_completed.push(key)
      completed.add(key)
      filesDone!++
      attempt.files_done++
      attempt.rows += dryRun ? 0 : stored
      attempt.bytes += raw.length
      attempt.rows_read += records.length
      attempt.rows_rejected += rejected
      fileErrors.forEach(addError)
      if (!update({})) return
    }
    if (!dryRun)
      cluster.metrics.inc(
        'rows_ingested_total',
        { service: 'batch-peer', table: `${resolved.project.name}.${resolved.table.name}` },
        attempt.rows,
      )
    const missing = files.length - countDone()
    if (missing > 0) {
      const loaded = detail.attempts.reduce((n, a) => n + a.rows, 0)
      const why = attempt.errors[0] ?? 'see errors'
      return fail(
        loaded === 0
          ? `No rows were loaded: ${why}`
          : `${missing} of ${files.length} files could not be loaded (${why}). Retry loads only those files.`,
      )
    }
    end('done')
    cluster.log({
      level: 'info',
      service: 'batch-peer',
      component: 'batch',
      message: `batch job ${name} done: attempt ${attempt.attempt} loaded ${attempt.rows} rows from ${attempt.files_done} files`,
    })
  }
}

/** Whether `child` is `parent` or under it (both resolved). */
function within(parent: string, child: string): boolean {
  const relative = path.relative(parent, child)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

/**
 * Where a job's url points on this machine: a file or folder under the import directory
 * (`file:///…` or an absolute path: `importDir`, CLUSTER_IMPORT_DIR), or a bucket folder in the data
 * dir (`s3://bucket/…` and the other clouds' schemes: `<dataDir>/buckets/<bucket>/…`). Nothing else:
 * the data dir holds the signing key and the admin's password (issue 49). A local path outside the
 * import directory gets one answer whether or not it exists, so jobs cannot probe the file system,
 * and a symbolic link that leads out of either place is refused as if it were outside.
 */
export function locate(
  options: { dataDir: string; importDir: string },
  url: string,
): { path: string } | { error: string } | { error: string; unreachable: true } {
  if (!url) return { error: 'settings.source.settings.url is empty' }
  const outside = {
    error:
      `Local files are read only from the cluster's import directory (CLUSTER_IMPORT_DIR): put ` +
      `the files there, or use a storage bucket (s3://bucket/path)`,
  }
  let local: string
  let root: string
  if (url.startsWith('file://') || url.startsWith('/')) {
    let decoded: string
    try {
      decoded = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url
    } catch {
      return { error: `Unsupported url "${url}"` }
    }
    if (!decoded.startsWith('/') || decoded.includes('\0')) return outside
    local = path.resolve(decoded)
    root = options.importDir
    if (!within(root, local)) return outside
    if (!fs.existsSync(local)) return { error: `Path ${url} does not exist in the import directory` }
  } else {
    const m = /^(s3|gs|gcs|az|azure|abfs|abfss|wasb|wasbs|r2|https?):\/\/([^/]+)\/?(.*)$/i.exec(url)
    if (!m) return { error: `Unsupported url "${url}": use s3://bucket/path, or file:///path in the import directory` }
    const [, scheme, bucket, rest] = m
    root = path.join(options.dataDir, 'buckets')
    const folder = path.resolve(root, bucket, rest)
    if (bucket === '.' || bucket === '..' || !within(path.join(root, bucket), folder))
      return { error: `Unsupported url "${url}"` }
    if (!fs.existsSync(folder)) {
      return {
        unreachable: true,
        error:
          `Cannot reach ${url}: this local cluster has no network access ` +
          `to ${scheme.toLowerCase().startsWith('http') ? 'remote servers' : 'cloud storage'}. Put ` +
          `the files under buckets/${bucket}/${rest} in its data directory to load them as if from ` +
          `that bucket.`,
      }
    }
    local = folder
  }
  // the real place, links followed, must still be inside (a link in the import dir to /etc is outside)
  let real: string
  try {
    real = fs.realpathSync(local)
    if (!within(fs.realpathSync(root), real)) return outside
  } catch {
    return outside
  }
  return { path: real }
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
