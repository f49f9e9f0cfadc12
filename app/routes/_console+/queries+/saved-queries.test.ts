import { http } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, queryCount } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import {
  args,
  asResponse,
  cookieFrom,
  get,
  loginAsAdmin,
  post,
  responseFrom,
  returnedOrThrown,
  unwrap,
} from '#tests/session'
import {
  CANNOT_WRITE_MESSAGE,
  CONSOLE_PROJECT,
  forgetStore,
  HISTORY_OFF_MESSAGE,
  HISTORY_TABLE,
  NOT_SET_UP_MESSAGE,
  SAVED_TABLE,
} from '~/api/saved-queries.server'
import { REVOKED_TABLE } from '~/utils/console-store'
import { sqlString } from '~/utils/sql'
import { SAVED_QUERY_NAME_REQUIRED, SAVED_QUERY_NAME_TOO_LONG, SAVED_QUERY_SQL_REQUIRED } from '~/schemas/saved-query'
import { action as resultAction, loader as resultLoader } from '../result'
import { action as editorAction, loader as editorLoader } from './_index'
import { clearResultCache } from '~/services/query/result-cache.server'
import { action as savedAction, loader as savedLoader } from './saved'

const cluster = useTestCluster()

const PASSWORD = 'a-long-password-1'
let admin: string
const cookies: Record<string, string> = {}

async function loginAs(email: string) {
  const { action } = await import('~/routes/_auth+/login')
  return cookieFrom(
    asResponse(await returnedOrThrown(() => action(args(post('/login', { email, password: PASSWORD }))))),
  )
}

beforeAll(async () => {
  admin = await loginAsAdmin()
  for (const [email, roles] of [
    ['reader@saved.test', ['reader']],
    ['publisher@saved.test', ['publisher']],
  ] as const) {
    await clusterCall('POST', '/config/v1/users/', { email, password: PASSWORD, roles })
    cookies[email.split('@')[0]!] = await loginAs(email)
  }
})

/** Posts the editor's form through its Save button: the SQL, the options (empty ones too, as a browser sends them) and the name. */
function save(fields: Record<string, string>, cookie = admin) {
  return editorAction(
    args(
      post(
        '/queries?index',
        { sql: '', name: '', hdx_query_comment: '', hdx_query_max_rows: '', intent: 'save', ...fields },
        cookie,
      ),
    ),
  )
}

const editor = async (search: string, cookie = admin) => editorLoader(args(get(`/queries${search}`, cookie)))
const saved = async (search = '', cookie = admin) => savedLoader(args(get(`/queries/saved${search}`, cookie)))

/** The id in a save's redirect to `/queries?saved=<id>`. */
async function savedId(run: () => Promise<unknown>): Promise<string> {
  const response = await responseFrom(run)
  expect(response.status).toBe(302)
  const location = response.headers.get('Location')!
  expect(location).toMatch(/^\/queries\?saved=[0-9a-f-]{36}$/)
  expect(response.headers.get('Set-Cookie')).toMatch(/toast/)
  return new URL(location, 'http://console.test').searchParams.get('saved')!
}

/** Records the SQL of every call to the query API while still answering from the local cluster. */
function recordQueryBodies(): string[] {
  const seen: string[] = []
  server.use(
    http.post(`${TEST_CLUSTER_URL}/query`, async ({ request }) => {
      seen.push(await request.clone().text())
      return cluster().handler(request)
    }),
  )
  return seen
}

