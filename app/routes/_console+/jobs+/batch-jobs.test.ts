import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable, queryCount, waitFor } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { JOB_MESSAGES } from '~/schemas/job'
import { action as createAction, loader as createLoader } from './batch-jobs.create'
import { action as listAction, loader as listLoader } from './batch-jobs._index'
import { loader as poolSearch } from '../../resources+/pool-search'
import { loader as tableTransforms } from '../../resources+/table-transforms'

const cluster = useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

const line = (i: number, level = 'info') =>
  JSON.stringify({
    timestamp: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString().replace('.000', ''),
    level,
    message: `m${i}`,
  })

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  await makeTable('batch_p', 'logs')
  await makeTable('batch_p', 'other')
  // A bucket as the local cluster reads it: ${dataDir}/buckets/<bucket>/<path>.
  const folder = path.join(cluster().dataDir, 'buckets', 'test-bucket', 'logs')
  fs.mkdirSync(folder, { recursive: true })
  fs.writeFileSync(path.join(folder, 'part-1.json'), Array.from({ length: 30 }, (_, i) => line(i)).join('\n') + '\n')
  fs.writeFileSync(
    path.join(folder, 'part-2.json.gz'),
    zlib.gzipSync(Array.from({ length: 20 }, (_, i) => line(100 + i, 'debug')).join('\n') + '\n'),
  )
  const big = path.join(cluster().dataDir, 'buckets', 'test-bucket', 'big')
  fs.mkdirSync(big, { recursive: true })
  for (let f = 0; f < 4; f++)
    fs.writeFileSync(
      path.join(big, `part-${f}.json`),
      Array.from({ length: 20_000 }, (_, i) => line(i)).join('\n') + '\n',
    )
})

const list = (search = '') => listLoader(args(get(`/jobs/batch-jobs${search}`, cookie)))
const send = (form: Record<string, string>) =>
  returnedOrThrown(() => createAction(args(post('/jobs/batch-jobs/create', form, cookie))))
const act = (form: Record<string, string>, search = '') =>
  returnedOrThrown(() => listAction(args(post(`/jobs/batch-jobs${search}`, form, cookie))))

const VALID = {
  name: 'load_logs',
  table: 'batch_p.logs',
  transform: 'batch_p.logs:logs_json',
  sourceKind: 'url',
  url: 's3://test-bucket/logs/',
}

async function createJob(form: Record<string, string>): Promise<string> {
  const response = asResponse(await send(form))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const location = response.headers.get('Location')!
  expect(location).toMatch(/^\/jobs\/batch-jobs\?job=[\w-]{36}$/)
  expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
  return location.split('job=')[1]!
}

async function until(jobId: string, statuses: string[]) {
  return waitFor(
    async () => {
      const data = await list(`?job=${jobId}`)
      return data.selected && statuses.includes(data.selected.status) ? data : null
    },
    `batch job ${jobId} to be ${statuses.join(' or ')}`,
    30_000,
  )
}

