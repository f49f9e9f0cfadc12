/** hdxcli's batch and alter jobs, on a table made as `hdxcli table create` and `transform create` make it. */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  c,
  HDX_HEADERS,
  type hdx,
  hdxcliLogin,
  HDXCLI_CSV_TRANSFORM,
  org,
  poll,
  raw,
  unwrapList,
  useContractCluster,
} from './helpers'

useContractCluster()

let tmp: string

beforeAll(() => {
  // the cluster reads local files only from its import directory (issue 49)
  tmp = fs.mkdtempSync(path.join(c.handler.state.options.importDir, 'contract-'))
})

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

describe('hdxcli', () => {
  let token: string
  let api: ReturnType<typeof hdx>

  beforeAll(async () => {
    ;({ token, api } = await hdxcliLogin())
    const project = await api.post(`/config/v1/orgs/${org}/projects/`, {
      name: 'hdx_project',
      description: 'Created with hdxcli tool',
    })
    const table = await api.post(`/config/v1/orgs/${org}/projects/${project.body.uuid}/tables/`, {
      name: 'hdx_table',
      description: 'Created with hdxcli tool',
    })
    const transform = await api.post(
      `/config/v1/orgs/${org}/projects/${project.body.uuid}/tables/${table.body.uuid}/transforms/`,
      { ...HDXCLI_CSV_TRANSFORM, name: 'hdx_csv' },
    )
    if (transform.status !== 201) throw new Error(`hdx_csv transform: ${transform.status} ${transform.text}`)
  })

  it('batch job: create from tests_data/batch-jobs, cancel, retry (job/batch/commands.py)', async () => {
    const files = path.join(tmp, 'batch')
    fs.mkdirSync(files)
    fs.writeFileSync(
      path.join(files, 'a.csv'),
      '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n18/07/2022 ' +
        '15:58,1.5,10.0.0.1,k,7,s,8\n19/07/2022 10:00,2.5,10.0.0.2,k2,9,t,10\n',
    )
    const jobsPath = `/config/v1/orgs/${org}/jobs/batch/`
    // body = file; body["settings"]["source"]["table"] = "project.table"; ["transform"] = default transform name
    const body = {
      type: 'batch_import',
      settings: {
        source: {
          table: 'hdx_project.hdx_table',
          type: 'batch',
          subtype: 'aws s3',
          transform: 'hdx_csv',
          settings: { url: files },
        },
      },
      name: 'hdx_batch',
    }
    // jobs run one at a time: a bigger job first keeps the runner busy, so the cancel below finds
    // hdx_batch still waiting (ready) rather than racing it to the end
    const bulk = path.join(tmp, 'bulk')
    fs.mkdirSync(bulk)
    for (let f = 0; f < 4; f++) {
      const lines = Array.from(
        { length: 20_000 },
        (_, i) =>
          `18/07/2022 ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${i},10.0.0.1,k${i},${i},s,${i}`,
      )
      fs.writeFileSync(
        path.join(bulk, `part-${f}.csv`),
        `_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n${lines.join('\n')}\n`,
      )
    }
    const blocker = await api.post(jobsPath, {
      ...body,
      name: 'hdx_bulk',
      settings: { source: { ...body.settings.source, settings: { url: bulk } } },
    })
    expect([200, 201]).toContain(blocker.status)
    const created = await api.post(jobsPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    // `job batch settings`: OPTIONS actions.POST walked like every resource's (read_only, type, children)
    const opts = await api.options(jobsPath)
    expect(opts.status).toBe(200)
    expect(opts.body.actions.POST.settings.children.source.children.settings.children.url.type).toBe('string')
    for (const v of Object.values<any>(opts.body.actions.POST)) expect(typeof v.read_only).toBe('boolean')
    // cancel: basic_show(list, name) -> uuid; basic_create(f"{path}{uuid}/cancel") posts the default json body
    const job = unwrapList((await api.get(jobsPath)).body).find((j) => j.name === 'hdx_batch')
    const cancel = await api.post(`${jobsPath}${job.uuid}/cancel`, {
      name: 'None',
      description: 'Created with hdxcli tool',
    })
    expect([200, 201], JSON.stringify(cancel.body)).toContain(cancel.status)
    const canceled = await poll(
      () => api.get(`${jobsPath}${job.uuid}`),
      (r) => ['canceled', 'done', 'failed'].includes(r.body.status),
    )
    expect(canceled.body.status).toBe('canceled')
    const retry = await api.post(`${jobsPath}${job.uuid}/retry`, {
      name: 'None',
      description: 'Created with hdxcli tool',
    })
    expect([200, 201], JSON.stringify(retry.body)).toContain(retry.status)
    const done = await poll(
      () => api.get(`${jobsPath}${job.uuid}`),
      (r) => ['canceled', 'done', 'failed'].includes(r.body.status),
      60_000,
    )
    expect(done.body.status, JSON.stringify(done.body)).toBe('done')
    // a cloud URL this machine cannot reach (tests_data url) fails the job with a message, never a 500
    const s3 = await api.post(jobsPath, {
      ...body,
      name: 'hdx_batch_s3',
      settings: {
        source: {
          ...body.settings.source,
          settings: { url: 's3://qe-datasets/every_datatype/json/every_datatype-data.json' },
        },
      },
    })
    expect([200, 201]).toContain(s3.status)
    const failed = await poll(
      () => api.get(`${jobsPath}${s3.body.uuid}`),
      (r) => ['canceled', 'done', 'failed'].includes(r.body.status),
    )
    expect(failed.body.status).toBe('failed')
    // purgejobs: rest_ops.create(purgejobs_url) with no body
    const purge = await api.post(`/config/v1/orgs/${org}/purgejobs/`)
    expect([200, 201]).toContain(purge.status)
  })

  it('alter job: raw ALTER TABLE text to /query with no content-type, list .results, commit, verify (job/alter/commands.py)', async () => {
    const ing = await raw('POST', '/ingest/event', {
      headers: {
        Authorization: `Bearer ${token}`,
        'x-hdx-table': 'hdx_project.hdx_table',
        'x-hdx-transform': 'hdx_csv',
        'content-type': 'text/csv',
      },
      body: '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n20/07/2022 15:58,1.5,10.0.0.1,alter-me,7,s,8\n',
    })
    expect(ing.status).toBe(200)
    // rest_ops.create(url, body=str, body_type='csv') -> requests.post(url, data=str): no Content-Type header
    const create = await raw('POST', '/query', {
      headers: HDX_HEADERS(token),
      body: "ALTER TABLE hdx_project.hdx_table UPDATE _string = 'changed' WHERE _key = 'alter-me'",
    })
    expect([200, 201], create.text).toContain(create.status)
    const alterPath = `/config/v1/orgs/${org}/jobs/alter/`
    // get_resource_list(...).get('results'): the alter list is always a page
    const list = await api.get(alterPath)
    expect(Array.isArray(list.body.results)).toBe(true)
    const job = list.body.results[0]
    expect(typeof job.name).toBe('string')
    expect(job.settings.project_name).toBe('hdx_project')
    expect(job.settings.table_name).toBe('hdx_table')
    const pending = await poll(
      () => api.get(`${alterPath}${job.uuid}`),
      (r) => ['pending', 'failed'].includes(r.body.status),
    )
    expect(pending.body.status).toBe('pending')
    // perform_alter_job: rest_ops.create(f'{path}{uuid}/commit') -> requests.post(url, json=None): no body
    const commit = await api.post(`${alterPath}${job.uuid}/commit`)
    expect([200, 201], JSON.stringify(commit.body)).toContain(commit.status)
    const done = await poll(
      () => api.get(`${alterPath}${job.uuid}`),
      (r) => ['done', 'failed'].includes(r.body.status),
    )
    expect(done.body.status).toBe('done')
    // verify_alter: get(f'{path}{uuid}/verify/').get('results')[0]
    const verify = await api.get(`${alterPath}${job.uuid}/verify/`)
    expect(verify.status).toBe(200)
    expect(verify.body.results[0]).toBeTypeOf('object')
    // delete_alter: DELETE {path}{uuid} -> 204
    expect((await api.delete(`${alterPath}${job.uuid}`)).status).toBe(204)
  })
})
