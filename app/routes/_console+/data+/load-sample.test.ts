import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, queryCount } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, loginAsAdmin, post, responseFrom, returnedOrThrown } from '#tests/session'
import { SAMPLE_ROWS, sampleRows } from './__load-sample.server'
import { action as listAction, loader as listLoader } from './tables._index'
import { loader as detailLoader } from './tables.$tableId._index'

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const loadSample = (redirectTo = '/data/tables') =>
  returnedOrThrown(() => listAction(args(post('/data/tables?index', { intent: 'load-sample', redirectTo }, cookie))))

async function toastsOf(response: Response) {
  const { getToasts } = await import('~/utils/toast.server')
  return (await getToasts(new Request('http://x/', { headers: { Cookie: cookieFrom(response) } }))).toasts
}

type Listed = { results: { uuid: string; name: string }[] }
const projectsNamed = (name: string) => clusterCall<Listed>('GET', `/config/v1/orgs/{org}/projects/?name=${name}`)

describe('the sample rows', () => {
  it('are the same rows for the same time, newest first, over the day before it', () => {
    const now = new Date('2025-03-01T12:34:56Z')
    const rows = sampleRows(now)
    expect(rows).toHaveLength(SAMPLE_ROWS)
    expect(sampleRows(now)).toEqual(rows)
    const times = rows.map((row) => Date.parse(row.timestamp))
    expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime())
    expect(Math.min(...times)).toBeGreaterThan(now.getTime() - 86_400_000)
    expect(new Set(rows.map((row) => row.level))).toEqual(new Set(['debug', 'info', 'warn', 'error']))
    expect(rows.filter((row) => row.status >= 500).every((row) => row.level === 'error')).toBe(true)
  })
})

describe('Load the sample (POST /data/tables?index, intent load-sample)', () => {
  it('needs a session: without one it redirects to login', async () => {
    const thrown = await responseFrom(() => listAction(args(post('/data/tables?index', { intent: 'load-sample' }))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toMatch(/^\/login\?prevUrl=/)
  })

  it('reuses project sample, creates table logs with its transform, ingests the rows and lands on the table with a toast', async () => {
    const before = await listLoader(args(get('/data/tables', cookie)))
    expect(before.tableCount).toBe(0)
    const existing = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'sample' })

    const response = asResponse(await loadSample())
    expect(response.status).toBe(302)
    const location = response.headers.get('Location')!
    const [, tableId, projectId] = location.match(/^\/data\/tables\/([\w-]{36})\?project=([\w-]{36})$/)!
    expect(projectId).toBe(existing.uuid)
    expect((await projectsNamed('sample')).results).toHaveLength(1)
    expect(await toastsOf(response)).toEqual([
      expect.objectContaining({ type: 'success', title: `Sample loaded: ${SAMPLE_ROWS} rows in sample.logs` }),
    ])

    const detail = await detailLoader(args(get(location, cookie), { tableId: tableId! }))
    expect(detail.table).toMatchObject({ uuid: tableId, name: 'logs' })
    const transforms = await clusterCall<Listed>(
      'GET',
      `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`,
    )
    expect(transforms.results.map((transform) => transform.name)).toEqual(['logs_json'])
    expect(await queryCount('SELECT count() FROM sample.logs')).toBe(SAMPLE_ROWS)
    expect(await queryCount("SELECT count() FROM sample.logs WHERE level = 'error' AND status >= 500")).toBeGreaterThan(
      0,
    )

    const after = await listLoader(args(get('/data/tables', cookie)))
    expect(after.rows.map((row) => `${row.projectName}.${row.table?.name}`)).toEqual(['sample.logs'])
  })

  it('sent again, goes to the table it made without creating or ingesting twice', async () => {
    const response = asResponse(await loadSample())
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toMatch(/^\/data\/tables\/[\w-]{36}\?project=[\w-]{36}$/)
    expect(await toastsOf(response)).toEqual([
      expect.objectContaining({ type: 'info', title: 'The sample is already loaded: sample.logs' }),
    ])
    expect(await queryCount('SELECT count() FROM sample.logs')).toBe(SAMPLE_ROWS)
  })

  it('creates project sample when there is none', async () => {
    const { results } = await projectsNamed('sample')
    for (const project of results) {
      const tables = await clusterCall<Listed>('GET', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`)
      for (const table of tables.results)
        await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}`)
      await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${project.uuid}`)
    }
    const response = asResponse(await loadSample())
    expect(response.status).toBe(302)
    const made = (await projectsNamed('sample')).results
    expect(made).toHaveLength(1)
    expect(response.headers.get('Location')).toContain(`?project=${made[0]!.uuid}`)
    expect(await queryCount('SELECT count() FROM sample.logs')).toBe(SAMPLE_ROWS)
  })

  it("says a cluster failure in the catalogue's words on the page it came from, naming what it had made", async () => {
    const [project] = (await projectsNamed('sample')).results
    const tables = await clusterCall<Listed>('GET', `/config/v1/orgs/{org}/projects/${project!.uuid}/tables/`)
    for (const table of tables.results)
      await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${project!.uuid}/tables/${table.uuid}`)
    failWith(
      '/config/v1/orgs/:org/projects/:project/tables/:table/transforms/',
      409,
      { detail: 'A transform is being published.' },
      'post',
    )

    const response = asResponse(await loadSample('/dashboard'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/dashboard')
    const [toast] = await toastsOf(response)
    expect(toast).toMatchObject({ type: 'error', title: expect.stringMatching(/^The sample could not be loaded: /) })
    expect(`${toast!.title} ${toast!.description}`).toContain('A transform is being published.')
    expect(toast!.description).toContain('Created before the failure: table logs.')
  })

  it('sends a failure back only to a page of the console (redirectTo is checked)', async () => {
    failWith('/config/v1/orgs/:org/projects/', 503, {}, 'get')
    const response = asResponse(await loadSample('https://evil.example/'))
    expect(response.headers.get('Location')).not.toContain('evil.example')
    const [toast] = await toastsOf(response)
    expect(toast).toMatchObject({ type: 'error' })
  })
})
