import { describe, expect, it } from 'vitest'
import { TEST_CLUSTER_URL } from '#tests/env'
import { clusterAdminLogin } from '#tests/cluster'
import { callPaths, useTestCluster } from '#tests/msw'
import { createClusterApi } from './client.server'
import { ClusterError } from './errors.server'
import { consoleRead, QueryError, runQuery } from './query.server'

useTestCluster()

async function adminApi() {
  const { token, orgId } = await clusterAdminLogin()
  return createClusterApi(
    { token, orgId, userId: 'query-user', expiresAt: 0, expiresIn: 1 },
    { origin: TEST_CLUSTER_URL },
  )
}

/*
 * runQuery reads the console's own queries whole (node:http, issue 52): the answer's text and what
 * its headers say (format, statistics, the query's name), and the engine's refusal as QueryError.
 */
describe('runQuery', () => {
  it("returns the answer's text with its format, statistics and query id from the headers", async () => {
    const api = await adminApi()
    const answer = await runQuery(
      api,
      'SELECT number AS n FROM system.numbers LIMIT 3',
      consoleRead({ hdx_query_output_format: 'JSONEachRow' }),
    )
    expect(
      answer.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }])
    expect(answer.format).toBe('JSONEachRow')
    expect(Number(answer.stats.rows_read)).toBeGreaterThanOrEqual(3)
    expect(answer.queryId).toMatch(/\S/)
  })

  it('is one call of the query API', async () => {
    const api = await adminApi()
    const paths = await callPaths(
      () => runQuery(api, 'SELECT 1', { hdx_query_output_format: 'JSON' }),
      (path) => path.startsWith('/query'),
    )
    expect(paths).toEqual(['/query'])
  })

  it("turns the engine's refusal into QueryError with its text, and leaves other failures as they are", async () => {
    const api = await adminApi()
    const refused = await runQuery(api, 'SELECT no_such_column FROM system.one').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(QueryError)
    expect((refused as QueryError).message).toMatch(/no_such_column/)
    expect((refused as QueryError).status).toBe(400)
    const missing = await runQuery(api, 'SELECT * FROM no_such_db.no_such_table').catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(ClusterError)
  })
})
