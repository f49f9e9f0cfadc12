import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, loginAsAdmin, post, returnedOrThrown } from '#tests/session'
import { loader as tableLoader } from './tables.$tableId._index'
import { ageText, columnKind, engineTimeMs, readDataParams } from './__table-data.server'
import type { TableDataPart } from './__table-data-values'

useTestCluster()

/*
 * The table page's data part (issue 51, points 3 and 4), through the page's real loader against the
 * local cluster: the newest rows read by widening windows, paged by links with ties at the edges,
 * a column's figures with their window and cost, what arrived in the last hour and day, the
 * sources' state, an empty table, and users with fewer rights than an admin.
 */

const PASSWORD = 'a-long-password-1'
let cookie: string
const cookies: Record<string, string> = {}
type Ids = { projectId: string; tableId: string }
let logs: Ids
let wide: Ids
let empty: Ids
let other: Ids
const NOW = Date.now()

/** The engine's text of `at(…)`: the local cluster keeps datetimes in milliseconds. */
const engineText = (iso: string) => iso.replace('T', ' ').replace('Z', '.000')
/** `2026-12-02T06:00:00Z`: `secondsAgo` before the test started, whole seconds (the transform's format). */
const at = (secondsAgo: number) =>
  new Date(Math.floor(NOW / 1000) * 1000 - secondsAgo * 1000).toISOString().replace('.000', '')

async function loginAs(email: string) {
  const { action } = await import('~/routes/_auth+/login')
  return cookieFrom(
    asResponse(await returnedOrThrown(() => action(args(post('/login', { email, password: PASSWORD }))))),
  )
}

/** The page's data part; `search` is added to `?project=…`, or replaces it when it starts with `?` (a link's). */
async function dataOf(ids: Ids, search = '', as = cookie): Promise<TableDataPart> {
  const query = search.startsWith('?') ? search : `?project=${ids.projectId}${search}`
  const page = await tableLoader(args(get(`/data/tables/${ids.tableId}${query}`, as), { tableId: ids.tableId }))
  return page.tableData
}

const messages = (data: TableDataPart) => {
  const index = data.rows!.columns.findIndex((column) => column.name === 'message')
  return data.rows!.rows.map((row) => row[index]!)
}

beforeAll(async () => {
  cookie = await loginAsAdmin()
  // 70 rows over the last 35 minutes, three per second at the edges of pages (ties), and 30 rows two days ago
  const recent = Array.from({ length: 70 }, (_, i) => ({
    timestamp: at(Math.floor(i / 3) * 30 + 5),
    level: i % 7 === 0 ? 'error' : 'info',
    message: `recent ${String(i).padStart(3, '0')}`,
  }))
  const old = Array.from({ length: 30 }, (_, i) => ({
    timestamp: at(2 * 86_400 + i * 60),
    level: 'debug',
    message: `old ${String(i).padStart(3, '0')}`,
  }))
  logs = await makeTable('data_part', 'logs', [...recent, ...old])
  empty = await makeTable('data_part', 'nothing_yet')
  other = await makeTable('data_other', 'logs', [{ timestamp: at(10), level: 'info', message: 'theirs' }])

  // a table made through the API with what the form does not show: settings it has no field for,
  // 64-bit and nullable numbers, a boolean, an auto batch entry
  const project = (
    await clusterCall<{ results: { uuid: string }[] }>('GET', '/config/v1/orgs/{org}/projects/?name=data_part')
  ).results[0]!
  const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: 'wide_api',
    settings: {
      max_future_days: 2,
      autoingest: [{ enabled: true, source: 's3://bucket/wide/', pattern: '.*', dry_run: false }],
      merge: { enabled: false },
    },
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: 'wide_json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'bytes', datatype: { type: 'uint64' } },
        { name: 'latency', datatype: { type: 'double' } },
        { name: 'cached', datatype: { type: 'boolean' } },
        { name: 'country', datatype: { type: 'string' } },
      ],
    },
  })
  await clusterCall(
    'POST',
    '/ingest/event',
    JSON.stringify([
      { ts: at(60), bytes: '18446744073709551615', latency: 1.5, cached: true, country: 'DE' },
      { ts: at(120), bytes: '7', latency: null, cached: false, country: 'DE' },
      { ts: at(180), bytes: '9', latency: 3.25, cached: true, country: 'FR' },
    ]),
    { 'x-hdx-table': 'data_part.wide_api', 'content-type': 'application/json' },
  )
  wide = { projectId: project.uuid, tableId: table.uuid }

  await clusterCall('POST', '/config/v1/roles/', {
    name: 'sees_no_rows',
    policies: [
      {
        permissions: ['view_org', 'view_project', 'view_table', 'view_transform', 'view_view'],
        scope_type: 'org',
        scope_id: null,
      },
    ],
  })
  await clusterCall('POST', '/config/v1/roles/', {
    name: 'data_part_only',
    policies: [
      { permissions: ['view_org'], scope_type: 'org', scope_id: null },
      {
        permissions: ['view_project', 'view_table', 'view_transform', 'select_sql'],
        scope_type: 'project',
        scope_id: project.uuid,
      },
    ],
  })
  for (const [email, roles] of [
    ['reader@data.test', ['reader']],
    ['blind@data.test', ['sees_no_rows']],
    ['scoped@data.test', ['data_part_only']],
  ] as const) {
    await clusterCall('POST', '/config/v1/users/', { email, password: PASSWORD, roles })
    cookies[email.split('@')[0]!] = await loginAs(email)
  }
})

