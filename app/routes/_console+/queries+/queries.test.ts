import type { ShouldRevalidateFunctionArgs } from '@remix-run/react'
import { http } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { clusterCall, waitFor } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { dropConnection, failWith, server, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom, unwrap } from '#tests/session'
import { loader as csvLoader } from '../../resources+/query-csv'
import { action as resultAction, loader as resultLoader, shouldRevalidate } from '../result'
import { MAX_RUN_LINK } from '~/services/query/result-page.server'
import { loader as editorLoader } from './_index'
import { editorLink, MAX_ROWS_MESSAGE, NO_SQL_MESSAGE, QUERY_OPTIONS } from '~/utils/query-options'
import { loader as referenceLoader } from './reference'
import { clearResultCache, RESULT_CACHE_LIMITS, resultCacheSize } from '~/services/query/result-cache.server'
import { cellOf, RESULT_PAGE_SIZE } from '~/utils/result-cells'
import { loader as rowsLoader } from '../../resources+/query-rows'
import { loader as functionsLoader } from '../../resources+/query-functions'
import { loader as progressLoader } from '../../resources+/query-progress'
import { loader as insightsLoader } from './insights'
import { action as cancelAction } from '../../resources+/query-cancel'
import { completionsOf } from '~/utils/schema-tree'

const cluster = useTestCluster()

let cookie: string
let projectId: string
let tableId: string

beforeAll(async () => {
  cookie = await loginAsAdmin()
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'weblogs' })
  const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: 'access',
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: 'access_json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
        { name: 'status', datatype: { type: 'uint32' } },
        { name: 'path', datatype: { type: 'string' } },
      ],
    },
  })
  projectId = project.uuid
  tableId = table.uuid
})

/** Runs /result for `search` and returns its data and HTTP status. */
async function result(search: Record<string, string>) {
  return unwrap(await resultLoader(args(get(`/result?${new URLSearchParams(search)}`, cookie))))
}

/** The cluster's query log row of the latest query whose text holds `fragment`, once it has ended. */
function endedRun(fragment: string) {
  return waitFor(async () => {
    const text = await clusterCall<string>(
      'POST',
      '/query',
      `SELECT active, error FROM hdx.active_queries WHERE position(query, '${fragment}') > 0 ` +
        `AND position(query, 'active_queries') = 0 ORDER BY query_start DESC LIMIT 1 FORMAT JSONEachRow`,
    )
    const parsed = typeof text === 'string' ? (text.trim() ? JSON.parse(text) : null) : text
    return parsed && parsed.active === 0 ? (parsed as { active: number; error: string }) : null
  }, `the end of "${fragment}" in hdx.active_queries`)
}

/** Records the URLs of the query calls while still answering them from the local cluster. */
function recordQueryCalls(): string[] {
  const seen: string[] = []
  server.use(
    http.post(`${TEST_CLUSTER_URL}/query`, ({ request }) => {
      // the user's queries: not the console's own reads (the shared revocations, decision 080)
      if (new URL(request.url).searchParams.get('hdx_query_label') !== 'cluster-console') seen.push(request.url)
      return cluster().handler(request)
    }),
  )
  return seen
}

