import { beforeAll, describe, expect, it } from 'vitest'
import { makeTable, queryCount, waitFor } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { getZodConstraint } from '@conform-to/zod/v4'
import { AlterJobFormSchema, JOB_MESSAGES } from '~/schemas/job'
import { action as createAction, loader as createLoader } from './alter-jobs.create'
import { action as listAction, loader as listLoader } from './alter-jobs._index'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  await makeTable('alter_p', 'events', [
    { timestamp: '2026-01-01T00:00:00Z', level: 'debug', message: 'a' },
    { timestamp: '2026-01-01T00:01:00Z', level: 'debug', message: 'b' },
    { timestamp: '2026-01-01T00:02:00Z', level: 'info', message: 'c' },
    { timestamp: '2026-01-01T00:03:00Z', level: 'error', message: 'd' },
  ])
})

const list = (search = '') => listLoader(args(get(`/jobs/alter-jobs${search}`, cookie)))
const send = (form: Record<string, string>) =>
  returnedOrThrown(() => createAction(args(post('/jobs/alter-jobs/create', form, cookie))))
const act = (form: Record<string, string>, search = '') =>
  returnedOrThrown(() => listAction(args(post(`/jobs/alter-jobs${search}`, form, cookie))))

/** Creates an alter job through the form and returns its id from the redirect. */
async function createJob(sql: string): Promise<string> {
  const response = asResponse(await send({ intent: 'create', table: 'alter_p.events', sql }))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const location = response.headers.get('Location')!
  expect(location).toMatch(/^\/jobs\/alter-jobs\?job=[\w-]{36}$/)
  return location.split('job=')[1]!
}

/** Polls the list with the job open until its status is `status`. */
async function until(jobId: string, status: string) {
  return waitFor(async () => {
    const data = await list(`?job=${jobId}`)
    return data.selected?.job.status === status ? data : null
  }, `job ${jobId} to be ${status}`)
}

describe('/jobs/alter-jobs/create', () => {
  it('offers the tables a search finds (every table here) and a DELETE template for the first one, or for ?table=', async () => {
    const data = await createLoader(args(get('/jobs/alter-jobs/create', cookie)))
    expect(data).toEqual({
      denied: null,
      tables: ['alter_p.events'],
      search: { q: '', choices: [expect.objectContaining({ project: 'alter_p', name: 'events' })], hasMore: false },
      table: 'alter_p.events',
      sql: 'ALTER TABLE alter_p.events DELETE WHERE ',
      constraint: getZodConstraint(AlterJobFormSchema),
    })
    expect(data.constraint.sql).toMatchObject({ required: true })
    const linked = await createLoader(args(get('/jobs/alter-jobs/create?table=alter_p.events', cookie)))
    expect(linked.table).toBe('alter_p.events')
    // a search that finds nothing keeps the table chosen; no choice and no match leaves none
    const kept = await createLoader(args(get('/jobs/alter-jobs/create?table=alter_p.events&table_q=zzz', cookie)))
    expect(kept).toMatchObject({ tables: ['alter_p.events'], table: 'alter_p.events', search: { choices: [] } })
    const none = await createLoader(args(get('/jobs/alter-jobs/create?table_q=zzz', cookie)))
    expect(none).toMatchObject({ tables: [], table: '', sql: '' })
  })

  it('answers "Use template" (no scripts) with the same form and the template for the chosen table', async () => {
    const { data, status } = unwrap<FormReply>(
      await send({ intent: 'template', table: 'alter_p.events', sql: 'typed' }),
    )
    expect(status).toBe(200)
    expect(data.result.initialValue).toEqual({
      intent: 'template',
      table: 'alter_p.events',
      sql: 'ALTER TABLE alter_p.events DELETE WHERE ',
    })
  })

  it('requires SQL, and only an ALTER … UPDATE|DELETE statement, keeping what was typed', async () => {
    const empty = unwrap<FormReply>(await send({ intent: 'create', table: 'alter_p.events', sql: '  ' }))
    expect(empty.status).toBe(400)
    expect(empty.data.result.error).toEqual({ sql: [JOB_MESSAGES.sqlRequired] })
    const select = unwrap<FormReply>(await send({ intent: 'create', table: 'alter_p.events', sql: 'SELECT 1' }))
    expect(select.data.result.error).toEqual({ sql: [JOB_MESSAGES.sqlNotAlter] })
    expect(select.data.result.initialValue).toMatchObject({ sql: 'SELECT 1' })
  })

  it("shows the engine's refusal at the SQL field, word for word", async () => {
    const sql = "ALTER TABLE alter_p.events DELETE WHERE no_such_column = 'x'"
    const { data, status } = unwrap<FormReply>(await send({ intent: 'create', table: 'alter_p.events', sql }))
    expect(status).toBe(400)
    expect(data.result.error?.sql?.[0]).toMatch(/^Code: \d+\. DB::Exception: .*no_such_column/)
    expect(data.result.initialValue).toMatchObject({ sql })

    const noWhere = unwrap<FormReply>(
      await send({ intent: 'create', table: 'alter_p.events', sql: 'ALTER TABLE alter_p.events DELETE WHERE ' }),
    )
    expect(noWhere.data.result.error?.sql?.[0]).toMatch(/WHERE/)
    const unknownTable = unwrap<FormReply>(
      await send({ intent: 'create', sql: 'ALTER TABLE alter_p.nope DELETE WHERE 1' }),
    )
    expect(unknownTable.data.result.error?.sql?.[0]).toMatch(/Code: 60/)
  })

  it('answers other cluster failures with the form as typed and the catalogue message as its error (issue 37)', async () => {
    failWith('/query', 503, 'busy', 'post')
    const sql = "ALTER TABLE alter_p.events DELETE WHERE level = 'x'"
    const reply = unwrap<{ result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }>(
      await send({ intent: 'create', sql }),
    )
    expect(reply.status).toBe(503)
    expect(reply.data.result.error?.['']).toEqual(['Service Unavailable.'])
    expect(reply.data.result.initialValue).toMatchObject({ sql })
  })
})

