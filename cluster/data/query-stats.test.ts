import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'

/*
 * Issue 54, point 8: the query workspace's "Rows read" showed the rows returned (2,331 for an
 * aggregation over 1M rows). The local cluster answered chdb's rowsRead, which counts the rows of
 * the result; its statistics now hold what the engine read, and the answer is unchanged.
 */

let c: TestCluster
const ROWS = 1_000

beforeAll(async () => {
  c = await startTestCluster()
  const o = `/config/v1/orgs/${c.orgId}`
  const project = await c.api('POST', `${o}/projects/`, { name: 'stats' })
  const table = await c.api('POST', `${o}/projects/${project.body.uuid}/tables/`, { name: 'events' })
  const transform = await c.api('POST', `${o}/projects/${project.body.uuid}/tables/${table.body.uuid}/transforms/`, {
    name: 'events_json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'n', datatype: { type: 'uint32' } },
      ],
    },
  })
  expect(transform.status, JSON.stringify(transform.body)).toBe(201)
  const rows = Array.from({ length: ROWS }, (_, n) => ({ timestamp: '2026-12-01T10:00:00Z', n }))
  const ingested = await c.api('POST', '/ingest/event', JSON.stringify(rows), undefined, {
    'x-hdx-table': 'stats.events',
    'content-type': 'application/json',
  })
  expect(ingested.status, JSON.stringify(ingested.body)).toBe(200)
})

afterAll(async () => {
  await c?.close()
})

const statsOf = (headers: Headers) =>
  Object.fromEntries(
    (headers.get('x-hdx-query-stats') ?? '').split(' ').map((pair) => pair.split('=') as [string, string]),
  )

describe('query statistics', () => {
  it.each(['JSONCompactEachRow', 'JSONEachRow'])(
    'an aggregate in %s reports the rows the engine read, not the rows returned; the rows as the format writes them',
    async (format) => {
      const sql = 'SELECT n % 7 AS k, count() AS c FROM stats.events GROUP BY k ORDER BY k'
      const answer = await c.api('POST', '/query', `${sql} FORMAT ${format}`)
      expect(answer.status, String(answer.body)).toBe(200)
      expect(statsOf(answer.headers).rows_read).toBe(String(ROWS))
      expect(JSON.parse(answer.headers.get('x-clickhouse-summary')!).read_rows).toBe(String(ROWS))
      const lines = String(answer.body).trimEnd().split('\n')
      expect(lines).toHaveLength(7)
      expect(JSON.parse(lines[0]!)).toEqual(format === 'JSONEachRow' ? { k: 0, c: 143 } : [0, 143])
      // no line of the progress twin is left in the answer
      expect(String(answer.body)).not.toMatch(/"(row|meta|progress)":/)
    },
  )

  it('a LIMIT answers its rows only (the twin writes rows_before_limit_at_least after them)', async () => {
    const answer = await c.api('POST', '/query', 'SELECT n FROM stats.events ORDER BY n LIMIT 2 FORMAT JSONEachRow')
    expect(answer.status).toBe(200)
    expect(
      String(answer.body)
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ n: 0 }, { n: 1 }])
    expect(statsOf(answer.headers).rows_read).toBe(String(ROWS))
  })
})
