import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { callPaths, failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { loader } from './dashboard'

useTestCluster()

/*
 * The dashboard's "Is data arriving?" (issue 51, point 4): the org's rows per minute and hour and its
 * busiest tables, from the cluster's ingest counter in two reads whatever the number of tables.
 */

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  const now = new Date().toISOString().slice(0, 19) + 'Z'
  await makeTable(
    'arrival',
    'busy',
    Array.from({ length: 40 }, (_, i) => ({ timestamp: now, level: 'info', message: `m${i}` })),
  )
  await makeTable('arrival', 'quiet', [{ timestamp: now, level: 'info', message: 'one' }])
  // an org bigger than the seed: tables that take nothing
  for (let i = 0; i < 30; i += 1)
    await clusterCall('POST', '/config/v1/orgs/{org}/projects/', { name: `arrival_crowd_${i}` })
})

const load = () => loader(args(get('/dashboard', cookie)))

describe('/dashboard: is data arriving', () => {
  it('counts the last hour per minute and the day per hour, and names the busiest tables with links', async () => {
    const { arrival } = await load()
    expect(arrival.error).toBeNull()
    expect(arrival.minutes).toHaveLength(60)
    expect(arrival.hours).toHaveLength(24)
    expect(arrival.lastHour).toBe(41)
    expect(arrival.lastDay).toBe(41)
    expect(arrival.minutes.slice(-2).reduce((a, b) => a + b, 0)).toBe(41)
    expect(arrival.busiest).toEqual([
      { table: 'arrival.busy', lastHour: 40, lastDay: 40, href: '/data/tables?q=busy' },
      { table: 'arrival.quiet', lastHour: 1, lastDay: 1, href: '/data/tables?q=quiet' },
    ])
    expect(arrival.tablesWithRows).toBe(2)
  })

  it('asks the ingest counter twice and runs no query over any table', async () => {
    const paths = await callPaths(load, (path) => path.startsWith('/prometheus') || path === '/query')
    expect(paths.filter((path) => path.startsWith('/prometheus'))).toHaveLength(2)
    // the one /query is the dashboard's count over the query log (decision 068), not a table's
    expect(paths.filter((path) => path === '/query').length).toBeLessThanOrEqual(1)
  })

  it('a counter the role may not read is marked in its place; the rest of the dashboard stays', async () => {
    failWith('/prometheus/api/v1/query_range', 403, { status: 'error', error: 'forbidden' })
    const data = await load()
    expect(data.arrival.error).toBe('This panel cannot be accessed')
    expect(data.error).toBeNull()
    expect(data.resources.length).toBeGreaterThan(0)
  })
})
