import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Store } from '../store'
import { startTestCluster, type TestCluster } from '../test-helpers'
import { WEB_LOG_COLUMNS, writeSampleBucket } from './seed'

let c: TestCluster
let base: string
let localDir: string

const poll = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

const finished = (x: { body: { status: string } }) => ['done', 'failed', 'canceled'].includes(x.body.status)

beforeAll(async () => {
  c = await startTestCluster()
  base = `/config/v1/orgs/${c.orgId}`
  const p = await c.api('POST', `${base}/projects/`, { name: 'batch' })
  const t = await c.api('POST', `${base}/projects/${p.body.uuid}/tables/`, { name: 'web' })
  const tr = await c.api('POST', `${base}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
    name: 'json',
    type: 'json',
    settings: { is_default: true, output_columns: WEB_LOG_COLUMNS },
  })
  expect(tr.status, JSON.stringify(tr.body)).toBe(201)
  const csv = await c.api('POST', `${base}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
    name: 'csv',
    type: 'csv',
    settings: {
      is_default: false,
      format_details: { skip_head: 1 },
      output_columns: WEB_LOG_COLUMNS.map((col, i) => ({
        ...col,
        datatype: { ...col.datatype, source: { from_input_index: i } },
      })),
    },
  })
  expect(csv.status, JSON.stringify(csv.body)).toBe(201)
  writeSampleBucket(c.dataDir)
  // local files are read only from the import directory (issue 49)
  localDir = fs.mkdtempSync(path.join(c.handler.state.options.importDir, 'batch-files-'))
  fs.writeFileSync(
    path.join(localDir, 'a.json'),
    '{"timestamp":"2024-03-01T00:00:00Z","path":"/local-a","status":200}\n' +
      '{"timestamp":"2024-03-01T00:00:01Z","path":"/local-b","status":200}\n',
  )
  fs.writeFileSync(
    path.join(localDir, 'b.json.gz'),
    zlib.gzipSync(
      '[{"timestamp":"2024-03-02T00:00:00Z","path":"/local-c","status":500},{"timestamp":"broken","path":"/bad"}]',
    ),
  )
})

afterAll(async () => {
  await c?.close()
  fs.rmSync(localDir, { recursive: true, force: true })
})

const job = (name: string, url: string, transform?: string) => ({
  name,
  type: 'batch_import',
  settings: {
    source: {
      table: 'batch.web',
      type: 'batch',
      subtype: 'aws s3',
      ...(transform ? { transform } : {}),
      settings: { url },
    },
  },
})

const count = async (where: string) => {
  const r = await c.api('POST', '/query', `SELECT count() FROM batch.web WHERE ${where}`)
  return Number(String(r.body).trim())
}

