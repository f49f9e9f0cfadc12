/**
 * Batch job Retry resumes after the files already loaded and never stores a row twice; the job
 * record keeps every attempt (issue 15 item 1).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Store } from '../../store'
import { startTestCluster, type TestCluster } from '../../test-helpers'
import { Engine } from '../engine'
import { WEB_LOG_COLUMNS } from '../seed'

const FILES = 24
const ROWS = 93 // per file
const TOTAL = FILES * ROWS

let c: TestCluster
let base: string

/** Called after each engine insert into retry.web resolves, before the runner records the file. */
let afterInsert: ((n: number) => Promise<void> | void) | null = null
/** Called before each engine insert into retry.web; throwing fails that insert. */
let beforeInsert: ((n: number) => void) | null = null
let inserts = 0
const original = Engine.prototype.insert
vi.spyOn(Engine.prototype, 'insert').mockImplementation(async function (
  this: Engine,
  ...args: Parameters<Engine['insert']>
) {
  if (args[0] !== 'retry' || args[1] !== 'web') return original.apply(this, args)
  const n = ++inserts
  beforeInsert?.(n)
  const result = await original.apply(this, args)
  await afterInsert?.(n)
  return result
})

const poll = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 25))
  }
}
const ended = (x: { body: { status: string } }) => ['done', 'failed', 'canceled'].includes(x.body.status)

/** Writes FILES JSON files of ROWS rows under buckets/retry/<folder>/, each row unique, over several days. */
function writeFiles(dataDir: string, folder: string) {
  const dir = path.join(dataDir, 'buckets', 'retry', folder)
  fs.mkdirSync(dir, { recursive: true })
  for (let f = 1; f <= FILES; f++) {
    const lines = []
    for (let r = 0; r < ROWS; r++) {
      const ts = new Date(Date.UTC(2024, 2, 1 + ((f * ROWS + r) % 5), 0, 0, r)).toISOString()
      lines.push(
        JSON.stringify({
          timestamp: ts,
          method: 'GET',
          path: `/f${f}/r${r}`,
          status: 200,
          host: folder,
          request_id: `${folder}-${f}-${r}`,
        }),
      )
    }
    fs.writeFileSync(path.join(dir, `part-${String(f).padStart(4, '0')}.json`), lines.join('\n') + '\n')
  }
  return `s3://retry/${folder}/`
}

const job = (name: string, url: string) => ({
  name,
  type: 'batch_import',
  settings: { source: { table: 'retry.web', settings: { url } } },
})

/** Rows of one folder in the table, and how many distinct ones. */
async function stored(folder: string) {
  const r = await c.api(
    'POST',
    '/query',
    `SELECT count(), uniqExact(request_id) FROM retry.web WHERE host = '${folder}' FORMAT JSONCompact`,
  )
  const [total, distinct] = r.body.data[0]
  return { total: Number(total), distinct: Number(distinct) }
}

type Attempt = {
  attempt: number
  started: string
  ended: string | null
  status: string
  files_done: number
  rows: number
  bytes: number
  rows_read: number
  rows_rejected: number
}
const sum = (attempts: Attempt[], k: 'rows' | 'files_done' | 'bytes') => attempts.reduce((n, a) => n + a[k], 0)

/** The job ended `done` with every row stored once, its attempts adding up to the totals. */
async function expectLoadedOnce(id: string, folder: string, attempts: number) {
  const done = await poll(() => c.api('GET', `${base}/jobs/batch/${id}`), ended)
  expect(done.body.status, JSON.stringify(done.body.error)).toBe('done')
  expect(await stored(folder)).toEqual({ total: TOTAL, distinct: TOTAL })
  const a: Attempt[] = done.body.status_detail.attempts
  expect(a).toHaveLength(attempts)
  expect(a.map((x) => x.attempt)).toEqual(Array.from({ length: attempts }, (_, i) => i + 1))
  expect(a.at(-1)!.status).toBe('done')
  expect(sum(a, 'rows')).toBe(TOTAL)
  expect(sum(a, 'files_done')).toBe(FILES)
  expect(done.body.progress).toMatchObject({
    percent: 100,
    files_total: FILES,
    files_done: FILES,
    rows_ingested: TOTAL,
    rows_read: TOTAL,
    rows_rejected: 0,
    attempts,
  })
  expect(done.body.progress.bytes_read).toBe(sum(a, 'bytes'))
  expect(done.body.status_detail.files_completed).toHaveLength(FILES)
  expect(new Set(done.body.status_detail.files_completed).size).toBe(FILES)
  expect(done.body.status_detail.current_file).toBeNull()
  return done.body
}

