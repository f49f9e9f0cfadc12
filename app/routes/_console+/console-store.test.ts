import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { SAMPLE_TRANSFORM } from './data+/__load-sample.server'
import { loader as dashboardLoader } from './dashboard'
import { loader as alterJobLoader } from './jobs+/alter-jobs.create'
import { loader as batchJobLoader } from './jobs+/batch-jobs.create'
import { loader as newViewLoader } from './data+/new-view'

useTestCluster()

/*
 * Issue 36, item 6: the console's own store (project cluster_console) is not the user's data: no
 * table picker offers it and the dashboard's counts leave it out.
 */

let cookie = ''

async function projectWithTable(project: string, table: string) {
  const { uuid } = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: project })
  const made = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${uuid}/tables/`, {
    name: table,
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${uuid}/tables/${made.uuid}/transforms/`, {
    ...SAMPLE_TRANSFORM,
    name: `${table}_json`,
  })
}

beforeAll(async () => {
  cookie = await loginAsAdmin()
  await projectWithTable('cluster_console', 'query_history')
  await projectWithTable('mine', 'events')
})

describe("the console's own store", () => {
  it("the dashboard's project, table and transform counts leave it out", async () => {
    const data = await dashboardLoader(args(get('/dashboard', cookie)))
    const byLabel = Object.fromEntries(data.resources.map((card) => [card.label, card.value]))
    expect(byLabel).toMatchObject({ Projects: 1, Tables: 1, Transforms: 1 })
  })

  it('table pickers do not offer it (alter job, batch job, new view)', async () => {
    const alter = await alterJobLoader(args(get('/jobs/alter-jobs/create', cookie)))
    expect(alter.tables).toEqual(['mine.events'])
    const batch = await batchJobLoader(args(get('/jobs/batch-jobs/create', cookie)))
    expect(batch.tables.map((table) => table.value)).toEqual(['mine.events'])
    const view = await newViewLoader(args(get('/data/new-view', cookie)))
    expect(view.search?.choices.map((choice) => `${choice.project}.${choice.name}`)).toEqual(['mine.events'])
  })
})
