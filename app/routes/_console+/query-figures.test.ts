import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, unwrap } from '#tests/session'
import { CONSOLE_QUERY_LABEL } from '~/api/query.server'
import { loader as dashboardLoader } from './dashboard'
import { loader as insightsLoader } from './queries+/insights'
import { loader as resultLoader } from './result'
import { loader as logsLoader } from './system-health+/logs'

/**
 * Figures that must agree (issue 36, item 8): the dashboard's query figures and Insights count the
 * same queries of the same log, the console's own reads are labelled and left out of both, and the
 * dashboard says nothing false about columns.
 */
useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const run = async (sql: string) =>
  unwrap(await resultLoader(args(get(`/result?${new URLSearchParams({ sql })}`, cookie))))
const insights = async (search = '') =>
  unwrap(await insightsLoader(args(get(`/queries/insights${search}`, cookie)))).data.insights
const dashboard = async () => {
  const data = await dashboardLoader(args(get('/dashboard', cookie)))
  return [...data.resources, ...data.activity]
}

/** The labels the cluster's query log holds for the queries whose text holds `fragment`. */
async function labelsOf(fragment: string): Promise<string[]> {
  // each line starts with `label:` so the test client reads the answer as text, not JSON
  const sql =
    `SELECT concat('label:', label) FROM hdx.active_queries WHERE position(query, ` +
    `'${fragment}') > 0 AND position(query, 'hdx.active_queries') = 0 FORMAT TSV`
  const text = await clusterCall<string>('POST', `/query?query=${encodeURIComponent(sql)}`)
  return String(text)
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => line.slice('label:'.length))
}

describe('query figures', () => {
  it("the dashboard's query errors of the last hour are Insights' failed queries: the same log, the same queries", async () => {
    await run('SELECT 1 AS figures_ok')
    await run('SELECT no_such_column_here FROM system.one')
    await run('SELECT * FROM cluster_console.no_such_table_here')
    const failed = (await insights()).failed
    expect(failed.some((query) => query.query.includes('no_such_column_here'))).toBe(true)
    const cards = await dashboard()
    const errors = cards.find((card) => card.label === 'Query errors in the last hour')
    expect(errors).toMatchObject({ value: failed.length, href: '/queries/insights#failed' })
    // reading the dashboard and Insights ran queries of the console's own: they are not counted
    const again = await dashboard()
    expect(again.find((card) => card.key === 'queries_last_hour')?.value).toBe(
      cards.find((card) => card.key === 'queries_last_hour')?.value,
    )
  }, 30_000)

  it("System Health's reads are labelled as the console's and are not among Insights' slowest, nor the user's own", async () => {
    const logs = await logsLoader(args(get('/system-health/logs', cookie)))
    expect(logs).toBeTruthy()
    const labels = await labelsOf('hydro.logs')
    expect(labels.length).toBeGreaterThan(0)
    expect(new Set(labels)).toEqual(new Set([CONSOLE_QUERY_LABEL]))
    await run('SELECT 2 AS figures_mine')
    const all = await insights()
    const mine = await insights('?mine=1')
    for (const list of [all.slowest, all.failed, mine.slowest, mine.failed])
      expect(list.filter((query) => query.query.includes('hydro.logs'))).toEqual([])
    expect(mine.slowest.some((query) => query.query.includes('figures_mine'))).toBe(true)
    // a query the user runs is not labelled as the console's
    expect(await labelsOf('figures_mine')).toEqual([''])
  }, 30_000)

  it('the dashboard shows no "Columns: 0" for a table of 14 columns: the summary counts alias columns, and says so', async () => {
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'wide' })
    const table = await clusterCall<{ uuid: string }>(
      'POST',
      `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`,
      {
        name: 'fourteen',
      },
    )
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
      name: 'fourteen_json',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
          ...Array.from({ length: 13 }, (_, i) => ({ name: `c${i}`, datatype: { type: 'string' } })),
        ],
      },
    })
    const cards = await dashboard()
    expect(cards.filter((card) => card.label === 'Columns')).toEqual([])
    expect(cards.find((card) => card.key === 'columns')).toMatchObject({ label: 'Alias columns', value: 0 })
  })
})
