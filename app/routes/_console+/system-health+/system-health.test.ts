import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, responseFrom } from '#tests/session'
import { loader as indexLoader } from './_index'
import { loader as countsLoader } from './counts'
import { panelQuery, PANELS } from './__panels.server'
import { loader as logsLoader } from './logs'
import { RANGE_MESSAGES, toUtcInput } from './__range'

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const basic = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`

/** Calls the cluster directly (as another client would), so it counts requests and writes logs. */
async function callCluster(method: string, path: string, body?: string) {
  const response = await fetch(`${TEST_CLUSTER_URL}${path}`, {
    method,
    body,
    headers: { Authorization: basic, 'Content-Type': 'application/json' },
  })
  await response.text()
  return response.status
}

/** A query that fails in the engine with `message`, which the cluster logs as a warning (query-head). */
function failingQuery(message: string) {
  const sql = `SELECT throwIf(1, '${message.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`
  return callCluster('GET', `/query?${new URLSearchParams({ query: sql })}`)
}

const counts = (search: string) => countsLoader(args(get(`/system-health/counts${search}`, cookie)))
const logs = (search: string) => logsLoader(args(get(`/system-health/logs${search}`, cookie)))

describe('/system-health', () => {
  it('needs a session, and sends a signed-in user to the Counts tab', async () => {
    const anonymous = await responseFrom(() => countsLoader(args(get('/system-health/counts'))))
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toBe('/login?prevUrl=%2Fsystem-health%2Fcounts')
    const index = await responseFrom(() => indexLoader(args(get('/system-health', cookie))))
    expect(index.headers.get('Location')).toBe('/system-health/counts')
  })
})