describe('batch jobs', () => {
  it('loads a bucket folder (JSON and gzipped JSON) through to done, rows queryable', async () => {
    const created = await c.api('POST', `${base}/jobs/batch/`, job('bucket-json', 's3://sample-bucket/web-logs/'))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.status).toMatch(/ready|running/)
    expect(created.body.url).toBe(`http://local-cluster${base}/jobs/batch/${created.body.uuid}`)
    expect(created.body.settings.max_files).toBe(0)
    const done = await poll(() => c.api('GET', `${base}/jobs/batch/${created.body.uuid}`), finished)
    expect(done.body.status, JSON.stringify(done.body)).toBe('done')
    expect(done.body.progress).toMatchObject({
      percent: 100,
      files_total: 2,
      files_done: 2,
      rows_ingested: 1000,
      rows_rejected: 0,
    })
    expect(await count('1')).toBe(1000)
    const status = await c.api('GET', `${base}/jobs/batch/${created.body.uuid}/status`)
    expect(status.body.status).toBe('done')
  })

  it('loads CSV through a CSV transform, and a local path with a bad row reported', async () => {
    const csv = await c.api('POST', `${base}/jobs/batch/`, job('bucket-csv', 's3://sample-bucket/web-logs-csv/', 'csv'))
    const done = await poll(() => c.api('GET', `${base}/jobs/batch/${csv.body.uuid}`), finished)
    expect(done.body.status, JSON.stringify(done.body)).toBe('done')
    expect(done.body.progress.rows_ingested).toBe(300)
    const local = await c.api('POST', `${base}/jobs/batch/`, job('local', `file://${localDir}`))
    const ldone = await poll(() => c.api('GET', `${base}/jobs/batch/${local.body.uuid}`), finished)
    expect(ldone.body.status).toBe('done')
    expect(ldone.body.progress).toMatchObject({ files_total: 2, rows_read: 4, rows_ingested: 3, rows_rejected: 1 })
    expect(ldone.body.progress.errors.join('\n')).toMatch(
      /b\.json\.gz: row 2: column "timestamp": "broken" is not a datetime/,
    )
    expect(await count("path LIKE '/local-%'")).toBe(3)
  })

  it('fails a cloud URL it cannot reach with a clear message, and retries', async () => {
    const created = await c.api('POST', `${base}/jobs/batch/`, job('cloud', 's3://some-real-bucket/logs/'))
    expect(created.status).toBe(201)
    const failed = await poll(() => c.api('GET', `${base}/jobs/batch/${created.body.uuid}`), finished)
    expect(failed.body.status).toBe('failed')
    expect(failed.body.error).toMatch(
      /Cannot reach s3:\/\/some-real-bucket\/logs\/: this local cluster has no network access to cloud storage/,
    )
    const retry = await c.api('POST', `${base}/jobs/batch/${created.body.uuid}/retry`)
    expect(retry.status).toBe(200)
    const again = await poll(() => c.api('GET', `${base}/jobs/batch/${created.body.uuid}`), finished)
    expect(again.body.status).toBe('failed')
  })

  it('validates the body with field errors', async () => {
    const noName = await c.api('POST', `${base}/jobs/batch/`, {
      settings: { source: { table: 'batch.web', settings: { url: 's3://x/' } } },
    })
    expect(noName.status).toBe(400)
    expect(noName.body.name).toEqual(['This field is required.'])
    const badTable = await c.api(
      'POST',
      `${base}/jobs/batch/`,
      job('x', 's3://x/'.replace('x', 'y')).settings && {
        ...job('x', 's3://y/'),
        settings: { source: { table: 'nope.nope', settings: { url: 's3://y/' } } },
      },
    )
    expect(badTable.status).toBe(400)
    expect(badTable.body.settings.source.table[0]).toMatch(/does not exist/)
    const notJson = await c.api('POST', `${base}/jobs/batch/`, '{nope')
    expect(notJson.status).toBe(400)
  })

  it('lists, cancels, deletes and purges', async () => {
    const list = await c.api('GET', `${base}/jobs/batch/`)
    expect(list.status).toBe(200)
    expect(list.body.count).toBeGreaterThanOrEqual(4)
    const done = list.body.results.find((j: { status: string }) => j.status === 'done')
    const cancelDone = await c.api('POST', `${base}/jobs/batch/${done.uuid}/cancel`)
    expect(cancelDone.status).toBe(400)
    // a failed job answers that it had failed already, and why (issue 50: hdxcli's `job batch cancel`)
    const failed = list.body.results.find((j: { status: string }) => j.status === 'failed')
    const cancelFailed = await c.api('POST', `${base}/jobs/batch/${failed.uuid}/cancel`)
    expect(cancelFailed.status).toBe(200)
    expect(cancelFailed.body).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/^Job had already failed/),
    })
    const purge = await c.api('POST', `${base}/purgejobs/`)
    expect(purge.status).toBe(200)
    expect(purge.body.purged).toBeGreaterThanOrEqual(4)
    const after = await c.api('GET', `${base}/jobs/batch/`)
    expect(after.body.count).toBe(0)
    const missing = await c.api('GET', `${base}/jobs/batch/00000000-0000-0000-0000-000000000000`)
    expect(missing.status).toBe(404)
  })

  it('refuses a reader changes but lets it read', async () => {
    const sa = await c.api('POST', '/config/v1/service_accounts/', { name: 'reader-bot' })
    expect(sa.status, JSON.stringify(sa.body)).toBe(201)
    const added = await c.api('POST', `/config/v1/users/${sa.body.uuid}/add_roles/`, { roles: ['reader'] })
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300)
    const tok = await c.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})
    const token = tok.body.token
    expect(token).toBeTruthy()
    expect((await c.api('GET', `${base}/jobs/batch/`, undefined, token)).status).toBe(200)
    expect((await c.api('POST', `${base}/jobs/batch/`, job('r', 's3://sample-bucket/web-logs/'), token)).status).toBe(
      403,
    )
    expect((await c.api('POST', '/query', 'SELECT count() FROM batch.web', token)).status).toBe(200)
    expect((await c.api('POST', '/query', 'ALTER TABLE batch.web DELETE WHERE 1', token)).status).toBe(403)
  })
})