describe('/jobs/alter-jobs', () => {
  it('creates a job that counts its rows and waits as pending; commit changes the data', async () => {
    const jobId = await createJob("ALTER TABLE alter_p.events DELETE WHERE level = 'debug'")
    const pending = await until(jobId, 'pending')
    expect(pending.selected?.job).toMatchObject({
      table: 'alter_p.events',
      kind: 'delete',
      rowsToAlter: 2,
      canCommit: true,
      canCancel: true,
    })
    expect(pending.selected?.verify?.[0]).toMatchObject({ rows_matching_now: 2, verified: false })
    expect(pending.rows.find((row) => row.uuid === jobId)?.sql).toBe(
      "ALTER TABLE alter_p.events DELETE WHERE level = 'debug'",
    )
    // Nothing changed before the commit.
    expect(await queryCount("SELECT count() FROM alter_p.events WHERE level = 'debug'")).toBe(2)

    const committed = asResponse(await act({ intent: 'commit', job: jobId }, `?job=${jobId}&status=pending`))
    expect(committed.status).toBe(302)
    expect(committed.headers.get('Location')).toBe(`/jobs/alter-jobs?job=${jobId}&status=pending`)
    expect(committed.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)

    const done = await until(jobId, 'done')
    expect(done.selected?.job).toMatchObject({ rowsAltered: 2, canCommit: false, canRetry: false })
    expect(done.selected?.verify?.[0]).toMatchObject({ rows_matching_now: 0, verified: true })
    expect(await queryCount("SELECT count() FROM alter_p.events WHERE level = 'debug'")).toBe(0)
    expect(await queryCount('SELECT count() FROM alter_p.events')).toBe(2)
  })

  it('an UPDATE job changes the column on commit', async () => {
    const jobId = await createJob("ALTER TABLE alter_p.events UPDATE message = 'changed' WHERE level = 'error'")
    await until(jobId, 'pending')
    await act({ intent: 'commit', job: jobId })
    await until(jobId, 'done')
    expect(await queryCount("SELECT count() FROM alter_p.events WHERE message = 'changed'")).toBe(1)
  })

  it('cancels a pending job, retries it back to pending, and refuses a commit that is not allowed with a toast', async () => {
    const jobId = await createJob("ALTER TABLE alter_p.events DELETE WHERE level = 'info'")
    await until(jobId, 'pending')
    const canceled = asResponse(await act({ intent: 'cancel', job: jobId }))
    expect(canceled.status).toBe(302)
    const afterCancel = await until(jobId, 'canceled')
    expect(afterCancel.selected?.job).toMatchObject({ canRetry: true, canCommit: false })

    // Committing a canceled job: the cluster says no; the list answers with its message, not an error page.
    const refused = asResponse(await act({ intent: 'commit', job: jobId }))
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe('/jobs/alter-jobs')
    expect(refused.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)

    await act({ intent: 'retry', job: jobId })
    const again = await until(jobId, 'pending')
    expect(again.selected?.job.rowsToAlter).toBe(1)
    expect(await queryCount("SELECT count() FROM alter_p.events WHERE level = 'info'")).toBe(1)
  })

  it('filters by status in the URL and ignores an unknown status', async () => {
    const pending = await list('?status=pending')
    expect(pending.status).toBe('pending')
    expect(pending.rows.length).toBeGreaterThan(0)
    expect(pending.rows.every((row) => row.status === 'pending')).toBe(true)
    const done = await list('?status=done')
    expect(done.rows.length).toBeGreaterThan(0)
    expect(done.rows.every((row) => row.status === 'done')).toBe(true)
    expect((await list('?status=bogus')).status).toBe('')
  })

  it('deletes a job after the ?delete confirmation and closes its open panel', async () => {
    const jobId = await createJob("ALTER TABLE alter_p.events DELETE WHERE level = 'none'")
    await until(jobId, 'pending')
    const confirm = await list(`?delete=${jobId}&job=${jobId}`)
    expect(confirm.deleting).toEqual({ uuid: jobId, name: expect.stringMatching(/^alter_alter_p_events_/) })

    const response = asResponse(await act({ intent: 'delete', job: jobId }, `?delete=${jobId}&job=${jobId}`))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/jobs/alter-jobs')
    const after = await list(`?job=${jobId}`)
    expect(after.selectedMissing).toBe(true)
    expect(after.rows.some((row) => row.uuid === jobId)).toBe(false)
  })

  it('purges only with FORCE typed, then removes every finished job and keeps pending ones', async () => {
    const panel = await list('?purge')
    expect(panel.isPurging).toBe(true)
    expect(panel.finishedCount).toBe(2) // the two done jobs

    for (const confirm of ['', 'force', 'FORCE ']) {
      const refused = unwrap<{ purge: { error?: Record<string, string[]> } }>(
        await act({ intent: 'purge', confirm }, '?purge'),
      )
      expect(refused.status).toBe(400)
      expect(refused.data.purge.error).toEqual({ confirm: [JOB_MESSAGES.forceRequired] })
    }
    expect((await list('?status=done')).rows.length).toBe(2)

    const response = asResponse(await act({ intent: 'purge', confirm: 'FORCE' }, '?purge'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/jobs/alter-jobs')
    const after = await list()
    expect(after.rows.map((row) => row.status)).toEqual(['pending'])
  })

  it('refuses an unknown intent or a row action without a job', async () => {
    expect(unwrap(await act({ intent: 'explode', job: 'x' })).status).toBe(400)
    expect(unwrap(await act({ intent: 'commit' })).status).toBe(400)
  })

  it('ends the session on a 401 and shows other failures with the catalogue message', async () => {
    failWith('/config/v1/orgs/:org/jobs/alter/', 401, { detail: 'Token expired.' }, 'get')
    const thrown = await responseFrom(() => list('?status=done'))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fjobs%2Falter-jobs%3Fstatus%3Ddone')
    failWith('/config/v1/orgs/:org/jobs/alter/', 500, { detail: 'boom' }, 'get')
    const failed = unwrap<{ message: string }>(await returnedOrThrown(() => list()))
    expect(failed.status).toBe(500)
    expect(failed.data.message).toMatch(/^Internal server error/)
  })
})