describe('/jobs/batch-jobs/create', () => {
  it('offers each table with its own transforms, the default one preselected', async () => {
    const data = await createLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(data.tables).toEqual([
      {
        value: 'batch_p.logs',
        transforms: [{ value: 'batch_p.logs:logs_json', name: 'logs_json', type: 'json', isDefault: true }],
      },
      {
        value: 'batch_p.other',
        transforms: [{ value: 'batch_p.other:other_json', name: 'other_json', type: 'json', isDefault: true }],
      },
    ])
    expect(data).toMatchObject({ table: 'batch_p.logs', transform: 'batch_p.logs:logs_json', credentials: [] })
    const linked = await createLoader(args(get('/jobs/batch-jobs/create?table=batch_p.other', cookie)))
    expect(linked).toMatchObject({ table: 'batch_p.other', transform: 'batch_p.other:other_json' })
  })

  it('answers the required fields with their messages and keeps what was typed', async () => {
    const empty = unwrap<FormReply>(await send({ sourceKind: 'url', description: 'kept' }))
    expect(empty.status).toBe(400)
    expect(empty.data.result.error).toEqual({
      name: [JOB_MESSAGES.nameRequired],
      table: [JOB_MESSAGES.tableRequired],
      transform: [JOB_MESSAGES.transformRequired],
      url: [JOB_MESSAGES.urlRequired],
    })
    expect(empty.data.result.initialValue).toMatchObject({ description: 'kept' })

    const bucket = unwrap<FormReply>(await send({ ...VALID, sourceKind: 'bucket', cloud: '', url: '' }))
    expect(bucket.data.result.error).toEqual({
      cloud: [JOB_MESSAGES.cloudRequired],
      bucketName: [JOB_MESSAGES.bucketNameRequired],
      bucketPath: [JOB_MESSAGES.bucketPathRequired],
      region: [JOB_MESSAGES.regionRequired],
      endpoint: [JOB_MESSAGES.endpointRequired],
    })
  })

  it('checks the transform belongs to the table, the name length, the numbers and the regex', async () => {
    const { data } = unwrap<FormReply>(
      await send({
        ...VALID,
        name: 'n'.repeat(64),
        transform: 'batch_p.other:other_json',
        maxRows: '1.5',
        maxActive: '-1',
        regexFilter: '([',
      }),
    )
    expect(data.result.error).toEqual({
      name: [JOB_MESSAGES.nameTooLong],
      transform: [JOB_MESSAGES.transformOfTable],
      maxRows: [JOB_MESSAGES.wholeNumber],
      maxActive: [JOB_MESSAGES.wholeNumber],
      regexFilter: [JOB_MESSAGES.regexInvalid],
    })
  })

  it("puts the cluster's field errors on the form's fields", async () => {
    failWith(
      '/config/v1/orgs/:org/jobs/batch/',
      400,
      { settings: { source: { settings: { url: ['Enter a valid URL.'] } }, max_files: ['Too many.'], other: ['x'] } },
      'post',
    )
    const { data, status } = unwrap<FormReply>(await send({ ...VALID, maxFiles: '3' }))
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      url: ['Enter a valid URL.'],
      maxFiles: ['Too many.'],
      '': ['settings.other: x'],
    })
    expect(data.result.initialValue).toMatchObject({ url: 's3://test-bucket/logs/', maxFiles: '3' })
  })
})

