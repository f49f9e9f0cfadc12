import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { callPaths, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { loader as functionsLoader } from './functions._index'
import { loader as dictionariesLoader } from './dictionaries._index'
import { loader as referenceLoader } from '../queries+/reference'
import { REFERENCE_ALL_PROJECTS } from '~/services/query/schema.server'
import { CATALOG_PROJECTS_PER_PAGE } from '~/utils/catalog-projects'

/**
 * Issue 33: the catalog lists and the query reference on an org of more projects than the reference
 * catalogues whole. A project filter reads that project only; the reference reads the functions and
 * dictionaries of the projects whose tables it describes, and says so.
 */
useTestCluster()

let cookie: string
const projects: { uuid: string; name: string }[] = []
const PROJECTS = REFERENCE_ALL_PROJECTS + 2

beforeAll(async () => {
  cookie = await loginAsAdmin()
  for (let index = 0; index < PROJECTS; index++) {
    const name = `cat_${String(index).padStart(2, '0')}`
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name })
    projects.push({ uuid: project.uuid, name })
    await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/functions/`, {
      name: `fn_${index}`,
      sql: `x -> x + ${index}`,
    })
  }
  // the first project holds the org's only table: the reference describes it
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projects[0]!.uuid}/tables/`, { name: 'only_table' })
}, 60_000)

/** The paths of the cluster calls `load` makes that end in `/{kind}/` (a project's list). */
const listCalls = (kind: 'functions' | 'dictionaries', load: () => Promise<unknown>) =>
  callPaths(load, (path) => path.endsWith(`/${kind}/`) || path.endsWith(`/${kind}`))

describe('a catalog list filtered by project (issue 33)', () => {
  it('functions: reads that project only, and counts its functions', async () => {
    const chosen = projects[3]!
    let data: Awaited<ReturnType<typeof functionsLoader>> | undefined
    const calls = await listCalls('functions', async () => {
      data = await functionsLoader(args(get(`/data/functions?project=${chosen.uuid}`, cookie)))
    })
    expect(calls).toHaveLength(1)
    expect(calls[0]).toContain(`/projects/${chosen.uuid}/functions`)
    expect(data!.rows.map((row) => row.name)).toEqual(['fn_3'])
    expect(data!).toMatchObject({ itemCount: 1, projectName: chosen.name })
    // the filter still offers every project
    expect(data!.projects.map((project) => project.name)).toEqual(projects.map((project) => project.name))

    const all = await listCalls('functions', async () => {
      data = await functionsLoader(args(get('/data/functions', cookie)))
    })
    // unfiltered, a larger org is read a window of projects at a time (decision 088)
    expect(all).toHaveLength(Math.min(PROJECTS, CATALOG_PROJECTS_PER_PAGE))
    expect(data!).toMatchObject({ itemCount: Math.min(PROJECTS, CATALOG_PROJECTS_PER_PAGE), projectName: null })
  })

  it('functions: a project id the org lacks reads no project and lists nothing', async () => {
    let data: Awaited<ReturnType<typeof functionsLoader>> | undefined
    const calls = await listCalls('functions', async () => {
      data = await functionsLoader(args(get('/data/functions?project=no-such-project', cookie)))
    })
    expect(calls).toEqual([])
    expect(data!).toMatchObject({ total: 0, itemCount: 0, projectName: null })
  })

  it('dictionaries: reads that project only', async () => {
    const chosen = projects[5]!
    let data: Awaited<ReturnType<typeof dictionariesLoader>> | undefined
    const calls = await listCalls('dictionaries', async () => {
      data = await dictionariesLoader(args(get(`/data/dictionaries?project=${chosen.uuid}`, cookie)))
    })
    expect(calls).toHaveLength(1)
    expect(calls[0]).toContain(`/projects/${chosen.uuid}/dictionaries`)
    expect(data!).toMatchObject({ total: 0, itemCount: 0, projectName: chosen.name })
  })
})

describe('the query reference past a few projects (issue 33)', () => {
  it('lists the functions of the projects whose tables it describes, reads no other, and says so', async () => {
    let data: Awaited<ReturnType<typeof referenceLoader>> | undefined
    const functionCalls = await listCalls('functions', async () => {
      data = await referenceLoader(args(get('/queries/reference', cookie)))
    })
    expect(data!.tables.map((table) => `${table.project}.${table.name}`)).toEqual(['cat_00.only_table'])
    expect(functionCalls).toHaveLength(1)
    expect(functionCalls[0]).toContain(`/projects/${projects[0]!.uuid}/functions`)
    expect(data!.functions.map((fn) => fn.name)).toEqual(['fn_0'])
    expect(data!.catalogProjects).toEqual(['cat_00'])
  })
})