beforeAll(async () => {
  c = await startTestCluster()
  base = `/config/v1/orgs/${c.orgId}`
  const p = await c.api('POST', `${base}/projects/`, { name: 'retry' })
  const t = await c.api('POST', `${base}/projects/${p.body.uuid}/tables/`, { name: 'web' })
  const tr = await c.api('POST', `${base}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
    name: 'json',
    type: 'json',
    settings: { is_default: true, output_columns: WEB_LOG_COLUMNS },
  })
  expect(tr.status, JSON.stringify(tr.body)).toBe(201)
})

afterAll(async () => {
  afterInsert = beforeInsert = null
  await c?.close()
})

describe('batch job retry', () => {
  it('canceled mid-way, Retry resumes after the last loaded file: each row stored once; Retry of a done job is refused', async () => {
    const url = writeFiles(c.dataDir, 'cancel')
    inserts = 0
    let id = ''
    // the cancel lands while file 9's insert is in flight: that file finishes and is recorded
    afterInsert = async (n) => {
      if (n === 9) expect((await c.api('POST', `${base}/jobs/batch/${id}/cancel`)).status).toBe(200)
    }
    const created = await c.api('POST', `${base}/jobs/batch/`, job('cancel-retry', url))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    id = created.body.uuid
    expect(created.body.status_detail).toEqual({ attempts: [], files_completed: [], current_file: null })
    const canceled = await poll(() => c.api('GET', `${base}/jobs/batch/${id}`), ended)
    afterInsert = null
    expect(canceled.body.status).toBe('canceled')
    expect(canceled.body.progress).toMatchObject({
      files_total: FILES,
      files_done: 9,
      rows_ingested: 9 * ROWS,
      attempts: 1,
    })
    expect(canceled.body.status_detail.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'canceled', files_done: 9, rows: 9 * ROWS, rows_read: 9 * ROWS }),
    ])
    expect(canceled.body.status_detail.files_completed).toEqual(
      Array.from({ length: 9 }, (_, i) => `part-${String(i + 1).padStart(4, '0')}.json`),
    )
    expect(await stored('cancel')).toEqual({ total: 9 * ROWS, distinct: 9 * ROWS })

    const retry = await c.api('POST', `${base}/jobs/batch/${id}/retry`)
    expect(retry.status, JSON.stringify(retry.body)).toBe(200)
    const body = await expectLoadedOnce(id, 'cancel', 2)
    expect(body.status_detail.attempts[1]).toMatchObject({ files_done: FILES - 9, rows: (FILES - 9) * ROWS })
    expect(inserts).toBe(FILES) // one engine insert per file, none repeated
    expect(body.started).toBe(body.status_detail.attempts[0].started)

    const again = await c.api('POST', `${base}/jobs/batch/${id}/retry`)
    expect(again.status).toBe(400)
    expect(again.body.detail).toMatch(
      /^Job is done: all 24 files were loaded \(2232 rows\)\. Retrying would load them again/,
    )
    const after = await c.api('GET', `${base}/jobs/batch/${id}`)
    expect(after.body.status).toBe('done')
    expect(after.body.status_detail.attempts).toHaveLength(2)
    expect(await stored('cancel')).toEqual({ total: TOTAL, distinct: TOTAL })
  })

  it('refuses Retry of a running job with the reason, and refuses to change the source once files are loaded', async () => {
    const url = writeFiles(c.dataDir, 'running')
    inserts = 0
    let id = ''
    let answer: { status: number; body: { detail?: string } } | null = null
    afterInsert = async (n) => {
      if (n === 3) answer = await c.api('POST', `${base}/jobs/batch/${id}/retry`)
    }
    const created = await c.api('POST', `${base}/jobs/batch/`, job('running-retry', url))
    id = created.body.uuid
    await expectLoadedOnce(id, 'running', 1)
    afterInsert = null
    expect(answer!.status).toBe(400)
    expect(answer!.body.detail).toMatch(/^Job is running; cancel it or wait for it to end before retrying\./)
    const moved = await c.api('PATCH', `${base}/jobs/batch/${id}`, {
      settings: { source: { table: 'retry.web', settings: { url: 's3://retry/cancel/' } } },
    })
    expect(moved.status).toBe(400)
    expect(moved.body.detail).toMatch(/24 files of this job are loaded already/)
    const renamed = await c.api('PATCH', `${base}/jobs/batch/${id}`, { description: 'kept' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
  })

  it('a file whose insert fails stores none of its rows; the job fails saying so and Retry loads only that file', async () => {
    const url = writeFiles(c.dataDir, 'insertfail')
    inserts = 0
    beforeInsert = (n) => {
      if (n === 5) throw new Error('Code: 241. DB::Exception: Memory limit exceeded (injected)')
    }
    const created = await c.api('POST', `${base}/jobs/batch/`, job('insert-fail', url))
    const id = created.body.uuid
    const failed = await poll(() => c.api('GET', `${base}/jobs/batch/${id}`), ended)
    beforeInsert = null
    expect(failed.body.status).toBe('failed')
    expect(failed.body.error).toMatch(
      /^1 of 24 files could not be loaded \(part-0005\.json: Code: 241\..*\)\. Retry loads only those files\.$/,
    )
    expect(failed.body.progress).toMatchObject({ files_done: FILES - 1, rows_ingested: (FILES - 1) * ROWS })
    expect(failed.body.status_detail.files_completed).not.toContain('part-0005.json')
    expect(await stored('insertfail')).toEqual({ total: (FILES - 1) * ROWS, distinct: (FILES - 1) * ROWS })
    expect((await c.api('POST', `${base}/jobs/batch/${id}/retry`)).status).toBe(200)
    const body = await expectLoadedOnce(id, 'insertfail', 2)
    expect(body.status_detail.attempts[1]).toMatchObject({ files_done: 1, rows: ROWS })
  })

  it('resume survives a restart of the cluster: stopped mid-job, then a crash mid-file, each Retry loads only the rest', async () => {
    const url = writeFiles(c.dataDir, 'restart')
    inserts = 0
    let id = ''
    let closing: Promise<void> | null = null
    // stop the cluster while file 5's insert is in flight: the stop waits for it and records it
    afterInsert = (n) => {
      if (n === 5) closing = c.close({ keepData: true })
    }
    const created = await c.api('POST', `${base}/jobs/batch/`, job('restart-retry', url))
    id = created.body.uuid
    await poll(
      async () => closing !== null,
      (x) => x,
    )
    await closing
    afterInsert = null
    const dataDir = c.dataDir

    c = await startTestCluster({ dataDir })
    base = `/config/v1/orgs/${c.orgId}`
    const stopped = await c.api('GET', `${base}/jobs/batch/${id}`)
    expect(stopped.body.status).toBe('failed')
    expect(stopped.body.error).toMatch(
      /^The cluster stopped while this job ran; the 5 files recorded as loaded are kept, and Retry resumes after them\.$/,
    )
    expect(stopped.body.status_detail.attempts).toEqual([
      expect.objectContaining({ status: 'failed', files_done: 5, rows: 5 * ROWS }),
    ])
    expect(await stored('restart')).toEqual({ total: 5 * ROWS, distinct: 5 * ROWS })

    // attempt 2 is killed while loading file 12 (its insert never committed): emulate that record
    inserts = 0
    afterInsert = (n) => {
      if (n === 6) closing = c.close({ keepData: true })
    }
    closing = null
    expect((await c.api('POST', `${base}/jobs/batch/${id}/retry`)).status).toBe(200)
    await poll(
      async () => closing !== null,
      (x) => x,
    )
    await closing
    afterInsert = null
    const store = Store.open(path.join(dataDir, 'store'))
    const record = store.get<Record<string, any>>('batch_job', id)!
    expect(record.status_detail.files_completed).toHaveLength(11)
    record.status = 'running'
    record.error = null
    Object.assign(record.status_detail.attempts[1], { status: 'running', ended: null, error: null })
    record.status_detail.current_file = 'part-0012.json'
    store.put('batch_job', id, record)
    store.close()

    c = await startTestCluster({ dataDir })
    base = `/config/v1/orgs/${c.orgId}`
    const crashed = await c.api('GET', `${base}/jobs/batch/${id}`)
    expect(crashed.body.status).toBe('failed')
    expect(crashed.body.error).toBe(
      'The cluster restarted while this job ran; the 11 files recorded as loaded are kept, and Retry resumes after them. ' +
        'The file being loaded, part-0012.json, was not recorded as loaded, so Retry loads it.',
    )
    expect(crashed.body.status_detail.attempts.map((a: Attempt) => [a.status, a.files_done])).toEqual([
      ['failed', 5],
      ['failed', 6],
    ])
    expect(crashed.body.status_detail.current_file).toBeNull()
    expect(await stored('restart')).toEqual({ total: 11 * ROWS, distinct: 11 * ROWS })

    inserts = 0
    expect((await c.api('POST', `${base}/jobs/batch/${id}/retry`)).status).toBe(200)
    const body = await expectLoadedOnce(id, 'restart', 3)
    expect(inserts).toBe(FILES - 11)
    expect(body.status_detail.attempts[2]).toMatchObject({ files_done: FILES - 11, rows: (FILES - 11) * ROWS })
  })

  it('a record from before attempts were kept (canceled at 10 files) resumes after those files', async () => {
    const url = writeFiles(c.dataDir, 'legacy')
    // the old runner loaded files in listing order: load the first 10 as it would have
    const first = await c.api('POST', `${base}/jobs/batch/`, {
      ...job('legacy-first', url),
      settings: { regex_filter: 'part-00(0[1-9]|10)\\.json$', source: job('', url).settings.source },
    })
    expect(
      (await poll(() => c.api('GET', `${base}/jobs/batch/${first.body.uuid}`), ended)).body.progress.files_done,
    ).toBe(10)
    const dataDir = c.dataDir
    await c.close({ keepData: true })
    const store = Store.open(path.join(dataDir, 'store'))
    const now = new Date().toISOString()
    const source = { table: 'retry.web', type: 'batch', subtype: 'aws s3', settings: { url } }
    store.put('batch_job', 'legacy-job', {
      uuid: 'legacy-job',
      org: c.orgId,
      name: 'legacy',
      type: 'batch_import',
      status: 'canceled',
      error: null,
      settings: { max_files: 0, regex_filter: '', dry_run: false, source },
      progress: {
        percent: 42,
        files_total: FILES,
        files_done: 10,
        rows_read: 10 * ROWS,
        rows_ingested: 10 * ROWS,
        rows_rejected: 0,
        errors: [],
      },
      created: now,
      modified: now,
      started: now,
      finished: now,
    })
    store.close()
    c = await startTestCluster({ dataDir })
    base = `/config/v1/orgs/${c.orgId}`
    inserts = 0
    expect((await c.api('POST', `${base}/jobs/batch/legacy-job/retry`)).status).toBe(200)
    const body = await expectLoadedOnce('legacy-job', 'legacy', 2)
    expect(inserts).toBe(FILES - 10)
    expect(body.status_detail.attempts[0]).toMatchObject({
      attempt: 1,
      status: 'canceled',
      files_done: 10,
      rows: 10 * ROWS,
    })
  })
})
