import { beforeAll, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, unwrap } from '#tests/session'
import { loader as resultLoader } from '~/routes/_console+/result'
import { tablesNamed } from '~/utils/sql-tables'

/*
 * Issue 54, point 10: a query the cluster refused for want of a permission said "You do not have
 * permission to perform this action." and no more, though the statement read several tables. The
 * local cluster now names the table it refused; a cluster that does not is answered with the
 * tables the statement reads, so the user knows which to ask for.
 */

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

/** The cluster refuses each query whose statement holds `fragment` with 403 and `detail` (for this test). */
function refuseQuery(fragment: string, detail: string) {
  server.use(
    // any other query: undefined, so the test cluster answers it
    http.post(`${TEST_CLUSTER_URL}/query`, async ({ request }) => {
      const sql = await request.clone().text()
      return sql.includes(fragment) ? HttpResponse.json({ detail }, { status: 403 }) : undefined
    }),
  )
}

type Outcome = { kind: string; status?: number; message?: string }
const result = async (sql: string) =>
  unwrap<{ outcome: Outcome }>(await resultLoader(args(get(`/result?${new URLSearchParams({ sql })}`, cookie))))

describe('a query refused for a permission', () => {
  it('names the tables the statement reads when the cluster does not', async () => {
    refuseQuery('billing', 'You do not have permission to perform this action.')
    const { data, status } = await result(
      'SELECT count() FROM sample.web_logs AS l JOIN `billing`.`events` AS e ON l.path = e.path',
    )
    expect(status).toBe(403)
    expect(data.outcome).toMatchObject({ kind: 'error', status: 403 })
    expect(data.outcome.message).toBe(
      'You do not have permission to perform this action. The statement reads sample.web_logs and billing.events: ' +
        'your role may not query one of them (it needs select_sql on the table).',
    )
  })

  it('keeps the cluster’s words when they name the table already', async () => {
    refuseQuery('billing', 'You do not have permission to query billing.events: it needs select_sql on that table.')
    const { data } = await result('SELECT * FROM billing.events')
    expect(data.outcome.message).toBe(
      'You do not have permission to query billing.events: it needs select_sql on that table.',
    )
  })
})

describe('tablesNamed', () => {
  it('reads project.table after FROM and JOIN, quoted or not, once each; not strings, comments or columns', () => {
    expect(
      tablesNamed(
        "SELECT a.b FROM p.t1 AS a -- FROM x.y\n LEFT JOIN `p2`.`t 2` ON 1 WHERE s = 'FROM q.r' AND a.b IN (SELECT c FROM p.t1)",
      ),
    ).toEqual(['p.t1', 'p2.t 2'])
    expect(tablesNamed('SELECT 1')).toEqual([])
    expect(tablesNamed('SELECT * FROM numbers(10)')).toEqual([])
  })
})