describe('alter job list', () => {
  it("pages newest first, follows a new job, and shows a user with a table grant only that table's jobs (issue 33)", async () => {
    const store = c.handler.state.store
    const org = c.orgId
    const mine = (await c.api('POST', `${base}/projects/`, { name: 'alter_list' })).body.uuid as string
    const job = (i: number, projectId: string) => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `alter_${i}`,
      org,
      type: 'alter',
      status: 'done',
      settings: { project_id: projectId, table_id: 't', project_name: 'p', table_name: 't' },
      created: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      modified: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    })
    store.putMany(
      'alter_job',
      [3, 1, 4, 2].map((i) => [job(i, i === 2 ? mine : 'p-other').uuid, job(i, i === 2 ? mine : 'p-other')]),
    )
    const names = async (query = '', token?: string) =>
      (await c.api('GET', `${base}/jobs/alter/${query}`, undefined, token)).body.results
        .map((j: { name: string }) => j.name)
        .filter((name: string) => /^alter_\d$/.test(name))
    expect(await names()).toEqual(['alter_4', 'alter_3', 'alter_2', 'alter_1'])
    store.put('alter_job', job(5, 'p-other').uuid, job(5, 'p-other'))
    expect(await names()).toEqual(['alter_5', 'alter_4', 'alter_3', 'alter_2', 'alter_1'])
    expect(await names('?page_size=2&page=2')).toEqual(['alter_3', 'alter_2'])
    // another org's job is not listed; a changed status is followed by the status filter
    store.put('alter_job', job(6, 'p-other').uuid, { ...job(6, 'p-other'), org: 'another-org' })
    store.put('alter_job', job(3, 'p-other').uuid, { ...job(3, 'p-other'), status: 'failed' })
    expect(await names()).toEqual(['alter_5', 'alter_4', 'alter_3', 'alter_2', 'alter_1'])
    expect(await names('?status=failed')).toEqual(['alter_3'])
    // a role on one project: that project's jobs only
    const role = await c.api('POST', '/config/v1/roles/', {
      name: 'alter-one-table',
      policies: [{ permissions: ['view_alterjob'], scope_type: 'project', scope_id: mine }],
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const sa = await c.api('POST', '/config/v1/service_accounts/', { name: 'alter-bot', roles: ['alter-one-table'] })
    expect(sa.status, JSON.stringify(sa.body)).toBe(201)
    const token = (await c.api('POST', `/config/v1/service_accounts/${sa.body.uuid}/tokens/`, {})).body.token
    expect(await names('', token)).toEqual(['alter_2'])
  })
})

describe('jobs across a restart', () => {
  it('fails a job that was running, runs a ready one, recounts an alter job', async () => {
    const dataDir = c.dataDir
    await c.close({ keepData: true })
    const store = Store.open(path.join(dataDir, 'store'))
    const org = c.orgId
    const now = new Date().toISOString()
    const source = (url: string) => ({ table: 'batch.web', type: 'batch', settings: { url } })
    store.put('batch_job', 'job-running', {
      uuid: 'job-running',
      org,
      name: 'was-running',
      type: 'batch_import',
      status: 'running',
      settings: { max_files: 0, regex_filter: '', source: source('s3://sample-bucket/web-logs/') },
      progress: {},
      created: now,
      modified: now,
    })
    store.put('batch_job', 'job-ready', {
      uuid: 'job-ready',
      org,
      name: 'was-ready',
      type: 'batch_import',
      status: 'ready',
      settings: { max_files: 1, regex_filter: '', source: source('s3://sample-bucket/web-logs/') },
      progress: {},
      created: now,
      modified: now,
    })
    store.put('alter_job', 'alter-ready', {
      uuid: 'alter-ready',
      org,
      name: 'a',
      type: 'alter',
      status: 'running',
      settings: {
        project_name: 'batch',
        table_name: 'web',
        kind: 'delete',
        where: 'status = 500',
        assignments: '',
        committing: false,
      },
      progress: {},
      created: now,
      modified: now,
    })
    store.close()
    c = await startTestCluster({ dataDir })
    base = `/config/v1/orgs/${c.orgId}`
    const running = await c.api('GET', `${base}/jobs/batch/job-running`)
    expect(running.body.status).toBe('failed')
    expect(running.body.error).toMatch(/restarted/)
    const ready = await poll(() => c.api('GET', `${base}/jobs/batch/job-ready`), finished)
    expect(ready.body.status, JSON.stringify(ready.body)).toBe('done')
    expect(ready.body.progress.files_done).toBe(1)
    const alter = await poll(
      () => c.api('GET', `${base}/jobs/alter/alter-ready`),
      (x) => x.body.status === 'pending',
    )
    expect(alter.body.status).toBe('pending')
    // counted at restart, while the ready batch job may still be adding rows
    expect(alter.body.progress.rows_to_alter).toBeGreaterThan(0)
    expect(alter.body.progress.rows_to_alter).toBeLessThanOrEqual(await count('status = 500'))
  })
})
