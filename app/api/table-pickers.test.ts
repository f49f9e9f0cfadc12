import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { loader as editorLoader } from '~/routes/_console+/queries+/_index'
import { loader as schemaLoader } from '~/routes/resources+/query-schema'
import { loader as searchLoader } from '~/routes/resources+/table-search'
import { loader as poolCreateLoader } from '~/routes/_console+/scale+/pool.create'
import { loader as transformLoader } from '~/routes/_console+/data+/new-transform'
import { loader as scaleLoader } from '~/routes/_console+/scale+/_index'
import { loader as tablesLoader } from '~/routes/_console+/data+/tables._index'
import { loader as referenceLoader } from '~/routes/_console+/queries+/reference'
import { requireApi } from './client.server'
import { findTable, forgetTableProjects } from './tables.server'
import { PICKER_LIMIT } from './table-search.server'

/**
 * Issue 33: the table pickers and the schema tree at more tables than a picker lists. One project of
 * 60 tables (more than the 50 a picker lists), each with a transform: choices beyond the first page
 * of results, a search that finds nothing, the tree opened a part at a time.
 */
useTestCluster()

const TABLES = 60
let cookie: string
let projectId: string
const ids: string[] = []
const name = (index: number) => `pick_${String(index).padStart(3, '0')}`