describe('before anything is saved (no cluster_console project yet)', () => {
  it('the Saved tab says nothing was saved yet, and the editor opens with an empty history', async () => {
    const list = await saved()
    expect(list).toMatchObject({ queries: [], isSetUp: false, error: null })
    const page = await editor('')
    expect(page.history).toEqual([])
    expect(page.historyError).toBe(HISTORY_OFF_MESSAGE)
  })

  it('opening a result link and running a query write nothing and create no project while the history is off (issue 37)', async () => {
    const writes: string[] = []
    server.use(
      http.all(`${TEST_CLUSTER_URL}/*`, ({ request }) => {
        if (request.method !== 'GET' && !new URL(request.url).pathname.startsWith('/query'))
          writes.push(`${request.method} ${new URL(request.url).pathname}`)
        return cluster().handler(request)
      }),
    )
    const link = unwrap(await resultLoader(args(get('/result?sql=SELECT+1+AS+link_only', admin))))
    expect(link.status).toBe(200)
    const ran = await responseFrom(() => resultAction(args(post('/result', { sql: 'SELECT 2 AS ran_here' }, admin))))
    expect(ran.status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // the Run's history write is tried (and finds no store); nothing else, and nothing is created
    expect(writes.filter((write) => write !== 'POST /ingest/event')).toEqual([])
    const projects = await clusterCall<{ results: { name: string }[] }>('GET', '/config/v1/orgs/{org}/projects/')
    expect(projects.results.map((project) => project.name)).not.toContain(CONSOLE_PROJECT)
  })

  it('a user who may not create the project is told so, with everything typed kept, and nothing is created', async () => {
    const { data, status } = unwrap(
      await save({ sql: 'SELECT 1', name: 'Reader try', hdx_query_comment: 'c' }, cookies.reader),
    )
    expect(status).toBe(403)
    expect(data.save).toMatchObject({
      name: 'Reader try',
      sql: 'SELECT 1',
      options: { hdx_query_comment: 'c' },
      formError: NOT_SET_UP_MESSAGE,
    })
    const projects = await clusterCall<{ results: { name: string }[] }>('GET', '/config/v1/orgs/{org}/projects/')
    expect(projects.results.map((project) => project.name)).not.toContain(CONSOLE_PROJECT)
  })
})

describe('save', () => {
  it('two first saves at once set the store up once and both land', async () => {
    const [first, second] = await Promise.all([
      savedId(() => save({ sql: 'SELECT 1 AS one', name: 'First at once' })),
      savedId(() => save({ sql: 'SELECT 2 AS two', name: 'Second at once' })),
    ])
    expect(first).not.toBe(second)
    const project = (
      await clusterCall<{ results: { uuid: string; name: string }[] }>('GET', '/config/v1/orgs/{org}/projects/')
    ).results.filter((p) => p.name === CONSOLE_PROJECT)
    expect(project).toHaveLength(1)
    const tables = await clusterCall<{ results: { name: string }[] }>(
      'GET',
      `/config/v1/orgs/{org}/projects/${project[0]!.uuid}/tables/`,
    )
    expect(tables.results.map((table) => table.name).sort()).toEqual([HISTORY_TABLE, REVOKED_TABLE, SAVED_TABLE])
    // The rows are on the cluster, read through the query API like any table's.
    expect(
      await queryCount(
        `SELECT count() FROM ${CONSOLE_PROJECT}.${SAVED_TABLE} WHERE name IN ('First at once', 'Second at once')`,
      ),
    ).toBe(2)
  })

  it('setting up again (another console, a restart) finds what exists, also when a create loses a race', async () => {
    forgetStore()
    // This console lists no project (another one is creating it at that moment): the create is refused as taken, and
    // the second look finds it.
    let isFirstList = true
    server.use(
      http.get(`${TEST_CLUSTER_URL}/config/v1/orgs/:org/projects/`, ({ request }) => {
        if (!isFirstList) return cluster().handler(request)
        isFirstList = false
        return Response.json({ count: 0, results: [], next: null, previous: null })
      }),
    )
    await savedId(() => save({ sql: 'SELECT 3', name: 'After a restart' }))
    expect(isFirstList).toBe(false)
  })

  it('a valid save redirects to its editor link, which opens the SQL and options without running them', async () => {
    const sql = "SELECT 'saved and opened' AS label"
    const id = await savedId(() =>
      save({
        sql,
        name: '  Label check  ',
        hdx_query_comment: 'kept option',
        hdx_query_max_rows: '',
        visibility: 'org',
      }),
    )
    const seen = recordQueryBodies()
    const page = await editor(`?saved=${id}`)
    expect(page.sql).toBe(sql)
    expect(page.options).toEqual({ hdx_query_comment: 'kept option' })
    expect(page.saved).toEqual({ id, name: 'Label check', owner: 'admin@example.com', isShared: true })
    expect(page.savedError).toBeNull()
    // Only the console's own reads ran, never the saved statement.
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.some((body) => body.includes('saved and opened'))).toBe(false)
  })

  it('each refusal comes back with everything typed and the error at its field', async () => {
    const missing = unwrap(await save({ sql: 'SELECT 1', name: '   ', hdx_query_comment: 'typed' }))
    expect(missing.status).toBe(400)
    expect(missing.data.save).toMatchObject({
      name: '   ',
      sql: 'SELECT 1',
      options: { hdx_query_comment: 'typed' },
      fieldErrors: { name: SAVED_QUERY_NAME_REQUIRED },
    })

    const long = unwrap(await save({ sql: 'SELECT 1', name: 'x'.repeat(101) }))
    expect(long.status).toBe(400)
    expect(long.data.save).toMatchObject({ name: 'x'.repeat(101), fieldErrors: { name: SAVED_QUERY_NAME_TOO_LONG } })

    const noSql = unwrap(await save({ sql: '  ', name: 'No SQL', hdx_query_comment: 'typed' }))
    expect(noSql.status).toBe(400)
    expect(noSql.data.save).toMatchObject({
      name: 'No SQL',
      options: { hdx_query_comment: 'typed' },
      fieldErrors: { sql: SAVED_QUERY_SQL_REQUIRED },
    })

    const badOption = unwrap(await save({ sql: 'SELECT 1', name: 'Bad option', hdx_query_max_rows: 'ten' }))
    expect(badOption.status).toBe(400)
    expect(badOption.data.save).toMatchObject({
      name: 'Bad option',
      sql: 'SELECT 1',
      optionErrors: { hdx_query_max_rows: 'Max rows must be a whole number' },
      formError: 'Not saved: correct the options marked above.',
    })
    const { queries } = await saved()
    expect(queries.map((query) => query.name)).not.toEqual(expect.arrayContaining(['No SQL', 'Bad option']))
  })

  it('saving again under one of your names updates that query; another user with the same name gets their own', async () => {
    const id = await savedId(() => save({ sql: 'SELECT 10', name: 'Daily check' }))
    const again = await savedId(() => save({ sql: 'SELECT 11', name: 'Daily check' }))
    expect(again).toBe(id)
    const theirs = await savedId(() =>
      save({ sql: 'SELECT 12', name: 'Daily check', visibility: 'org' }, cookies.publisher),
    )
    expect(theirs).not.toBe(id)
    const { queries } = await saved('?q=daily')
    expect(queries.map((query) => [query.name, query.sql, query.owner])).toEqual(
      expect.arrayContaining([
        ['Daily check', 'SELECT 11', 'admin@example.com'],
        ['Daily check', 'SELECT 12', 'publisher@saved.test'],
      ]),
    )
    expect(queries).toHaveLength(2)
  })

  it('keeps names and SQL with quotes and backslashes exactly', async () => {
    const sql = "SELECT 'it''s' AS a, '\\\\' AS b -- it's"
    const id = await savedId(() => save({ sql, name: "O'Brien's \\ query" }))
    const page = await editor(`?saved=${id}`)
    expect(page.sql).toBe(sql)
    expect(page.saved?.name).toBe("O'Brien's \\ query")
    expect(sqlString("a'b\\c")).toBe("'a\\'b\\\\c'")
  })
})

