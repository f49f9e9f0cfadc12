import type { Location, ShouldRevalidateFunctionArgs } from '@remix-run/react'
import { http } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, responseFrom, unwrap } from '#tests/session'
import { loader as chartLoader } from '../../resources+/query-chart'
import { loader as csvLoader } from '../../resources+/query-csv'
import { action as resultAction, handle as resultHandle, loader as resultLoader, shouldRevalidate } from '../result'
import { action as editorAction, loader as editorLoader } from './_index'
import { editorLink } from '~/utils/query-options'

const cluster = useTestCluster()

let cookie: string

const PER_MINUTE =
  'SELECT toStartOfMinute(timestamp) AS minute, count() AS requests FROM charts.access GROUP BY minute ORDER BY minute'
const BY_STATUS = 'SELECT count() AS c FROM charts.access WHERE status = {status:UInt16}'

beforeAll(async () => {
  cookie = await loginAsAdmin()
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'charts' })
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
  const rows = [
    ['2026-12-02 06:00:10', 200],
    ['2026-12-02 06:00:20', 200],
    ['2026-12-02 06:00:30', 404],
    ['2026-12-02 06:01:10', 200],
    ['2026-12-02 06:02:10', 500],
    ['2026-12-02 06:02:20', 200],
  ].map(([timestamp, status]) => ({ timestamp, status, path: '/a' }))
  await clusterCall('POST', '/ingest/event', JSON.stringify(rows), {
    'x-hdx-table': 'charts.access',
    'x-hdx-transform': 'access_json',
  })
})

async function result(search: Record<string, string> | URLSearchParams) {
  return unwrap(await resultLoader(args(get(`/result?${new URLSearchParams(search)}`, cookie))))
}

/** The user's query calls (not the console's own reads): their URL and their SQL. */
function recordQueryCalls(): { url: URL; sql: string }[] {
  const seen: { url: URL; sql: string }[] = []
  server.use(
    http.post(`${TEST_CLUSTER_URL}/query`, async ({ request }) => {
      const url = new URL(request.url)
      if (url.searchParams.get('hdx_query_label') !== 'cluster-console')
        seen.push({ url, sql: await request.clone().text() })
      return cluster().handler(request)
    }),
  )
  return seen
}

const countOf = (page: Awaited<ReturnType<typeof result>>) =>
  page.data.outcome?.kind === 'rows' ? page.data.outcome.rows[0]![0] : page.data.outcome

describe('typed query parameters', () => {
  it('go to the cluster as param_<name> beside the SQL, never in it, and count as the same query with the value written in', async () => {
    const seen = recordQueryCalls()
    const bound = await result({ sql: BY_STATUS, param_status: '200' })
    expect(bound.status).toBe(200)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url.searchParams.get('param_status')).toBe('200')
    // the statement the cluster received is the one typed: the value is not spliced into it
    expect(seen[0]!.sql).toBe(BY_STATUS)
    const written = await result({ sql: BY_STATUS.replace('{status:UInt16}', '200') })
    expect(countOf(bound)).toBe('4')
    expect(countOf(written)).toBe('4')
    // the loader keeps the value with the options, not trimmed
    expect(bound.data.options).toEqual({ param_status: '200' })
  })

  it("a value that does not fit its type gets the cluster's message on that parameter's input", async () => {
    const refused = await result({ sql: BY_STATUS, param_status: 'abc' })
    expect(refused.status).toBe(400)
    const message = refused.data.outcome?.kind === 'error' ? refused.data.outcome.message : ''
    expect(message).toMatch(/Value abc cannot be parsed as UInt16 for query parameter 'status'/)
    const view = resultHandle.workspaceView!({
      data: refused.data,
      actionData: undefined,
      location: { pathname: '/result', search: '', hash: '', state: null, key: 'x' } as Location,
    })
    expect(view.editor.paramErrors).toEqual({ status: message })
    // a message about something else stays under the editor, on no input
    const other = await result({ sql: `${BY_STATUS} AND nope = 1`, param_status: '200' })
    const otherView = resultHandle.workspaceView!({
      data: other.data,
      actionData: undefined,
      location: { pathname: '/result', search: '', hash: '', state: null, key: 'x' } as Location,
    })
    expect(otherView.editor.paramErrors).toBeUndefined()
  })

  it('the Run form carries them into its link (an empty one too), and a download sends them', async () => {
    const response = await responseFrom(() =>
      resultAction(args(post('/result', { sql: BY_STATUS, param_status: '404', param_unused: '' }, cookie))),
    )
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('Location')!, 'http://console.test')
    expect(location.searchParams.get('param_status')).toBe('404')
    expect(location.searchParams.get('param_unused')).toBe('')
    const page = await result(location.searchParams)
    expect(countOf(page)).toBe('1')
    const csv = await csvLoader(
      args(get(`/resources/query-csv?${new URLSearchParams({ sql: BY_STATUS, param_status: '500' })}`, cookie)),
    )
    expect(await (csv as Response).text()).toBe('"c"\n1\n')
  })
})