beforeAll(async () => {
  cookie = await loginAsAdmin()
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'many' })
  projectId = project.uuid
  for (let index = 0; index < TABLES; index++) {
    const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: name(index),
    })
    ids.push(table.uuid)
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/${table.uuid}/transforms/`, {
      name: `${name(index)}_json`,
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
          { name: `field_${index}`, datatype: { type: 'string' } },
        ],
      },
    })
  }
}, 120_000)

async function json(response: Response | Promise<Response>) {
  return (await response).json()
}

describe('the query page table picker (issue 33)', () => {
  it('lists a short first page without a search, not every table', async () => {
    const { picker } = await editorLoader(args(get('/queries', cookie)))
    expect(picker.choices).toHaveLength(PICKER_LIMIT)
    expect(picker.hasMore).toBe(true)
    expect(picker.selected).toBeNull()
  })

  it('finds a table past the first page by search, and keeps a chosen one the search does not list', async () => {
    const found = await editorLoader(args(get(`/queries?table_q=${name(57)}`, cookie)))
    expect(found.picker.choices.map((choice) => choice.name)).toEqual([name(57)])
    expect(found.picker.hasMore).toBe(false)
    const chosen = await editorLoader(args(get(`/queries?table_id=${ids[59]}&table_q=${name(3)}`, cookie)))
    expect(chosen.picker.selected).toMatchObject({ uuid: ids[59], name: name(59), project: 'many' })
    expect(chosen.picker.choices.map((choice) => choice.name)).toEqual([name(3)])
    expect(chosen.sql).toBe(`SELECT * FROM many.${name(59)} LIMIT 100`)
  })

  it('says so when a search finds nothing', async () => {
    const { picker } = await editorLoader(args(get('/queries?table_q=no_such_table_here', cookie)))
    expect(picker).toMatchObject({ q: 'no_such_table_here', choices: [], hasMore: false, selected: null })
  })

  it('suggests as one types (with scripts): the same search as JSON', async () => {
    const answer = await json(searchLoader(args(get(`/resources/table-search?q=many.pick_05`, cookie))))
    expect(answer.choices.map((choice: { name: string }) => choice.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => name(50 + index)),
    )
    expect(await json(searchLoader(args(get('/resources/table-search?q=zzz', cookie))))).toEqual({
      choices: [],
      hasMore: false,
    })
  })
})

describe("the role form's scope picker as one types (issue 33)", () => {
  it('suggests scopes past the first page, the console store among them, and says when nothing matches', async () => {
    const search = (query: string) => json(searchLoader(args(get(`/resources/table-search?${query}`, cookie))))
    // a table past the first page of results, found as one types
    const found = await search(`q=${name(58)}&kind=scope`)
    expect(found).toEqual({
      choices: [{ uuid: ids[58], projectId, project: 'many', name: name(58) }],
      hasMore: false,
    })
    expect(await search('q=no_such_scope_table&kind=scope')).toEqual({ choices: [], hasMore: false })
    // a security scope may be the console's own store (decision 064), which other pickers leave out
    const [existing] = (
      await clusterCall<{ results: { uuid: string }[] }>('GET', '/config/v1/orgs/{org}/projects/?name=cluster_console')
    ).results
    const store =
      existing ??
      (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'cluster_console' }))
    const tables = await clusterCall<{ results: { name: string }[] }>(
      'GET',
      `/config/v1/orgs/{org}/projects/${store.uuid}/tables/?name=saved_queries`,
    )
    if (!tables.results.length)
      await clusterCall('POST', `/config/v1/orgs/{org}/projects/${store.uuid}/tables/`, { name: 'saved_queries' })
    const scoped = await search('q=cluster_console.saved_queries&kind=scope')
    expect(
      scoped.choices.map((choice: { project: string; name: string }) => `${choice.project}.${choice.name}`),
    ).toEqual(['cluster_console.saved_queries'])
    expect(await search('q=cluster_console.saved_queries')).toEqual({ choices: [], hasMore: false })
  })
})

describe('the schema tree, a part at a time (issue 33)', () => {
  it('opens a project and a table through the URL (without scripts) or the resource route (with)', async () => {
    const { schema } = await editorLoader(
      args(get(`/queries?schema_project=${projectId}&schema_table=${ids[42]}`, cookie)),
    )
    const many = schema!.projects.find((project) => project.uuid === projectId)!
    expect(many.tableCount).toBe(TABLES)
    expect(many.tables).toHaveLength(TABLES)
    expect(many.tables!.find((table) => table.uuid === ids[42])!.columns).toEqual([
      { name: 'timestamp', type: 'datetime' },
      { name: 'field_42', type: 'string' },
    ])
    expect(many.tables!.find((table) => table.uuid === ids[41])!.columns).toBeUndefined()

    const part = await json(schemaLoader(args(get(`/resources/query-schema?project=${projectId}`, cookie))))
    expect(part.tableCount).toBe(TABLES)
    expect(part.tables[0]).toEqual({ uuid: ids[0], name: name(0) })
    const columns = await json(
      schemaLoader(args(get(`/resources/query-schema?project=${projectId}&table=${ids[7]}`, cookie))),
    )
    expect(columns.columns.map((column: { name: string }) => column.name)).toEqual(['timestamp', 'field_7'])
    const missing = await schemaLoader(args(get('/resources/query-schema?project=nope', cookie)))
    expect(missing.status).toBe(404)
    // without a project: the tree's top (the projects, none opened), for the code fields' suggestions (decision 076)
    const top = await json(schemaLoader(args(get('/resources/query-schema', cookie))))
    expect(top.projects.find((project: { uuid: string }) => project.uuid === projectId)).toMatchObject({
      uuid: projectId,
    })
    expect(top.projects.every((project: { tables?: unknown }) => project.tables === undefined)).toBe(true)
  })
})

describe('the reference page (issue 33)', () => {
  it('describes the first tables and the one asked for, not every table; the columns of the one asked for only', async () => {
    const first = await referenceLoader(args(get('/queries/reference', cookie)))
    expect(first.tables.length).toBeLessThanOrEqual(20)
    expect(first.hasMore).toBe(true)
    const asked = await referenceLoader(args(get(`/queries/reference?table_id=${ids[59]}`, cookie)))
    expect(asked.tables[0]).toMatchObject({ uuid: ids[59], name: name(59) })
    expect(asked.tables[0]!.columns?.map((column) => column.name)).toEqual(['timestamp', 'field_59'])
    // the columns of the one asked for only: each other table's are a link away (a read each)
    expect(asked.tables.slice(1).every((table) => table.columns === null)).toBe(true)
    expect(first.tables.every((table) => table.columns === null)).toBe(true)
  })
})

describe('the form pickers (issue 33)', () => {
  it('the pool form offers what a search finds and the table chosen, with its transforms', async () => {
    const form = await poolCreateLoader(
      args(get(`/scale/pool/create?type=ingest&table=many.${name(58)}&table_q=${name(11)}`, cookie)),
    )
    expect(form.tables.map((entry) => entry.value)).toEqual([`many.${name(58)}`, `many.${name(11)}`])
    expect(form).toMatchObject({ table: `many.${name(58)}`, transform: `many.${name(58)}:${name(58)}_json` })
    const none = await poolCreateLoader(args(get('/scale/pool/create?table_q=nothing_matches', cookie)))
    expect(none.tables).toEqual([])
    expect(none.search).toMatchObject({ q: 'nothing_matches', choices: [], hasMore: false })
  })

  it('the transform form offers what a search finds and the table asked for', async () => {
    const form = await transformLoader(
      args(get(`/data/new-transform?project=${projectId}&table=${ids[55]}&table_q=${name(2)}`, cookie)),
    )
    expect(form.tables.map((entry) => entry.label)).toEqual([`many.${name(55)}`, `many.${name(2)}`])
    expect(form.chosen).toBe(`${projectId}/${ids[55]}`)
    const none = await transformLoader(args(get('/data/new-transform?table_q=nothing_matches', cookie)))
    expect(none.tables).toEqual([])
  })

  it('the ingest tab lists a short page of tables, not every table', async () => {
    const ingest = await scaleLoader(args(get('/scale', cookie)))
    expect(ingest.tables?.value?.length).toBeLessThanOrEqual(25)
  })
})

describe('the tables list, a page asked of the cluster (issue 33)', () => {
  it('reads only the page shown, in name order, and a later page holds the later tables', async () => {
    // the first page does not count the org (decision 087); the second knows the total
    const second = await tablesLoader(args(get('/data/tables?pageSize=25&page=2', cookie)))
    const mine = (rows: typeof second.rows) => rows.filter((row) => row.projectName === 'many')
    expect(second.tableCount).toBeGreaterThanOrEqual(TABLES)
    expect(second.pageCount).toBe(Math.ceil(second.total! / 25))
    const all = []
    for (let page = 1; page <= second.pageCount!; page++)
      all.push(...(await tablesLoader(args(get(`/data/tables?pageSize=25&page=${page}`, cookie)))).rows)
    expect(all).toHaveLength(second.total!)
    expect(mine(all).map((row) => row.table?.name)).toEqual(Array.from({ length: TABLES }, (_, index) => name(index)))
    const past = await tablesLoader(args(get('/data/tables?pageSize=25&page=999', cookie)))
    expect(past.page).toBe(second.pageCount)
  })

  it('a search narrows the list, and one that finds nothing says so with no rows', async () => {
    const found = await tablesLoader(args(get(`/data/tables?q=${name(44)}`, cookie)))
    expect(found.rows.map((row) => row.table?.name)).toEqual([name(44)])
    const none = await tablesLoader(args(get('/data/tables?q=nothing_matches', cookie)))
    expect(none).toMatchObject({ rows: [], total: 0 })
  })
})

describe('a table found by id without its project (issue 33)', () => {
  it('walks the projects once, then knows where the table is', async () => {
    forgetTableProjects()
    const api = await requireApi(get('/data/tables', cookie))
    const found = await findTable(api, ids[33]!)
    expect(found.table.name).toBe(name(33))
    expect(found.project.uuid).toBe(projectId)
    expect((await findTable(api, ids[33]!)).project.uuid).toBe(projectId)
  })
})