describe('/system-health/counts', () => {
  it('reads each panel from query_range as per-interval series over the same times', async () => {
    for (let i = 0; i < 3; i++) expect(await callCluster('GET', '/config/v1/users/current')).toBe(200)
    const data = await counts('?range=15m')
    expect(data.result).toBeUndefined()
    expect(data.range).toMatchObject({ stepSeconds: 30, label: 'Last 15 minutes' })
    expect(data.panels.map((panel) => panel.id)).toEqual(PANELS.map((panel) => panel.id))

    const requests = data.panels.find((panel) => panel.id === 'requests')!
    expect(requests.error).toBeNull()
    // 15 minutes in 30-second intervals: 30 points, 30 s apart, the last at the range's end.
    expect(requests.times).toHaveLength(30)
    expect(requests.times[1]! - requests.times[0]!).toBe(30_000)
    expect(requests.times.at(-1)).toBe(data.range!.end)
    const api = requests.series.find((series) => series.name === 'turbine-api')!
    expect(api.values).toHaveLength(30)
    expect(api.values.every((value) => Number.isInteger(value) && value >= 0)).toBe(true)
    // Login, the loader's own calls and the three above.
    expect(api.values.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4)
    expect(requests.total).toBe(requests.series.reduce((sum, s) => sum + s.values.reduce((a, b) => a + b, 0), 0))

    // Queries by result: a failing query shows as an "error" series.
    await failingQuery('counted')
    const after = await counts('?range=15m')
    const queries = after.panels.find((panel) => panel.id === 'queries')!
    expect(queries.series.find((series) => series.name === 'error')?.values.some((value) => value > 0)).toBe(true)
    expect(after.summary.error).toBeNull()
    // the summary follows the range: each panel's total over it, then what holds whatever the range
    const figure = (data: typeof after, key: string) => data.summary.figures.find((f) => f.key === key)
    expect(figure(after, 'range_queries')).toMatchObject({ label: 'Queries in the range', value: queries.total })
    expect(figure(after, 'range_requests')?.value).toBe(after.panels.find((panel) => panel.id === 'requests')!.total)
    expect(after.summary.figures.some((f) => /last hour|last 5 minutes/i.test(f.label))).toBe(false)
    // the org's stored rows as the cluster's summary counts them (none in this test's org yet is still a figure)
    const orgSummary = await clusterCall<{ total_rows?: number }>('GET', '/config/v1/orgs/{org}/summary?meta=1')
    expect(figure(after, 'total_rows')).toMatchObject({ value: orgSummary.total_rows })
    expect(orgSummary.total_rows).toEqual(expect.any(Number))
    const day = await counts('?range=24h')
    expect(figure(day, 'range_requests')!.value).toBeGreaterThanOrEqual(figure(after, 'range_requests')!.value)
  })

  it('filters by service through an escaped PromQL label, so a hostile value only matches nothing', async () => {
    expect(panelQuery(PANELS[0], 60, { service: 'query-head' })).toBe(
      'sum by (service) (increase(http_requests_total{service="query-head"}[60s]))',
    )
    expect(panelQuery(PANELS[0], 60, { service: 'x"} or up{a="\\' })).toBe(
      'sum by (service) (increase(http_requests_total{service="x\\"} or up{a=\\"\\\\"}[60s]))',
    )

    const data = await counts('?range=1h&service=turbine-api')
    expect(data.filters).toMatchObject({ service: 'turbine-api', range: '1h' })
    expect(data.services).toEqual(expect.arrayContaining(['turbine-api', 'query-head']))
    const requests = data.panels.find((panel) => panel.id === 'requests')!
    expect(requests.times).toHaveLength(60)
    expect(requests.series.map((series) => series.name)).toEqual(['turbine-api'])

    const hostile = await counts(`?range=1h&service=${encodeURIComponent('x"} or up{a="\\')}`)
    for (const panel of hostile.panels) {
      expect(panel.error).toBeNull()
      expect(panel.series).toEqual([])
    }
  })

  it('filters by pool (spec section 3): the pools whose work was counted are offered, a query counts on its pool', async () => {
    expect(panelQuery(PANELS[2], 60, { service: 'query-head', pool: 'query-peer' })).toBe(
      'sum by (status) (increase(queries_total{service="query-head",pool="query-peer"}[60s]))',
    )
    const before = await counts('?range=1h&pool=query-peer')
    const queriesBefore = before.panels.find((panel) => panel.id === 'queries')!.total
    expect(await callCluster('GET', `/query?${new URLSearchParams({ query: 'SELECT 1' })}`)).toBe(200)
    expect(
      await callCluster(
        'GET',
        `/query?${new URLSearchParams({ query: 'SELECT 2', hdx_query_pool_name: 'merge-peer' })}`,
      ),
    ).toBe(200)

    const data = await counts('?range=1h&pool=query-peer')
    expect(data.filters).toMatchObject({ pool: 'query-peer', service: '' })
    expect(data.pools).toEqual(expect.arrayContaining(['query-peer', 'merge-peer']))
    const queries = data.panels.find((panel) => panel.id === 'queries')!
    expect(queries.error).toBeNull()
    expect(queries.total).toBe(queriesBefore + 1) // SELECT 1 only: SELECT 2 ran on merge-peer
    // the config API runs on no pool: its requests are not in a pool's view
    const requests = data.panels.find((panel) => panel.id === 'requests')!
    expect(requests.series.map((series) => series.name)).toEqual(['query-head'])
    const other = await counts('?range=1h&pool=merge-peer')
    expect(other.panels.find((panel) => panel.id === 'queries')!.total).toBeGreaterThanOrEqual(1)
    // a pool nothing ran on yet (a deep link) stays selectable and shows empty panels
    const fresh = await counts('?range=1h&pool=not-yet')
    expect(fresh.pools).toContain('not-yet')
    expect(fresh.panels.every((panel) => panel.error === null && panel.series.length === 0)).toBe(true)
  })

  it("shows 'This panel cannot be accessed' in the one panel whose query_range answers 401", async () => {
    failWith('/prometheus/api/v1/query_range', 401, { detail: 'Authentication credentials were not provided.' }, 'get')
    const data = await counts('?range=1h')
    const failed = data.panels.filter((panel) => panel.error)
    expect(failed).toHaveLength(1)
    expect(failed[0]!.error).toBe('This panel cannot be accessed')
    expect(data.panels.filter((panel) => !panel.error)).toHaveLength(PANELS.length - 1)
  })

  it("shows other failures' catalogue message in the panel, never the whole page", async () => {
    failWith('/prometheus/api/v1/query_range', 502, '', 'get')
    const data = await counts('?range=6h')
    expect(data.range?.stepSeconds).toBe(300)
    expect(data.panels.map((panel) => panel.error).filter(Boolean)).toEqual(['Bad Gateway.'])

    failWith('/config/v1/orgs/:org/summary', 503, { detail: 'down' }, 'get')
    const noSummary = await counts('?range=1h')
    expect(noSummary.summary.error).toBe('Service Unavailable.')
    // what the panels counted still shows; nothing of the summary's own
    expect(noSummary.summary.figures.map((f) => f.key)).toEqual([
      'range_requests',
      'range_errors',
      'range_queries',
      'range_rows',
    ])
    expect(noSummary.panels.every((panel) => panel.error === null)).toBe(true)
  })

  it('takes a custom range of up to 6 hours in 10-minute intervals, and refuses a longer one with a message', async () => {
    const to = Math.floor(Date.now() / 60_000) * 60_000
    const ok = await counts(`?range=custom&from=${toUtcInput(to - 2 * 3_600_000)}&to=${toUtcInput(to)}`)
    expect(ok.result).toBeUndefined()
    expect(ok.range).toMatchObject({ stepSeconds: 600, start: to - 2 * 3_600_000, end: to })
    expect(ok.panels[0]!.times).toHaveLength(12)
    expect(ok.panels[0]!.times[0]).toBe(to - 2 * 3_600_000 + 600_000)

    const long = await counts(
      `?range=custom&from=${toUtcInput(to - 7 * 3_600_000)}&to=${toUtcInput(to)}&service=query-head`,
    )
    expect(long.result?.error).toEqual({ to: [RANGE_MESSAGES.tooLong] })
    expect(RANGE_MESSAGES.tooLong).toBe('Custom time ranges are limited to 6 hours')
    // Nothing typed is lost, and no panel is read for a range the spec refuses.
    expect(long.result?.initialValue).toMatchObject({
      range: 'custom',
      from: toUtcInput(to - 7 * 3_600_000),
      to: toUtcInput(to),
      service: 'query-head',
    })
    expect(long.panels).toEqual([])

    const missing = await counts('?range=custom&from=&to=nonsense')
    expect(missing.result?.error).toEqual({ from: [RANGE_MESSAGES.fromRequired], to: [RANGE_MESSAGES.invalid] })
    const backwards = await counts(`?range=custom&from=${toUtcInput(to)}&to=${toUtcInput(to - 3_600_000)}`)
    expect(backwards.result?.error).toEqual({ to: [RANGE_MESSAGES.order] })
    // An unknown preset falls back to the default instead of failing; Live is kept in the URL.
    const fallback = await counts('?range=bogus&live=1')
    expect(fallback.range?.label).toBe('Last hour')
    expect(fallback.isLive).toBe(true)
  })
})

