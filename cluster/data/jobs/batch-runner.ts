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
import { BATCH, save, type Job } from './job-store'

interface Progress {
  percent: number
  files_total: number
  files_done: number
  rows_read: number
  rows_ingested: number
  rows_rejected: number
  errors: string[]
}

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

    const orderKey = (await tableOrderKey(this.plane.engine, resolved.project.name, resolved.table.name)) ?? undefined
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
