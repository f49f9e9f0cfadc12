/**
 * hdxcli's suite, "Batch jobs can be listed", on a cluster as it is served (its batch jobs wait for
 * a bucket they cannot reach, decision 058): the job of global_setup is listed, and the job that
 * "Batch jobs can be started" made and its teardown canceled is listed as canceled (issue 50).
 * The other cases: hdxcli-suite.test.ts.
 */
import { expect, it } from 'vitest'
import { hdxcliLogin, HDXCLI_CSV_TRANSFORM, org, unwrapList, useContractCluster } from './helpers'

useContractCluster({ batchSourceWaitMs: 60_000 })

it('Batch jobs can be listed: the job, and a job canceled while it waited for its bucket listed as canceled', async () => {
  const { api } = await hdxcliLogin()
  const o = `/config/v1/orgs/${org}`
  const p = await api.post(`${o}/projects/`, { name: 'test_ci_project', description: 'Created with hdxcli tool' })
  const t = await api.post(`${o}/projects/${p.body.uuid}/tables/`, { name: 'test_ci_table' })
  await api.post(`${o}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`, {
    ...HDXCLI_CSV_TRANSFORM,
    name: 'test_ci_transform',
  })
  // tests_data/batch-jobs/batch_job_ci_settings.json, as `job batch ingest` sends it
  const job = (name: string) => ({
    type: 'batch_import',
    name,
    settings: {
      source: {
        table: 'test_ci_project.test_ci_table',
        type: 'batch',
        subtype: 'aws s3',
        transform: 'test_ci_transform',
        settings: { url: 's3://qe-datasets/every_datatype/json/every_datatype-data.json', cloud: 'aws' },
      },
    },
  })
  const path = `${o}/jobs/batch/`
  expect((await api.post(path, job('test_ci_batch_job'))).status).toBe(201)
  const started = await api.post(path, job('test_batch_job'))
  expect(started.body.status).toBe('ready')
  // the teardown: job batch cancel test_batch_job (a 2xx prints "Cancelled test_batch_job")
  expect((await api.post(`${path}${started.body.uuid}/cancel`)).status).toBe(200)
  const listed = unwrapList((await api.get(path)).body)
  // `job batch list` prints each name; the suite's expression
  const result = listed.map((j) => j.name).join('\n')
  expect(result.includes('test_ci_batch_job')).toBe(true)
  expect(listed.map((j) => [j.name, j.status])).toEqual([
    ['test_batch_job', 'canceled'],
    ['test_ci_batch_job', 'ready'],
  ])
  // the suite also expects "load-sample-project" in the list: a job Hydrolix's own CI cluster holds,
  // which neither the CLI nor the suite creates
})