describe('/system-health/logs', () => {
  it('lists the cluster log newest first, filtered by level, service, component and search', async () => {
    const marker = `marker${Date.now().toString(36)}`
    expect(await callCluster('POST', '/config/v1/reset_password', JSON.stringify({ email: ADMIN.email }))).toBe(200)
    expect(await failingQuery(`${marker} one`)).toBe(400)
    expect(await failingQuery(`${marker} two`)).toBe(400)

    const all = await logs('?range=15m')
    expect(all.error).toBeNull()
    expect(all.total).toBeGreaterThanOrEqual(3)
    const times = all.entries.map((entry) => entry.timestamp)
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(all.facets.services).toEqual(expect.arrayContaining(['turbine-api', 'query-head']))
    expect(all.facets.levels).toEqual(expect.arrayContaining(['info', 'warning', 'error']))

    const warnings = await logs('?range=15m&level=warning')
    expect(warnings.entries.length).toBeGreaterThanOrEqual(2)
    expect(warnings.entries.every((entry) => entry.level === 'warning')).toBe(true)

    const searched = await logs(`?range=15m&q=${marker.toUpperCase()}`)
    expect(searched.total).toBe(2)
    expect(searched.entries.map((entry) => entry.error.match(new RegExp(`${marker} \\w+`))?.[0])).toEqual([
      `${marker} two`,
      `${marker} one`,
    ])
    expect(searched.entries[0]).toMatchObject({
      level: 'warning',
      service: 'query-head',
      component: 'query',
      container: 'query-head',
    })
    expect(searched.entries[0]!.message).toMatch(/^query .* failed for admin@example.com$/)

    const auth = await logs('?range=15m&service=turbine-api&component=auth&level=info')
    expect(auth.entries.length).toBeGreaterThanOrEqual(1)
    expect(auth.entries.every((entry) => entry.component === 'auth' && entry.service === 'turbine-api')).toBe(true)
    expect(auth.entries[0]!.message).toMatch(/password reset requested for admin@example.com/)

    const none = await logs(`?range=15m&q=${marker}&service=turbine-api`)
    expect(none).toMatchObject({ total: 0, entries: [], error: null })
    // A deep link to a filter value the log does not hold yet keeps it selectable.
    expect((await logs('?range=15m&container=not-yet')).facets.containers).toContain('not-yet')
  })

  it('filters by pool: a failing query logs on the pool it ran on', async () => {
    const marker = `pool${Date.now().toString(36)}`
    const sql = `SELECT throwIf(1, '${marker}')`
    expect(
      await callCluster('GET', `/query?${new URLSearchParams({ query: sql, hdx_query_pool_name: 'merge-peer-ii' })}`),
    ).toBe(400)
    expect(await failingQuery(`${marker} default`)).toBe(400)

    const onPool = await logs(`?range=15m&pool=merge-peer-ii&q=${marker}`)
    expect(onPool.filters).toMatchObject({ pool: 'merge-peer-ii' })
    expect(onPool.total).toBe(1)
    expect(onPool.entries[0]!.error).toContain(marker)
    expect(onPool.entries[0]!.error).not.toContain('default')
    expect((await logs(`?range=15m&pool=query-peer&q=${marker}`)).total).toBe(1)
    expect((await logs(`?range=15m&q=${marker}`)).facets.pools).toEqual(
      expect.arrayContaining(['merge-peer-ii', 'query-peer']),
    )
  })

  it('binds a hostile search string as a value: quotes and backslashes match literally and inject nothing', async () => {
    const tricky = `it's a \\ trap ${Date.now().toString(36)}`
    expect(await failingQuery(tricky)).toBe(400)
    const literal = await logs(`?range=15m&q=${encodeURIComponent(tricky)}`)
    expect(literal.error).toBeNull()
    expect(literal.total).toBe(1)
    expect(literal.entries[0]!.error).toContain(tricky)

    for (const hostile of ["' OR 1=1 --", "x') OR 1=1 OR ('", '{search:String}', "'; DROP TABLE hydro.logs; --"]) {
      const data = await logs(`?range=15m&q=${encodeURIComponent(hostile)}`)
      expect(data.error, hostile).toBeNull()
      expect(data.total, hostile).toBe(0)
    }
    expect((await logs('?range=15m')).total).toBeGreaterThan(0)
  })

  it('pages with "Rows per page" in the URL and clamps a page past the end', async () => {
    const marker = `paged${Date.now().toString(36)}`
    for (let i = 0; i < 12; i++) await failingQuery(`${marker} row-${String(i).padStart(2, '0')}`)
    const first = await logs(`?range=15m&q=${marker}&pageSize=10`)
    expect(first).toMatchObject({ total: 12, page: 1, pageCount: 2, pageSize: 10 })
    expect(first.entries).toHaveLength(10)
    const second = await logs(`?range=15m&q=${marker}&pageSize=10&page=2`)
    expect(second.entries).toHaveLength(2)
    // The hyphen cannot occur in the base-36 marker, so this matches the row number and never the marker.
    const seen = [...first.entries, ...second.entries].map((entry) => entry.error.match(/row-\d\d/)![0])
    expect(new Set(seen).size).toBe(12)
    expect((await logs(`?range=15m&q=${marker}&pageSize=10&page=9`)).page).toBe(2)
  })

  it('refuses a custom range over 6 hours with the message, and reads a valid one', async () => {
    const to = Date.now() + 60_000
    const long = await logs(
      `?range=custom&from=${toUtcInput(to - 6 * 3_600_000 - 60_000)}&to=${toUtcInput(to)}&level=info`,
    )
    expect(long.result?.error).toEqual({ to: [RANGE_MESSAGES.tooLong] })
    expect(long.filters).toBeNull()
    expect(long.entries).toEqual([])
    const ok = await logs(`?range=custom&from=${toUtcInput(to - 3_600_000)}&to=${toUtcInput(to)}`)
    expect(ok.result).toBeUndefined()
    expect(ok.total).toBeGreaterThan(0)
  })

  it('shows a failing log query as a message on the page, with the filters still there', async () => {
    // Both the count and the filter options read /query (in parallel): fail them both.
    failWith('/query', 500, { detail: 'boom' }, 'get')
    failWith('/query', 500, { detail: 'boom' }, 'get')
    const data = await logs('?range=1h&level=error')
    expect(data.error).toBe('Internal server error. If this is reoccurring, please contact us at support@example.com')
    expect(data.filters).toMatchObject({ level: 'error' })
  })
})