describe('the newest rows', () => {
  it('shows the 50 newest by the primary timestamp, read from the last hour only when it holds a page', async () => {
    const data = await dataOf(logs)
    const rows = data.rows!
    expect(rows.denied).toBeNull()
    expect(rows.rows).toHaveLength(50)
    expect(messages(data).slice(0, 3).sort()).toEqual(['recent 000', 'recent 001', 'recent 002'])
    expect(rows.windowText).toBe('the last hour')
    expect(rows.steps).toEqual(['the last hour'])
    // bounded on both sides by the primary timestamp, and the workspace link opens the same SQL
    expect(rows.sql).toMatch(/WHERE timestamp >= toDateTime64\('[^']+', 9, 'UTC'\) AND timestamp <= toDateTime64\(/)
    expect(rows.sql).toMatch(/ORDER BY timestamp DESC LIMIT 51$/)
    expect(new URL(rows.workspaceHref, 'http://x').searchParams.get('sql')).toBe(rows.sql)
    expect(rows.cost.rowsRead).toBeGreaterThan(0)
    expect(rows.older).toMatch(/data_before=/)
    expect(rows.newer).toBeNull()
    expect(rows.newest).toBeNull()
    expect(rows.columns.map((column) => column.name)).toEqual(['timestamp', 'level', 'message'])
  })

  it('pages to older rows by links, widening the window, every row once across ties at the edges', async () => {
    const first = await dataOf(logs)
    const second = await dataOf(logs, `?${first.rows!.older}`)
    expect(second.rows!.newest).toBe(`project=${logs.projectId}`)
    // the week holds the last 50: all time is read to know that nothing older is left
    expect(second.rows!.steps).toEqual(['the last hour', 'the last day', 'the last 7 days', 'all time'])
    expect(second.rows!.older).toBeNull()
    const seen = [...messages(first), ...messages(second)]
    expect(seen).toHaveLength(100)
    expect(new Set(seen).size).toBe(100)
    expect(messages(second).slice(-1)[0]).toBe('old 029')
    // and back: the newer page from the second is the first page's oldest 50 (here: all of them)
    const back = await dataOf(logs, `?${second.rows!.newer}`)
    expect(new Set(messages(back))).toEqual(new Set(messages(first)))
  })

  it('ignores a cursor that is not a timestamp (never spliced into the SQL)', async () => {
    const url = new URL(`http://x/?data_before=${encodeURIComponent("2026-01-01' OR 1=1 --")}&data_skip=-4`)
    expect(readDataParams(url)).toMatchObject({ before: null, skip: 0 })
    const data = await dataOf(logs, `&data_before=${encodeURIComponent("x') OR (1=1")}`)
    expect(data.rows!.rows).toHaveLength(50)
  })
})

describe("a column's figures", () => {
  it('counts, nulls, distinct values and top values of a string over the stated window, with rows read', async () => {
    const data = await dataOf(logs, '&data_column=level&data_window=1h')
    const figures = data.figures!
    expect(figures.window).toMatchObject({ key: '1h', label: 'the last hour' })
    expect(figures.rows).toBe(70)
    expect(figures.values).toBe(70)
    expect(figures.nulls).toBe(0)
    expect(figures.distinct).toBe(2)
    expect(figures.top).toEqual(['info', 'error'])
    expect(figures.min).toBeNull()
    expect(figures.cost.rowsRead).toBeGreaterThan(0)
    expect(new URL(figures.workspaceHref, 'http://x').searchParams.get('sql')).toBe(figures.sql)
    const week = await dataOf(logs, '&data_column=level&data_window=7d')
    expect(week.figures!.rows).toBe(100)
    expect(week.figures!.distinct).toBe(3)
  })

  it('min and max of numbers exactly (64-bit too), nulls counted, on a table made through the API', async () => {
    const bytes = (await dataOf(wide, '&data_column=bytes')).figures!
    expect(bytes.kind).toBe('number')
    expect(bytes.max).toBe('18446744073709551615')
    expect(bytes.min).toBe('7')
    const latency = (await dataOf(wide, '&data_column=latency')).figures!
    expect(latency.nulls).toBe(1)
    expect(latency.values).toBe(2)
    expect(latency.max).toBe('3.25')
    const ts = (await dataOf(wide, '&data_column=ts')).figures!
    expect(ts.kind).toBe('time')
    expect(ts.max).toBe(engineText(at(60)))
  })

  it('an unknown column asks nothing', async () => {
    expect((await dataOf(logs, '&data_column=nope')).figures).toBeNull()
  })
})

describe('is data arriving', () => {
  it('counts the last hour per minute and the day per hour, and names the newest timestamp and its age', async () => {
    const arrival = (await dataOf(logs)).arrival!
    expect(arrival.lastHour).toBe(70)
    expect(arrival.lastDay).toBe(70)
    expect(arrival.minutes).toHaveLength(60)
    expect(arrival.hours).toHaveLength(24)
    expect(arrival.minutes.reduce((a, b) => a + b, 0)).toBe(70)
    expect(arrival.newest).toBe(engineText(at(5)))
    expect(arrival.ageText).toMatch(/^\d+ seconds? ago$/)
    expect(arrival.isEmpty).toBe(false)
    expect(arrival.cost.rowsRead).toBeGreaterThan(0)
  })

  it('an empty table says so (and reads no further than it must)', async () => {
    const data = await dataOf(empty)
    expect(data.arrival!.isEmpty).toBe(true)
    expect(data.rows!.isEmpty).toBe(true)
    expect(data.rows!.steps).toEqual(['the last hour', 'the last day', 'the last 7 days', 'all time'])
  })

  it("lists the table's auto batch entry with its state", async () => {
    const data = await dataOf(wide)
    expect(data.ingest.entries).toEqual([
      expect.objectContaining({ kind: 'autobatch', name: 's3://bucket/wide/', state: 'On' }),
    ])
    expect(data.ingest.sourcesError).toBeNull()
  })
})

describe('with fewer rights than an admin', () => {
  it('a reader sees the rows and the figures', async () => {
    const data = await dataOf(logs, '&data_column=level', cookies.reader)
    expect(data.rows!.rows).toHaveLength(50)
    expect(data.figures!.denied).toBeNull()
  })

  it('a role without select_sql gets the page with each part marked, never a 500', async () => {
    const data = await dataOf(logs, '&data_column=level', cookies.blind)
    expect(data.rows!.denied).toMatch(/cannot read the rows of data_part\.logs/)
    expect(data.arrival!.denied).toMatch(/select_sql/)
    expect(data.rows!.rows).toEqual([])
  })

  it("a project-scoped user reads their project's table; another project's table is not theirs to open", async () => {
    expect((await dataOf(logs, '', cookies.scoped)).rows!.rows).toHaveLength(50)
    const thrown = await returnedOrThrown(() => dataOf(other, '', cookies.scoped))
    // the page itself is refused (its error boundary says so), as before this part existed
    expect(thrown).toMatchObject({ init: { status: 403 } })
  })
})

describe('helpers', () => {
  it('column kinds, ages and engine times', () => {
    expect(columnKind('Nullable(UInt64)')).toBe('number')
    expect(columnKind("DateTime64(3, 'UTC')")).toBe('time')
    expect(columnKind('LowCardinality(Nullable(String))')).toBe('string')
    expect(columnKind('Array(String)')).toBe('other')
    expect(ageText(59_000)).toBe('59 seconds ago')
    expect(ageText(3 * 3_600_000 + 5)).toBe('3 hours ago')
    expect(ageText(-86_400_000)).toBe('1 day ahead of now')
    expect(engineTimeMs('2026-12-02 06:18:00.123456')).toBe(Date.parse('2026-12-02T06:18:00.123Z'))
  })
})