describe('charts of a result', () => {
  it('the Chart tab draws the whole run as a line over time, from the run it shows (nothing runs again)', async () => {
    const seen = recordQueryCalls()
    const first = await result({ sql: PER_MINUTE })
    const runId = first.data.runId
    const chart = await result({ sql: PER_MINUTE, run: runId, tab: 'chart' })
    expect(seen).toHaveLength(1)
    expect(chart.data.chart?.data?.spec).toEqual({ kind: 'line', x: 'minute', y: ['requests'], split: null })
    expect(chart.data.chart?.data?.series).toEqual([
      {
        name: 'requests',
        x: [Date.UTC(2026, 11, 2, 6, 0), Date.UTC(2026, 11, 2, 6, 1), Date.UTC(2026, 11, 2, 6, 2)],
        y: [3, 1, 2],
      },
    ])
    expect(chart.data.chart?.svg).toContain('<title id="query-chart-title">Line chart: requests by minute</title>')
    // the choice in the URL: bars
    const bars = await result({ sql: PER_MINUTE, run: runId, tab: 'chart', chart: 'bar' })
    expect(bars.data.chart?.data?.spec.kind).toBe('bar')
    expect(bars.data.chart?.svg).toMatch(/data-chart-kind="bar"/)
    expect(seen).toHaveLength(1)
    // the other tabs do not draw it
    const rows = await result({ sql: PER_MINUTE, run: runId, chart: 'bar' })
    expect(rows.data.chart).toBeNull()
  })

  it('a Run from the chart stays on it with its choice; a Run from another tab drops the choice', async () => {
    const fields = { sql: PER_MINUTE, tab: 'chart', chart: 'bar', x: 'minute', y: 'requests', split: '' }
    const onChart = await responseFrom(() => resultAction(args(post('/result', fields, cookie))))
    const location = new URL(onChart.headers.get('Location')!, 'http://console.test')
    expect([...location.searchParams].filter(([name]) => name !== 'run')).toEqual([
      ['sql', PER_MINUTE],
      ['tab', 'chart'],
      ['chart', 'bar'],
      ['x', 'minute'],
      ['y', 'requests'],
      ['split', ''],
    ])
    const page = await result(location.searchParams)
    expect(page.data.view).toEqual([...location.searchParams].filter(([name]) => name !== 'run' && name !== 'sql'))
    const offChart = await responseFrom(() =>
      resultAction(args(post('/result', { ...fields, tab: 'statistics' }, cookie))),
    )
    expect(offChart.headers.get('Location')).toMatch(/^\/result\?sql=[^&]+&run=[^&#]+#result$/)
  })

  it('going to the chart or changing it loads it; leaving it for Results keeps the loaded run', () => {
    const revalidates = (from: string, to: string) =>
      shouldRevalidate({
        currentUrl: new URL(`http://console.test/result?sql=SELECT+1&run=r${from}`),
        nextUrl: new URL(`http://console.test/result?sql=SELECT+1&run=r${to}`),
        defaultShouldRevalidate: true,
      } as ShouldRevalidateFunctionArgs)
    expect(revalidates('', '&tab=chart')).toBe(true)
    expect(revalidates('&tab=chart&chart=line', '&tab=chart&chart=bar')).toBe(true)
    expect(revalidates('&tab=chart&chart=bar', '')).toBe(false)
    expect(revalidates('&tab=chart&chart=bar', '&tab=statistics')).toBe(false)
    expect(revalidates('', '&tab=statistics')).toBe(false)
  })

  it('/resources/query-chart is the same chart as an SVG image of its own, with a link to the data', async () => {
    const response = (await chartLoader(
      args(get(`/resources/query-chart?${new URLSearchParams({ sql: PER_MINUTE, chart: 'scatter' })}`, cookie)),
    )) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('image/svg+xml; charset=utf-8')
    const svg = await response.text()
    expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svg).toContain('<title id="query-chart-title">Scatter chart: requests by minute</title>')
    expect(svg).toMatch(/<a href="\/result\?sql=SELECT[^"]*&#38;run=[0-9a-f-]{36}#result"><text/)
    // a statement that changes data never runs from an image link
    const change = (await chartLoader(
      args(get(`/resources/query-chart?${new URLSearchParams({ sql: 'DROP TABLE charts.access' })}`, cookie)),
    )) as Response
    expect(change.status).toBe(400)
  })
})

describe('saved queries and the history keep parameters and the chart', () => {
  it('a save keeps them; its editor opens with them and its Run carries them', async () => {
    const response = await responseFrom(() =>
      editorAction(
        args(
          post(
            '/queries?index',
            {
              sql: BY_STATUS,
              name: 'By status',
              intent: 'save',
              param_status: '200',
              tab: 'chart',
              chart: 'bar',
              hdx_query_comment: '',
            },
            cookie,
          ),
        ),
      ),
    )
    expect(response.status).toBe(302)
    const location = response.headers.get('Location')!
    const opened = unwrap(await editorLoader(args(get(location, cookie)))).data
    expect(opened.sql).toBe(BY_STATUS)
    expect(opened.options).toEqual({ param_status: '200' })
    expect(opened.view).toEqual([
      ['tab', 'chart'],
      ['chart', 'bar'],
    ])
  })

  it("a Run's history entry keeps them too: its link opens the editor with the same parameters and chart", async () => {
    // the store exists now (the save above): a Run is recorded before its redirect
    const sql = `${BY_STATUS} -- history ${Date.now()}`
    const response = await responseFrom(() =>
      resultAction(args(post('/result', { sql, param_status: '404', tab: 'chart', chart: 'bar' }, cookie))),
    )
    expect(response.status).toBe(302)
    const page = unwrap(await editorLoader(args(get('/queries', cookie)))).data
    const entry = page.history.find((one) => one.sql === sql)
    expect(entry?.options).toBe('param_status=404&tab=chart&chart=bar')
    const reopened = unwrap(await editorLoader(args(get(editorLink(sql, entry!.options), cookie)))).data
    expect(reopened.options).toEqual({ param_status: '404' })
    expect(reopened.view).toEqual([
      ['tab', 'chart'],
      ['chart', 'bar'],
    ])
  })
})