describe('/jobs/batch-jobs', () => {
  it('loads a bucket folder (plain and gzipped JSON) through to done, with the job highlighted and its progress', async () => {
    const jobId = await createJob({ ...VALID, description: 'From the test bucket' })
    const done = await until(jobId, ['done', 'failed'])
    expect(done.selected).toMatchObject({
      status: 'done',
      description: 'From the test bucket',
      table: 'batch_p.logs',
      transform: 'logs_json',
      url: 's3://test-bucket/logs/',
      subtype: 'aws s3',
      percent: 100,
      filesTotal: 2,
      filesDone: 2,
      rowsIngested: 50,
      rowsRejected: 0,
      canRetry: false, // done: nothing left to load, Retry is not offered
      canCancel: false,
    })
    expect(done.rows[0]).toMatchObject({ uuid: jobId, status: 'done', rowsIngested: 50 })
    expect(done.isAnyActive).toBe(false)
    expect(await queryCount('SELECT count() FROM batch_p.logs')).toBe(50)
  })

  it('builds the URL from the bucket fields and sends the credential and advanced settings (dry run loads nothing)', async () => {
    const credential = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/credentials/', {
      name: 'bucket_keys',
      type: 'aws_access_keys',
      details: { access_key_id: 'AKIA0000', secret_access_key: 'secret' },
    })
    const form = await createLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(form.credentials).toEqual([{ value: credential.uuid, label: 'bucket_keys (aws_access_keys)' }])
    const jobId = await createJob({
      ...VALID,
      name: 'dry_bucket',
      url: '',
      sourceKind: 'bucket',
      cloud: 'aws',
      bucketName: 'test-bucket',
      bucketPath: '/logs/',
      region: 'us-east-1',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      dryRun: 'on',
      maxFiles: '1',
      regexFilter: 'part-1',
      inputConcurrency: '2',
      credential: credential.uuid,
    })
    const done = await until(jobId, ['done', 'failed'])
    expect(done.selected).toMatchObject({
      status: 'done',
      url: 's3://test-bucket/logs/',
      credential: credential.uuid,
      filesTotal: 1,
      rowsRead: 30,
      rowsIngested: 0,
    })
    const stored = await clusterCall<{ settings: { source: { settings: Record<string, unknown> } } }>(
      'GET',
      `/config/v1/orgs/{org}/jobs/batch/${jobId}`,
    )
    expect(stored.settings.source.settings).toEqual({
      url: 's3://test-bucket/logs/',
      cloud: 'aws',
      bucket_name: 'test-bucket',
      bucket_path: '/logs/',
      region: 'us-east-1',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      credential_id: credential.uuid,
    })
    const settings = Object.fromEntries(done.selected!.settings)
    expect(settings).toMatchObject({
      'Dry run': 'true',
      'Dry run max files': '1',
      'Regex filter': 'part-1',
      'Input concurrency': '2',
    })
    expect(await queryCount('SELECT count() FROM batch_p.logs')).toBe(50)
  })

  it('runs on the pool it names and stores what its SQL selects; a pool or SQL the cluster refuses comes back on its field', async () => {
    await makeTable('batch_p', 'sql_only')
    const form = await createLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(form.pools).toContainEqual({ value: 'intake-head', label: 'intake-head (intake-head)' })
    expect(form.pools.map((pool) => pool.value)).not.toContain('query-peer') // a query pool runs no batch job
    const target = { ...VALID, table: 'batch_p.sql_only', transform: 'batch_p.sql_only:sql_only_json' }

    const refused = async (fields: Record<string, string>) => {
      const { data, status } = unwrap<FormReply>(await send({ ...target, name: 'refused', ...fields }))
      expect(status).toBe(400)
      expect(data.result.initialValue).toMatchObject(fields) // nothing typed is lost
      return data.result.error ?? {}
    }
    expect((await refused({ sql: 'SELECT nope FROM {STREAM}' })).sql?.[0]).toMatch(/nope/) // the engine's own words
    expect((await refused({ sql: 'SELECT 1' })).sql?.[0]).toMatch(/\{STREAM\}/)
    expect(
      (await refused({ sql: "SELECT * FROM {STREAM} UNION ALL SELECT * FROM file('/etc/passwd')" })).sql?.[0],
    ).toMatch(/outside the cluster/)
    expect((await refused({ sql: 'SELECT *, 1 AS extra FROM {STREAM}' })).sql?.[0]).toMatch(
      /"extra", which is not a column of batch_p.sql_only/,
    )
    expect((await refused({ pool: 'no-such-pool' })).pool).toEqual(['Pool "no-such-pool" does not exist.'])

    const sql =
      "SELECT timestamp, upper(level) AS level, message FROM {STREAM} WHERE timestamp >= '2026-01-02 00:01:00'"
    const jobId = await createJob({ ...target, name: 'debug_only', pool: 'intake-head', sql })
    const done = await until(jobId, ['done', 'failed'])
    expect(done.selected).toMatchObject({ status: 'done', filesDone: 2, rowsRead: 50, rowsIngested: 20 })
    expect(Object.fromEntries(done.selected!.settings)).toMatchObject({ Pool: 'intake-head', SQL: sql })
    // only the 20 lines of the gzipped file (the later minute), with the level the SQL computed
    expect(await queryCount('SELECT count() FROM batch_p.sql_only')).toBe(20)
    expect(await queryCount("SELECT countIf(level = 'DEBUG') FROM batch_p.sql_only")).toBe(20)
  })

  it('an unreachable cloud URL ends failed with its message', async () => {
    const jobId = await createJob({ ...VALID, name: 'nowhere', url: 's3://no-such-bucket/data/' })
    const failed = await until(jobId, ['failed', 'done'])
    expect(failed.selected?.status).toBe('failed')
    expect(failed.selected?.error).toMatch(
      /^Cannot reach s3:\/\/no-such-bucket\/data\/: this local cluster has no network access to cloud storage/,
    )
    expect(failed.selected?.canRetry).toBe(true)
  })

  it('cancels a queued job, retries it to done, and answers a refused action with a toast', async () => {
    const bigId = await createJob({ ...VALID, name: 'big_one', url: 's3://test-bucket/big/', dryRun: 'on' })
    const queuedId = await createJob({ ...VALID, name: 'queued' })
    const canceled = asResponse(await act({ intent: 'cancel', job: queuedId }, `?job=${queuedId}`))
    expect(canceled.status).toBe(302)
    expect(canceled.headers.get('Location')).toBe(`/jobs/batch-jobs?job=${queuedId}`)
    const afterCancel = await until(queuedId, ['canceled', 'done'])
    expect(afterCancel.selected?.status).toBe('canceled')

    // Canceling it again: the cluster refuses; the list shows its message instead of an error page.
    const refused = asResponse(await act({ intent: 'cancel', job: queuedId }))
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)

    await until(bigId, ['done', 'failed'])
    const retried = asResponse(await act({ intent: 'retry', job: queuedId }))
    expect(retried.headers.get('Location')).toBe(`/jobs/batch-jobs?job=${queuedId}`)
    const done = await until(queuedId, ['done', 'failed'])
    expect(done.selected).toMatchObject({ status: 'done', rowsIngested: 50, canRetry: false })
    // canceled while queued, it never ran: the retry is its one attempt, and it stored the 50 rows
    expect(done.selected?.attempts.map((a) => [a.status, a.rows])).toEqual([['done', 50]])
    // a retry of a done job (a stale page, a hand-made request) is refused with the cluster's reason
    const again = asResponse(await act({ intent: 'retry', job: queuedId }))
    expect(again.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    expect((await until(queuedId, ['done'])).selected?.attempts).toHaveLength(1)
  })

  it('filters by status in the URL', async () => {
    const failed = await list('?status=failed')
    expect(failed.rows.map((row) => row.name)).toEqual(['nowhere'])
    expect((await list('?status=running')).rows).toEqual([])
    expect((await list('?status=nope')).status).toBe('')
  })

  it('deletes a job after the ?delete confirmation', async () => {
    const { rows } = await list('?status=failed')
    const jobId = rows[0]!.uuid
    expect((await list(`?delete=${jobId}`)).deleting).toEqual({ uuid: jobId, name: 'nowhere' })
    const response = asResponse(await act({ intent: 'delete', job: jobId }, `?delete=${jobId}&job=${jobId}`))
    expect(response.headers.get('Location')).toBe('/jobs/batch-jobs')
    expect((await list(`?job=${jobId}`)).selectedMissing).toBe(true)
  })

  it('purges only with FORCE typed, then removes the finished jobs', async () => {
    const panel = await list('?purge')
    expect(panel.finishedCount).toBe(5)
    const refused = unwrap<{ purge: { error?: Record<string, string[]> } }>(
      await act({ intent: 'purge', confirm: 'yes' }, '?purge'),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.purge.error).toEqual({ confirm: [JOB_MESSAGES.forceRequired] })
    expect((await list()).total).toBe(5)

    const response = asResponse(await act({ intent: 'purge', confirm: 'FORCE' }, '?purge'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/jobs/batch-jobs')
    expect((await list()).total).toBe(0)
    // The loaded rows stay: purge removes job records only.
    expect(await queryCount('SELECT count() FROM batch_p.logs')).toBe(100)
  })

  it('ends the session on a 401', async () => {
    failWith('/config/v1/orgs/:org/jobs/batch/', 401, { detail: 'Token expired.' }, 'get')
    const thrown = await responseFrom(() => list())
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fjobs%2Fbatch-jobs')
  })
  it('suggests the first pools by name and finds any other by a search (issue 33): a pool past the suggestions, a search that finds nothing', async () => {
    for (let i = 0; i < 30; i++)
      await clusterCall('POST', '/config/v1/pools/', {
        name: `zbatch-${String(i).padStart(2, '0')}`,
        settings: {
          k8s_deployment: { service: 'intake-head', replicas: '1', cpu: '1', memory: '1Gi', storage: '1Gi' },
        },
      })
    const form = await createLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(form.pools).toHaveLength(25)
    expect(form.morePools).toBe(true)
    expect(form.pools.map((pool) => pool.value)).toEqual([...form.pools.map((pool) => pool.value)].sort())
    expect(form.pools.map((pool) => pool.value)).not.toContain('zbatch-29')
    const search = async (q: string) =>
      (await poolSearch(args(get(`/resources/pool-search?q=${encodeURIComponent(q)}`, cookie)))).json()
    expect(await search('ZBATCH-29')).toEqual({
      choices: [{ value: 'zbatch-29', label: 'zbatch-29 (intake-head)' }],
      hasMore: false,
    })
    expect((await search('zbatch-')).choices).toHaveLength(25)
    expect(await search('no-such-pool')).toEqual({ choices: [], hasMore: false })
    expect(await search('')).toEqual({ choices: form.pools, hasMore: true })
    // a pool past the suggestions, typed in full (no scripts): the job is made on it
    const jobId = await createJob({ ...VALID, name: 'on_zbatch_29', pool: 'zbatch-29', dryRun: 'on' })
    const done = await until(jobId, ['done', 'failed'])
    expect(Object.fromEntries(done.selected!.settings)).toMatchObject({ Pool: 'zbatch-29' })
  })
})