describe('the Saved tab', () => {
  it("lists the org's saved queries with owner and time, filters by name in the URL, and reads them from the cluster", async () => {
    forgetStore()
    const all = await saved()
    expect(all.isSetUp).toBe(true)
    const label = all.queries.find((query) => query.name === 'Label check')
    expect(label).toMatchObject({ owner: 'admin@example.com', options: 'hdx_query_comment=kept+option' })
    expect(label!.updatedAt).toBeGreaterThan(Date.now() - 120_000)
    const filtered = await saved('?q=AT+ONCE')
    expect(filtered.filter).toBe('AT ONCE')
    expect(filtered.queries.map((query) => query.name)).toEqual(['First at once', 'Second at once'])
    const none = await saved('?q=nothing-like-this')
    expect(none.queries).toEqual([])
  })

  it('delete: ?delete=<id> opens the confirm step, the POST deletes it for everyone, and it stays deleted on the cluster', async () => {
    const id = await savedId(() => save({ sql: 'SELECT 99', name: 'Doomed', visibility: 'org' }))
    const step = await saved(`?delete=${id}&q=zzz`)
    expect(step.deleting).toMatchObject({ id, name: 'Doomed' })
    // only its owner deletes it (decision 105): another user sees it shared, with no delete step, and is refused
    expect((await saved(`?delete=${id}`, cookies.publisher)).deleting).toBeNull()
    const refused = await responseFrom(() =>
      savedAction(args(post('/queries/saved', { intent: 'delete-saved-query', id }, cookies.publisher))),
    )
    expect(refused.status).toBe(302)
    expect((await saved('', cookies.publisher)).queries.map((query) => query.id)).toContain(id)
    const response = await responseFrom(() =>
      savedAction(args(post('/queries/saved?q=zzz', { intent: 'delete-saved-query', id }, admin))),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/queries/saved?q=zzz')
    expect((await saved()).queries.map((query) => query.id)).not.toContain(id)
    forgetStore()
    expect((await saved()).queries.map((query) => query.id)).not.toContain(id)
    const opened = await editor(`?saved=${id}`)
    expect(opened.saved).toBeNull()
    expect(opened.savedError).toMatch(/not found/)
    const again = await responseFrom(() =>
      savedAction(args(post('/queries/saved', { intent: 'delete-saved-query', id }, admin))),
    )
    expect(again.status).toBe(302)
  })

  it('a reader can list and open saved queries but is told saving needs insert_sql', async () => {
    const list = await saved('', cookies.reader)
    expect(list.error).toBeNull()
    expect(list.queries.map((query) => query.name)).toContain('Label check')
    const { data, status } = unwrap(await save({ sql: 'SELECT 5', name: 'Reader again' }, cookies.reader))
    expect(status).toBe(403)
    expect(data.save).toMatchObject({ name: 'Reader again', sql: 'SELECT 5', formError: CANNOT_WRITE_MESSAGE })
  })
})

describe('history per user', () => {
  it('each UI run is kept for its user (success or engine error, not option errors), newest first; no other user sees it', async () => {
    clearResultCache()
    // the Run form's POST records the run and redirects to the run's link (issue 37)
    const run = async (fields: Record<string, string>, cookie = admin) => {
      const response = await responseFrom(() => resultAction(args(post('/result', fields, cookie))))
      expect(response.status).toBe(302)
      return response.headers.get('Location')!
    }
    const location = await run({ sql: 'SELECT 4242 AS history_check', hdx_query_comment: 'from history' })
    expect(location).toMatch(/^\/result\?sql=SELECT\+4242.*&hdx_query_comment=from\+history&run=[0-9a-f-]{36}#result$/)
    await run({ sql: 'SELECT history_broken FROM' })
    await run({ sql: 'SELECT 7 AS refused_option', hdx_query_max_rows: 'ten' })
    // opening the link again (a GET) records nothing more
    await resultLoader(args(get(location.replace('#result', ''), admin)))
    const page = await editor('')
    const ok = page.history.find((entry) => entry.sql.includes('history_check'))!
    expect(ok).toMatchObject({ options: 'hdx_query_comment=from+history', rows: 1, error: '' })
    const broken = page.history.find((entry) => entry.sql === 'SELECT history_broken FROM')!
    expect(broken.error).toMatch(/^Code: \d+\. DB::Exception: /)
    expect(page.history.indexOf(broken)).toBeLessThan(page.history.indexOf(ok))
    expect(page.history.some((entry) => entry.sql.includes('refused_option'))).toBe(false)

    expect(page.history.filter((entry) => entry.sql.includes('history_check'))).toHaveLength(1)

    // Kept on the cluster before the Run's redirect: a console that never saw the runs (another
    // replica: no rows of its own) lists them at once.
    forgetStore()
    const fresh = await editor('?data=SELECT+1')
    const sqls = fresh.history.map((entry) => entry.sql)
    expect(sqls).toContain('SELECT history_broken FROM')
    expect(sqls).toContain('SELECT 4242 AS history_check')

    const theirs = await editor('', cookies.publisher)
    expect(theirs.history.some((entry) => entry.sql.includes('history'))).toBe(false)
  })

  it("a reader's runs are not kept (no insert_sql) but neither the result nor the editor breaks", async () => {
    const run = await responseFrom(() => resultAction(args(post('/result', { sql: 'SELECT 31337' }, cookies.reader))))
    expect(run.status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const page = await editor('', cookies.reader)
    expect(page.history).toEqual([])
    expect(page.historyError).toBeNull()
  })
})

describe('a refused save keeps what was typed', () => {
  it('shows the options exactly as typed, spaces and all (a fuzzed submission found them trimmed)', async () => {
    const { data, status } = unwrap(
      await save({ sql: 'SELECT 1', name: '', max_bytes_before_external_sort: ' 12 ', hdx_query_max_rows: 'x ' }),
    )
    expect(status).toBe(400)
    expect(data.save.options).toMatchObject({ max_bytes_before_external_sort: ' 12 ', hdx_query_max_rows: 'x ' })
  })
})