describe('/queries (editor)', () => {
  it('needs a session', async () => {
    const thrown = await responseFrom(() => editorLoader(args(get('/queries'))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fqueries')
  })

  it('lists the tables for the picker; table_id opens the editor on that table, data fills it as is', async () => {
    const picked = await editorLoader(args(get(`/queries?table_id=${tableId}`, cookie)))
    const access = { uuid: tableId, projectId, project: 'weblogs', name: 'access' }
    expect(picked.picker).toMatchObject({ q: '', selected: access, hasMore: false })
    expect(picked.picker.choices).toContainEqual(access)
    expect(picked.sql).toBe('SELECT * FROM weblogs.access LIMIT 100')
    const filled = await editorLoader(
      args(get(`/queries?data=${encodeURIComponent('SELECT 42')}&hdx_query_max_rows=7`, cookie)),
    )
    expect(filled.sql).toBe('SELECT 42')
    expect(filled.options).toEqual({ hdx_query_max_rows: '7' })
    const empty = await editorLoader(args(get('/queries', cookie)))
    expect(empty.sql).toBe('')
  })

  it('gives the schema tree: projects, tables and their columns with types, custom functions; engine functions separately', async () => {
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/functions/`, {
      name: 'tree_fn',
      sql: '(x) -> x + 1',
    })
    // the first paint has the projects only: a project and a table load when opened (issue 33)
    const first = await editorLoader(args(get('/queries', cookie)))
    expect(first.schema?.projects).toContainEqual({ uuid: projectId, name: 'weblogs' })
    expect(first.schema?.functions).toEqual([])
    const { schema } = await editorLoader(
      args(get(`/queries?schema_project=${projectId}&schema_table=${tableId}`, cookie)),
    )
    expect(schema).toMatchObject({ openProject: projectId, openTable: tableId })
    expect(schema?.projects).toContainEqual({
      uuid: projectId,
      name: 'weblogs',
      tableCount: 1,
      tables: [
        {
          uuid: tableId,
          name: 'access',
          columns: [
            { name: 'timestamp', type: 'datetime' },
            { name: 'status', type: 'uint32' },
            { name: 'path', type: 'string' },
          ],
        },
      ],
    })
    expect(schema?.functions).toContainEqual({ project: 'weblogs', name: 'tree_fn' })
    const completions = completionsOf(schema!, ['toStartOfHour'])
    expect(completions).toContainEqual({ value: 'weblogs.access', meta: 'table', score: 950 })
    expect(completions).toContainEqual({ value: 'access', meta: 'table in weblogs', score: 950, scope: 'weblogs' })
    expect(completions).toContainEqual({ value: 'status', caption: 'status', meta: 'uint32 · access', score: 1000 })
    expect(completions).toContainEqual({
      value: 'tree_fn(',
      caption: 'tree_fn',
      meta: 'function · weblogs',
      score: 800,
    })
    expect(completions).toContainEqual({
      value: 'toStartOfHour(',
      caption: 'toStartOfHour',
      meta: 'function',
      score: 500,
    })
    const functions = await functionsLoader(args(get('/resources/query-functions', cookie)))
    const names = (await functions.json()) as string[]
    expect(names).toEqual(expect.arrayContaining(['count', 'toStartOfHour', 'dictGet']))
  })
})

describe('/result', () => {
  beforeEach(() => clearResultCache())

  it('runs a good query: columns with their types, rows, and the statistics of x-hdx-query-stats', async () => {
    const { data, status } = await result({
      sql: 'SELECT number AS n, toString(number) AS s, NULL AS nothing FROM numbers(3)',
    })
    expect(status).toBe(200)
    const outcome = data.outcome!
    expect(outcome.kind).toBe('rows')
    if (outcome.kind !== 'rows') return
    expect(outcome.columns).toEqual([
      { name: 'n', type: 'UInt64' },
      { name: 's', type: 'String' },
      { name: 'nothing', type: 'Nullable(Nothing)' },
    ])
    expect(outcome.rows).toEqual([
      ['0', '0', null],
      ['1', '1', null],
      ['2', '2', null],
    ])
    expect(outcome.isCapped).toBe(false)
    expect(Object.keys(outcome.stats.cluster)).toEqual(
      expect.arrayContaining(['exec_time', 'rows_read', 'bytes_read', 'num_partitions']),
    )
    expect(outcome.stats.cluster.rows_read).toBe('3')
    expect(outcome.stats.queryId).toMatch(/[0-9a-f-]{36}/)
    expect(outcome.stats.rowCount).toBe(3)
  })

  it("runs the picked table's template when the URL has only table_id (the run waits for the picker)", async () => {
    const { data, status } = await result({ table_id: tableId })
    expect(status).toBe(200)
    expect(data.sql).toBe('SELECT * FROM weblogs.access LIMIT 100')
    expect(data.outcome?.kind).toBe('rows')
    if (data.outcome?.kind !== 'rows') return
    expect(data.outcome.columns.map((column) => column.name)).toEqual(expect.arrayContaining(['status', 'path']))
  })

  it("queries a project's table by project.table", async () => {
    const { data } = await result({ sql: 'SELECT count() AS c FROM weblogs.access' })
    expect(data.outcome).toMatchObject({ kind: 'rows', columns: [{ name: 'c', type: 'UInt64' }], rows: [['0']] })
  })

  it('a Run too long for a link runs in the POST itself and keeps everything typed; a short one redirects', async () => {
    const sql = `SELECT count() AS c FROM weblogs.access WHERE status NOT IN (${Array.from({ length: 2000 }, (_, i) => i + 600).join(',')})`
    expect(`/result?${new URLSearchParams({ sql })}`.length).toBeGreaterThan(MAX_RUN_LINK)
    const fields = { sql, hdx_query_max_rows: '7', name: 'Kept name' }
    const ran = unwrap(await resultAction(args(post('/result', fields, cookie))))
    expect(ran.status).toBe(200)
    expect(ran.data).toMatchObject({ sql, linkTooLong: true, saveName: 'Kept name', outcome: { kind: 'rows' } })
    expect((ran.data as { options: Record<string, string> }).options).toMatchObject({ hdx_query_max_rows: '7' })
    // an option in error is shown at its field, with the SQL kept, and nothing runs
    const refused = unwrap(await resultAction(args(post('/result', { ...fields, hdx_query_max_rows: 'lots' }, cookie))))
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ sql, outcome: null })
    expect(Object.keys((refused.data as { optionErrors: object }).optionErrors)).toEqual(['hdx_query_max_rows'])
    const short = await responseFrom(() => resultAction(args(post('/result', { sql: 'SELECT 1', name: 'n' }, cookie))))
    expect(short.status).toBe(302)
    expect(short.headers.get('Location')).toMatch(/^\/result\?sql=SELECT\+1&name=n&run=[^&#]+#result$/)
  })

  it('an explicit Run always runs: rows ingested between two Runs of one SQL show; the pages of a run reuse it (issue 37)', async () => {
    const sql = 'SELECT count() AS c FROM weblogs.access'
    const runOnce = async () => {
      const response = await responseFrom(() => resultAction(args(post('/result', { sql }, cookie))))
      expect(response.status).toBe(302)
      const location = response.headers.get('Location')!.replace('#result', '')
      return unwrap(await resultLoader(args(get(location, cookie))))
    }
    const before = await runOnce()
    const count = (page: typeof before) => (page.data.outcome?.kind === 'rows' ? page.data.outcome.rows[0]![0] : null)
    const start = Number(count(before))
    await clusterCall(
      'POST',
      '/ingest/event',
      JSON.stringify([{ timestamp: '2026-01-01 00:00:00', status: 200, path: '/a' }]),
      {
        'x-hdx-table': 'weblogs.access',
        'x-hdx-transform': 'access_json',
      },
    )
    const seen = recordQueryCalls()
    const after = await runOnce()
    expect(Number(count(after))).toBe(start + 1)
    expect(seen).toHaveLength(1)
    // the same run's Statistics tab is read from it, not run again
    await result({ sql, tab: 'statistics', run: after.data.runId })
    expect(seen).toHaveLength(1)
    // a link opened without a run runs now
    const opened = await result({ sql })
    expect(Number(count(opened))).toBe(start + 1)
    expect(seen).toHaveLength(2)
  })

  it("shows the engine's 400 with the SQL kept and nothing run twice", async () => {
    const sql = 'SELECT nonsense FROM'
    const { data, status } = await result({ sql, hdx_query_comment: 'kept too' })
    expect(status).toBe(400)
    expect(data.sql).toBe(sql)
    expect(data.options).toEqual({ hdx_query_comment: 'kept too' })
    expect(data.outcome).toMatchObject({ kind: 'error', status: 400 })
    expect(data.outcome?.kind === 'error' && data.outcome.message).toMatch(/^Code: 62\. DB::Exception: .*SYNTAX_ERROR/s)
  })

  it('an empty result is an empty row list (the page says "Nothing was found for the current query")', async () => {
    const { data, status } = await result({ sql: 'SELECT 1 AS one WHERE 0' })
    expect(status).toBe(200)
    expect(data.outcome).toMatchObject({ kind: 'rows', rows: [], columns: [{ name: 'one', type: 'UInt8' }] })
  })

  it('caps the result at 10,000 rows and says so, sending hdx_query_max_result_rows=10000', async () => {
    const seen = recordQueryCalls()
    const { data } = await result({ sql: 'SELECT number FROM numbers(200000)' })
    expect(data.outcome?.kind).toBe('rows')
    if (data.outcome?.kind !== 'rows') return
    expect(data.outcome.rowCount).toBe(10_000)
    expect(data.outcome.rows).toHaveLength(RESULT_PAGE_SIZE)
    expect(data.outcome.isCapped).toBe(true)
    const params = new URL(seen[0]!).searchParams
    expect(params.get('hdx_query_max_result_rows')).toBe('10000')
    expect(params.get('hdx_query_output_format')).toBe('JSONCompactEachRowWithNamesAndTypes')

    const exact = await result({ sql: 'SELECT number FROM numbers(500)' })
    expect(exact.data.outcome).toMatchObject({ kind: 'rows', isCapped: false })
  })

  it('refuses max result rows over 10,000 with the spec message, and bad numbers at their option', async () => {
    const seen = recordQueryCalls()
    const { data, status } = await result({
      sql: 'SELECT 1',
      hdx_query_max_result_rows: '20000',
      hdx_query_max_rows: 'ten',
      hdx_query_debug: 'maybe',
    })
    expect(status).toBe(400)
    expect(data.optionErrors).toEqual({
      hdx_query_max_result_rows: MAX_ROWS_MESSAGE,
      hdx_query_max_rows: 'Max rows must be a whole number',
      hdx_query_debug: 'Debug must be true or false',
    })
    expect(data.outcome).toBeNull()
    expect(seen).toEqual([])
    const blank = await result({ sql: '   ' })
    expect(blank.status).toBe(400)
    expect(blank.data.sqlError).toBe(NO_SQL_MESSAGE)
  })

  it('sends only the options that are filled, as URL parameters, and the cluster applies them', async () => {
    const seen = recordQueryCalls()
    const { data } = await result({
      sql: 'SELECT number FROM numbers(100000)',
      hdx_query_max_rows: '10',
      hdx_query_comment: 'from the console',
      hdx_query_label: '',
      hdx_query_debug: 'true',
    })
    const params = new URL(seen[0]!).searchParams
    expect(params.get('hdx_query_max_rows')).toBe('10')
    expect(params.get('hdx_query_comment')).toBe('from the console')
    expect(params.get('hdx_query_debug')).toBe('true')
    expect(params.has('hdx_query_label')).toBe(false)
    // hdx_query_max_rows becomes the engine's max_rows_to_read: the circuit breaker fires.
    expect(data.outcome).toMatchObject({ kind: 'error', status: 400 })
    expect(data.outcome?.kind === 'error' && data.outcome.message).toMatch(/TOO_MANY_ROWS|Limit for rows/)

    // A max result rows of the user's own is a circuit breaker too: no silent cut.
    const own = await result({ sql: 'SELECT number FROM numbers(100)', hdx_query_max_result_rows: '50' })
    expect(own.data.outcome?.kind).toBe('error')
    expect(new URL(seen.at(-1)!).searchParams.get('hdx_query_max_result_rows')).toBe('50')
  })

  it('shows another output format as text', async () => {
    const { data } = await result({
      sql: 'SELECT number AS n FROM numbers(2)',
      hdx_query_output_format: 'CSVWithNames',
    })
    expect(data.outcome).toMatchObject({ kind: 'text', format: 'CSVWithNames', text: '"n"\n0\n1\n' })
  })

  it('the Analysis tab shows EXPLAIN and EXPLAIN PIPELINE of the same SQL, and their errors', async () => {
    const seen = recordQueryCalls()
    const { data } = await result({ sql: 'SELECT sum(number) FROM numbers(10)', tab: 'analysis' })
    expect(data.outcome).toBeNull()
    expect(data.analysis).toHaveLength(2)
    const [plan, pipeline] = data.analysis!
    expect(plan).toMatchObject({ title: 'Plan', statement: 'EXPLAIN SELECT sum(number) FROM numbers(10)' })
    expect('text' in plan! && plan.text).toMatch(/Expression|Aggregating/)
    expect('text' in pipeline! && pipeline.text).toMatch(/Aggregating|Transform/)
    expect(seen.every((url) => new URL(url).searchParams.get('hdx_query_output_format') === 'TSVRaw')).toBe(true)

    const broken = await result({ sql: 'SELEC 1', tab: 'analysis' })
    expect(broken.data.analysis?.every((part) => 'error' in part && /SYNTAX_ERROR/.test(part.error))).toBe(true)
  })

  it("shows the catalogue's message when the cluster fails, and sends a 401 to login", async () => {
    failWith('/query', 500, { detail: 'boom' }, 'post')
    const failed = await result({ sql: 'SELECT 1' })
    expect(failed.status).toBe(500)
    expect(failed.data.outcome).toMatchObject({
      kind: 'error',
      status: 500,
      message: expect.stringMatching(/^Internal server error/),
    })
    expect(failed.data.sql).toBe('SELECT 1')

    dropConnection('/query', 'post')
    const dropped = await result({ sql: 'SELECT 1' })
    expect(dropped.data.outcome).toMatchObject({
      kind: 'error',
      status: 503,
      message: "API unavailable at the moment, we'll be back shortly.",
    })

    failWith('/query', 401, { detail: 'expired' }, 'post')
    const thrown = await responseFrom(() => resultLoader(args(get('/result?sql=SELECT+1', cookie))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe(`/login?prevUrl=${encodeURIComponent('/result?sql=SELECT+1')}`)
  })

  it('keeps the loaded run when only the tab changes between Results and Statistics', () => {
    const at = (search: string) => new URL(`http://console.test/result?${search}`)
    const check = (from: string, to: string, formMethod?: ShouldRevalidateFunctionArgs['formMethod']) =>
      shouldRevalidate({
        currentParams: {},
        nextParams: {},
        defaultShouldRevalidate: true,
        currentUrl: at(from),
        nextUrl: at(to),
        formMethod,
      })
    expect(check('sql=SELECT+1', 'sql=SELECT+1&tab=statistics')).toBe(false)
    expect(check('sql=SELECT+1&tab=statistics', 'sql=SELECT+1')).toBe(false)
    expect(check('sql=SELECT+1', 'sql=SELECT+1&tab=analysis')).toBe(true)
    expect(check('sql=SELECT+1', 'sql=SELECT+2&tab=statistics')).toBe(true)
    expect(check('sql=SELECT+1', 'sql=SELECT+1', 'GET')).toBe(true)
  })
})

describe('big results: pages, the result cache and the rows stream', () => {
  beforeEach(() => clearResultCache())
  const sql = 'SELECT number AS n, toString(number) AS s FROM numbers(12000)'
  const rowsOf = async (response: Response) =>
    (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown[])

  it("shows the run's progress while it waits, and Cancel stops the query on the cluster", async () => {
    const sql = 'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) % 7 = 1'
    const search = new URLSearchParams({ sql })
    const started = Date.now()
    const running = resultLoader(args(get(`/result?${search}`, cookie)))
    const progress = await waitFor(async () => {
      const response = (await progressLoader(args(get(`/resources/query-progress?${search}`, cookie)))) as Response
      const body = (await response.json()) as { state: string; elapsedMs?: number; rowsRead?: number | null }
      return body.state === 'running' && Number(body.rowsRead) > 0 ? body : null
    }, 'rows read so far')
    expect(progress.elapsedMs).toBeGreaterThan(0)
    const canceled = await responseFrom(() => cancelAction(args(post('/resources/query-cancel', { sql }, cookie))))
    expect(canceled.status).toBe(302)
    expect(canceled.headers.get('Location')).toBe(`/queries?${new URLSearchParams({ data: sql })}`)
    const { data, status } = unwrap(await running)
    expect(status).toBe(409)
    expect(data.outcome).toMatchObject({ kind: 'error', message: expect.stringContaining('canceled') })
    // the cluster's own log says the statement ended, canceled, long before it could have finished
    const row = await endedRun('sipHash64(number) % 7 = 1')
    expect(row.error).toContain('QUERY_WAS_CANCELLED')
    expect(Date.now() - started).toBeLessThan(30_000)
    // nothing left to cancel: the editor says so, the SQL kept
    const again = await responseFrom(() => cancelAction(args(post('/resources/query-cancel', { sql }, cookie))))
    expect(again.headers.get('Location')).toBe(`/queries?${new URLSearchParams({ data: sql })}`)
  }, 60_000)

  it('a run whose page goes away stops on the cluster too (without scripts, leaving the page is how Cancel reaches it)', async () => {
    const sql = 'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) % 5 = 2'
    const search = new URLSearchParams({ sql })
    const controller = new AbortController()
    const request = new Request(get(`/result?${search}`, cookie), { signal: controller.signal })
    const running = resultLoader(args(request)).catch((error: unknown) => error)
    await waitFor(async () => {
      const response = (await progressLoader(args(get(`/resources/query-progress?${search}`, cookie)))) as Response
      return ((await response.json()) as { state: string }).state === 'running' ? true : null
    }, 'the run to start')
    controller.abort()
    await running
    const canceled = await responseFrom(() => cancelAction(args(post('/resources/query-cancel', { sql }, cookie))))
    expect(canceled.headers.get('Location')).toBe(`/queries?${new URLSearchParams({ data: sql })}`)
    const row = await endedRun('sipHash64(number) % 5 = 2')
    expect(row.error).toContain('QUERY_WAS_CANCELLED')
  }, 60_000)

  it("Insights lists the slowest and the failed queries of the last hour from the cluster's log, each opening in the editor", async () => {
    await result({ sql: 'SELECT sleep(1.5) AS slow_one' })
    await result({ sql: 'SELECT 1 AS quick_one' })
    await result({ sql: 'SELECT no_such_column_here FROM system.one' })
    const { data } = unwrap(await insightsLoader(args(get('/queries/insights', cookie))))
    const { insights } = data
    expect(insights.error).toBeNull()
    const slow = insights.slowest.find((q) => q.query.includes('slow_one'))!
    expect(slow.execMs).toBeGreaterThanOrEqual(1400)
    expect(insights.slowest.findIndex((q) => q.query.includes('slow_one'))).toBeLessThan(
      insights.slowest.findIndex((q) => q.query.includes('quick_one')),
    )
    expect(insights.slowest.some((q) => q.query.includes('no_such_column_here'))).toBe(false)
    const failed = insights.failed.find((q) => q.query.includes('no_such_column_here'))!
    expect(failed.error).toMatch(/UNKNOWN_IDENTIFIER|Missing columns|no_such_column_here/)
    expect(failed.user).toBe('admin@example.com')
    expect(editorLink(failed.query, '')).toBe(
      `/queries?${new URLSearchParams({ data: 'SELECT no_such_column_here FROM system.one' })}`,
    )
    // the console's own reads of the log are not listed
    expect(insights.slowest.some((q) => q.query.includes('active_queries'))).toBe(false)
    expect(insights.oldest).not.toBeNull()
    // only my queries: another user's are left out
    const mine = unwrap(await insightsLoader(args(get('/queries/insights?mine=1', cookie)))).data
    expect(mine.isMine).toBe(true)
    expect(mine.insights.slowest.every((q) => q.user === 'admin@example.com')).toBe(true)
  }, 30_000)

  it('returns one page of 500 rows, and the next page comes from the cache without running the query again', async () => {
    const seen = recordQueryCalls()
    const first = await result({ sql })
    expect(first.data.outcome).toMatchObject({
      kind: 'rows',
      offset: 0,
      rowCount: 10_000,
      pageSize: 500,
      isCapped: true,
    })
    expect(first.data.outcome?.kind === 'rows' && first.data.outcome.rows[0]).toEqual(['0', '0'])
    // the run's other pages carry its id (the page's links do)
    const run = first.data.runId
    const third = await result({ sql, page: '3', run })
    expect(third.data.outcome).toMatchObject({ kind: 'rows', offset: 1000, rowCount: 10_000 })
    expect(third.data.outcome?.kind === 'rows' && third.data.outcome.rows[0]).toEqual(['1000', '1000'])
    // A page past the end is the last page.
    const past = await result({ sql, page: '999', run })
    expect(past.data.outcome).toMatchObject({ kind: 'rows', offset: 9500 })
    expect(seen).toHaveLength(1)
    // Another query (or other options) is another entry.
    await result({ sql, hdx_query_comment: 'other' })
    expect(seen).toHaveLength(2)
    expect(resultCacheSize().entries).toBe(2)
  })

  it('the rows stream gives the rows after the first page from the cache, one JSON array a line', async () => {
    const seen = recordQueryCalls()
    const { runId } = (await result({ sql })).data
    const response = await rowsLoader(
      args(get(`/resources/query-rows?${new URLSearchParams({ sql, run: runId, from: '500' })}`, cookie)),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/x-ndjson/)
    expect(response.headers.get('X-Row-Count')).toBe('10000')
    const rows = await rowsOf(response)
    expect(rows).toHaveLength(9500)
    expect(rows[0]).toEqual(['500', '500'])
    expect(rows.at(-1)).toEqual(['9999', '9999'])
    expect(seen).toHaveLength(1)
  })

  it("without a cached run, the cluster's answer is piped through from the asked row, still capped at 10,000", async () => {
    const seen = recordQueryCalls()
    const response = await rowsLoader(
      args(get(`/resources/query-rows?${new URLSearchParams({ sql, from: '9990' })}`, cookie)),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Row-Count')).toBeNull()
    const rows = await rowsOf(response)
    expect(rows).toHaveLength(10)
    expect(rows[0]).toEqual(['9990', '9990'])
    expect(new URL(seen[0]!).searchParams.get('hdx_query_output_format')).toBe('JSONCompactEachRow')
    const bad = await rowsLoader(
      args(get(`/resources/query-rows?${new URLSearchParams({ sql: 'SELECT 1 FROM' })}`, cookie)),
    )
    expect(bad.status).toBe(400)
    expect(await bad.text()).toMatch(/^Code: 62/)
    const change = await rowsLoader(
      args(
        get(
          `/resources/query-rows?${new URLSearchParams({ sql: 'ALTER TABLE weblogs.access DELETE WHERE 1' })}`,
          cookie,
        ),
      ),
    )
    expect(change.status).toBe(400)
  })

  it('reads rows of every kind of column, whatever the chunks the answer arrives in', async () => {
    const wide = [
      "SELECT number AS id, toDateTime('2026-01-01 00:00:00') + number AS ts, concat('/path/', toString(number % 977)) AS path,",
      "  ['GET', 'POST', 'PUT'][number % 3 + 1] AS method, if(number % 7 = 0, NULL, 'a\\nb " +
        '"q" é\') AS agent, [number, 2] AS list, number * 1.5 AS score',
      'FROM numbers(3000)',
    ].join('\n')
    const { data } = await result({ sql: wide })
    expect(data.outcome).toMatchObject({ kind: 'rows', rowCount: 3000, isCapped: false })
    if (data.outcome?.kind !== 'rows') return
    expect(data.outcome.rows[0]).toEqual(['0', '2026-01-01 00:00:00', '/path/0', 'GET', null, '["0","2"]', '0'])
    expect(data.outcome.rows[1]).toEqual([
      '1',
      '2026-01-01 00:00:01',
      '/path/1',
      'POST',
      'a\nb "q" é',
      '["1","2"]',
      '1.5',
    ])
    // The stream from the cache sends the cluster's lines as they came; the grid makes cells of them
    // with the same function, so the rows it shows after the first page read as the page's do.
    const streamed = await rowsOf(
      (await rowsLoader(
        args(get(`/resources/query-rows?${new URLSearchParams({ sql: wide, from: '500' })}`, cookie)),
      )) as Response,
    )
    expect(streamed).toHaveLength(2500)
    expect(streamed[1]).toEqual(['501', '2026-01-01 00:08:21', '/path/501', 'GET', 'a\nb "q" é', ['501', '2'], 751.5])
    const page2 = await result({ sql: wide, page: '2' })
    if (page2.data.outcome?.kind !== 'rows') throw new Error('no rows')
    expect(streamed.slice(0, 500).map((row) => row.map(cellOf))).toEqual(page2.data.outcome.rows)
  })

  it('keeps 64-bit integers exact, as strings', async () => {
    const { data } = await result({
      sql: 'SELECT toUInt64(18446744073709551615) AS big, toInt64(-9223372036854775807) AS small',
    })
    expect(data.outcome).toMatchObject({ kind: 'rows', rows: [['18446744073709551615', '-9223372036854775807']] })
  })

  it('stays within its bounds: a failed run is not kept, and old entries leave first', async () => {
    await result({ sql: 'SELECT 1 FROM' })
    expect(resultCacheSize().entries).toBe(0)
    const runs: string[] = []
    for (let index = 0; index < RESULT_CACHE_LIMITS.maxEntries + 3; index++)
      runs.push((await result({ sql: `SELECT ${index} AS i` })).data.runId)
    expect(resultCacheSize().entries).toBe(RESULT_CACHE_LIMITS.maxEntries)
    const seen = recordQueryCalls()
    await result({ sql: 'SELECT 0 AS i', run: runs[0]!, page: '1' })
    expect(seen).toHaveLength(1)
    const last = RESULT_CACHE_LIMITS.maxEntries + 2
    await result({ sql: `SELECT ${last} AS i`, run: runs[last]!, page: '1' })
    expect(seen).toHaveLength(1)
  })
})

describe('/queries/reference', () => {
  it("lists tables with their transforms' columns, the custom functions and every query option", async () => {
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/functions/`, {
      name: 'double_it',
      sql: '(x) -> x * 2',
      description: 'Twice x',
    })
    const data = await referenceLoader(args(get(`/queries/reference?table_id=${tableId}&data=SELECT+1`, cookie)))
    expect(data.tableId).toBe(tableId)
    expect(data.sql).toBe('SELECT 1')
    expect(data.tables[0]).toEqual({
      uuid: tableId,
      project: 'weblogs',
      name: 'access',
      columns: [
        { name: 'timestamp', type: 'datetime', isPrimary: true },
        { name: 'status', type: 'uint32', isPrimary: false },
        { name: 'path', type: 'string', isPrimary: false },
      ],
    })
    expect(data.functions).toContainEqual({
      project: 'weblogs',
      name: 'double_it',
      sql: '(x) -> x * 2',
      description: 'Twice x',
    })
    expect(QUERY_OPTIONS.map((option) => option.name)).toEqual(
      expect.arrayContaining([
        'hdx_query_max_rows',
        'hdx_query_pool_name',
        'hdx_query_max_concurrent_partitions',
        'max_bytes_before_external_sort',
      ]),
    )
  })
})

describe('/resources/query-csv', () => {
  it("streams the query's CSV with a header line as a download, without the UI's cap", async () => {
    const response = await csvLoader(
      args(get(`/resources/query-csv?sql=${encodeURIComponent('SELECT number AS n FROM numbers(12000)')}`, cookie)),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="query-result.csv"')
    const lines = (await response.text()).trim().split('\n')
    expect(lines[0]).toBe('"n"')
    expect(lines).toHaveLength(12_001)
  })

  it('makes text a spreadsheet would run as a formula inert, and leaves numbers alone', async () => {
    const sql = `SELECT arrayJoin(['=HYPERLINK("x")', '+1', '-2', '@cmd', 'plain, "quoted"']) AS text, toInt64(-5) AS n, NULL AS nothing`
    const response = await csvLoader(args(get(`/resources/query-csv?${new URLSearchParams({ sql })}`, cookie)))
    expect(response.status).toBe(200)
    expect((await response.text()).split('\n')).toEqual([
      '"text","n","nothing"',
      `"'=HYPERLINK(""x"")",-5,`,
      `"'+1",-5,`,
      `"'-2",-5,`,
      `"'@cmd",-5,`,
      '"plain, ""quoted""",-5,',
      '',
    ])
  })

  it('as=json streams a JSON array of objects, 64-bit integers exact', async () => {
    const sql = 'SELECT number AS n, bitNot(number) AS big FROM numbers(3)'
    const response = await csvLoader(
      args(get(`/resources/query-csv?${new URLSearchParams({ sql, as: 'json' })}`, cookie)),
    )
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="query-result.json"')
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(JSON.parse(await response.text())).toEqual([
      { n: '0', big: '18446744073709551615' },
      { n: '1', big: '18446744073709551614' },
      { n: '2', big: '18446744073709551613' },
    ])
    const empty = await csvLoader(
      args(get(`/resources/query-csv?${new URLSearchParams({ sql: 'SELECT 1 AS a WHERE 0', as: 'json' })}`, cookie)),
    )
    expect(JSON.parse(await empty.text())).toEqual([])
  })

  it('answers the engine message as text for a bad query, and needs a session', async () => {
    const bad = await csvLoader(args(get('/resources/query-csv?sql=SELECT+1+FROM', cookie)))
    expect(bad.status).toBe(400)
    expect(await bad.text()).toMatch(/^Code: 62/)
    const thrown = await responseFrom(() => csvLoader(args(get('/resources/query-csv?sql=SELECT+1'))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toMatch(/^\/login\?prevUrl=/)
  })
})

describe('a statement that changes data (issue 15: a GET is never a mutation)', () => {
  const alterJobCount = async () =>
    (await clusterCall<{ count?: number; results?: unknown[] } | unknown[]>(
      'GET',
      '/config/v1/orgs/{org}/jobs/alter/',
    )) as { count?: number } | unknown[]

  const countOf = (answer: { count?: number } | unknown[]) =>
    Array.isArray(answer) ? answer.length : (answer.count ?? 0)

  it('opening /result?sql=ALTER… asks to confirm and creates no alter job; the CSV link refuses it', async () => {
    const before = countOf(await alterJobCount())
    const sql = 'ALTER TABLE weblogs.access DELETE WHERE status = 500'
    const seen = recordQueryCalls()
    const { data } = await result({ sql })
    expect(data.isChange).toBe(true)
    expect(data.outcome).toBeNull()
    expect(seen).toEqual([])
    const csv = await csvLoader(args(get(`/resources/query-csv?${new URLSearchParams({ sql })}`, cookie)))
    expect(csv.status).toBe(400)
    expect(await csv.text()).toMatch(/changes data/)
    expect(countOf(await alterJobCount())).toBe(before)
  })

  it('the confirmed POST creates the alter job and goes to it', async () => {
    const before = countOf(await alterJobCount())
    const sql = 'ALTER TABLE weblogs.access DELETE WHERE status = 500'
    const response = await responseFrom(() =>
      resultAction(args(post(`/result?${new URLSearchParams({ sql })}`, { intent: 'run-change', sql }, cookie))),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toMatch(/^\/jobs\/alter-jobs\?job=/)
    expect(countOf(await alterJobCount())).toBe(before + 1)
  })

  it('a confirmed statement the engine refuses shows its message; an unknown intent is refused, a Run of it asks to confirm', async () => {
    const sql = 'ALTER TABLE weblogs.nope DELETE WHERE 1'
    const refused = unwrap(
      await resultAction(args(post(`/result?${new URLSearchParams({ sql })}`, { intent: 'run-change', sql }, cookie))),
    )
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ outcome: { kind: 'error' } })
    const thrown = unwrap(
      await resultAction(args(post('/result', { intent: 'x', sql }, cookie))).catch((error: unknown) => error),
    )
    expect(thrown.status).toBe(400)
    // the Run form's POST of a changing statement runs nothing: its link asks to confirm
    const ran = await responseFrom(() => resultAction(args(post('/result', { sql }, cookie))))
    expect(ran.headers.get('Location')).toBe(`/result?${new URLSearchParams({ sql })}#result`)
  })
})