describe('/jobs/batch-jobs/create at size (decision 085)', () => {
  it('reads the transforms of the preselected table only; another offers its default, which the job gets, and its list comes when picked', async () => {
    for (const name of ['t1', 't2', 't3', 't4']) await makeTable('batch_q', name)
    const t3 = await clusterCall<{ results: { uuid: string; project: string }[] }>(
      'GET',
      '/config/v1/orgs/{org}/projects/?name=batch_q',
    )
    const projectId = t3.results[0]!.uuid
    const [table] = (
      await clusterCall<{ results: { uuid: string }[] }>(
        'GET',
        `/config/v1/orgs/{org}/projects/${projectId}/tables/?name=t3`,
      )
    ).results
    // a second transform, not the default: "its default transform" must pick t3_json, not this one
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/${table!.uuid}/transforms/`, {
      name: 'a_t3_csv',
      type: 'csv',
      settings: {
        is_default: false,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        ],
      },
    })
    const data = await createLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(data.tables.length).toBeGreaterThan(3)
    expect(data.tables[0]).toEqual({
      value: 'batch_p.logs',
      transforms: [{ value: 'batch_p.logs:logs_json', name: 'logs_json', type: 'json', isDefault: true }],
    })
    expect(data.tables.slice(1).map((entry) => entry.transforms)).toEqual(data.tables.slice(1).map(() => null))
    expect(data).toMatchObject({ table: 'batch_p.logs', transform: 'batch_p.logs:logs_json' })
    // a deep link to a table reads its transforms
    const linked = await createLoader(args(get('/jobs/batch-jobs/create?table=batch_q.t3', cookie)))
    expect(linked.tables.find((entry) => entry.value === 'batch_q.t3')!.transforms).toHaveLength(2)
    expect(linked).toMatchObject({ table: 'batch_q.t3', transform: 'batch_q.t3:t3_json' })
    expect(linked.tables.filter((entry) => entry.transforms !== null)).toHaveLength(1)

    // with scripts: the transforms of a table picked later
    const read = async (value: string) => {
      const response = await tableTransforms(
        args(get(`/resources/table-transforms?table=${encodeURIComponent(value)}`, cookie)),
      )
      return { status: response.status, body: await response.json() }
    }
    expect(await read('batch_q.t3')).toEqual({
      status: 200,
      body: {
        transforms: [
          { value: 'batch_q.t3:a_t3_csv', name: 'a_t3_csv', type: 'csv', isDefault: false },
          { value: 'batch_q.t3:t3_json', name: 't3_json', type: 'json', isDefault: true },
        ],
      },
    })
    expect(await read('batch_q.nope')).toEqual({ status: 404, body: { message: 'Table batch_q.nope does not exist' } })

    // without scripts: a table whose transforms were not read, with its default's option
    const jobId = await createJob({
      ...VALID,
      name: 'on_default_of_t3',
      table: 'batch_q.t3',
      transform: 'batch_q.t3:*',
      dryRun: 'on',
    })
    const job = await clusterCall('GET', `/config/v1/orgs/{org}/jobs/batch/${jobId}`)
    expect(job.settings.source).toMatchObject({ table: 'batch_q.t3', transform: 't3_json' })
    // a table with no transform says so at the field
    const bare = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'bare',
    })
    expect(bare.uuid).toBeTruthy()
    const refused = unwrap<FormReply>(
      await send({ ...VALID, name: 'on_bare', table: 'batch_q.bare', transform: 'batch_q.bare:*' }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error).toEqual({ transform: ['batch_q.bare has no transform'] })
  })
})
