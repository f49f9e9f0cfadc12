/**
 * Issue 33 (decision 087): the tables list's first page without a filter reads the first projects'
 * tables until the page is full, not a count of every project. On an org whose first project (by
 * name) holds more tables than a page, it reads that project's list alone and says more follow
 * without a total; later pages know their place and the total; a page that reads every project
 * knows the total exactly. Rendered as a browser without scripts gets it: a "Next page" link.
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { callPaths, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { Pagination } from '~/components/data-table/pagination'
import { loader } from './tables._index'

vi.mock('@remix-run/react', async (importOriginal) => ({
  ...(await (await import('#tests/remix-plain')).plainRemixReact(importOriginal)),
  useSubmit: () => () => {},
}))

useTestCluster()

let cookie: string
const FIRST = 30
const others = ['aa_01', 'aa_02', 'aa_03']
const tableName = (index: number) => `first_${String(index).padStart(2, '0')}`

beforeAll(async () => {
  cookie = await loginAsAdmin()
  const first = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'aa_00' })
  for (let index = 0; index < FIRST; index++)
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${first.uuid}/tables/`, { name: tableName(index) })
  for (const name of others) {
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name })
    // aa_02 stays empty: one row saying so
    if (name !== 'aa_02')
      await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, { name: `${name}_t` })
  }
}, 120_000)

/** The paths of the table-list calls (`…/tables/`) that `load` makes. */
const tableListCalls = (load: () => Promise<unknown>) => callPaths(load, (path) => path.endsWith('/tables/'))

type Data = Awaited<ReturnType<typeof loader>>

describe('the tables list, first page (issue 33)', () => {
  it('reads the first project alone when it fills the page, and says more follow without a total', async () => {
    let data: Data | undefined
    const calls = await tableListCalls(async () => {
      data = await loader(args(get('/data/tables?pageSize=25', cookie)))
    })
    expect(calls).toHaveLength(1)
    expect(data!.rows.map((row) => row.table?.name)).toEqual(Array.from({ length: 25 }, (_, index) => tableName(index)))
    expect(data!).toMatchObject({ page: 1, pageCount: null, total: null, tableCount: null })

    const html = renderToString(
      <ChakraProvider value={system}>
        <Pagination
          page={data!.page}
          pageCount={data!.pageCount}
          pageSize={data!.pageSize}
          total={data!.total}
          searchParams={new URLSearchParams('pageSize=25')}
        />
      </ChakraProvider>,
    )
    const text = html.replace(/<!-- -->/g, '')
    expect(text).toContain('Showing 1–25 of more than 25 rows')
    expect(text).toContain('Page 1<')
    expect(text).toMatch(/href="\?pageSize=25&amp;page=2"[^>]*>Next page/)
  })

  it('a later page knows its place and the total; with the first, every row once in order', async () => {
    const second = await loader(args(get('/data/tables?pageSize=25&page=2', cookie)))
    expect(second.total).not.toBeNull()
    expect(second.pageCount).toBe(Math.ceil(second.total! / 25))
    const rows = [...(await loader(args(get('/data/tables?pageSize=25', cookie)))).rows]
    for (let page = 2; page <= second.pageCount!; page++)
      rows.push(...(await loader(args(get(`/data/tables?pageSize=25&page=${page}`, cookie)))).rows)
    expect(rows).toHaveLength(second.total!)
    const names = rows.map((row) => row.table?.name ?? `(none in ${row.projectName})`)
    expect(names.slice(0, FIRST + 3)).toEqual([
      ...Array.from({ length: FIRST }, (_, index) => tableName(index)),
      'aa_01_t',
      '(none in aa_02)',
      'aa_03_t',
    ])
  })

  it('a first page that holds every project counts exactly, in a few reads', async () => {
    const all = await loader(args(get('/data/tables?pageSize=100', cookie)))
    const projects = all.projectCount
    expect(all.pageCount).toBe(1)
    expect(all.total).toBe(all.rows.length)
    expect(all.tableCount).toBe(all.rows.filter((row) => row.table).length)
    expect(all.rows.filter((row) => row.projectName.startsWith('aa_'))).toHaveLength(FIRST + 3)
    expect(projects).toBeGreaterThanOrEqual(4)
  })
})
