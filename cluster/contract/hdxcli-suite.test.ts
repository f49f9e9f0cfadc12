/**
 * The six cases of hdxcli's approval suite (tests/command_line_interface/test_cases/
 * test_read_only_flows.toml in hydrolix/hdxcli) that still failed on the local cluster (issue 50):
 * project and table activity, batch job list, cancel and settings, and function settings. Each
 * replays the CLI's requests and builds the text the CLI prints from the answers, then checks the
 * suite's own expression against it (the expected outputs there are a real cluster's).
 *
 * What the CLI prints, as its code does it (cli_interface/common): `settings` prints a
 * name/type/value header, then one row per field of OPTIONS `actions.POST` that is not read-only
 * (nested objects walked), with the resource's value as JSON; `job batch list` prints each job's
 * name; `cancel` and `retry` print `Cancelled X` / `Retrying X` after any 2xx; `activity` prints
 * the entries' Created, User and Action (and, as a real cluster's entries hold them, the object's
 * name and description).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type hdx, hdxcliLogin, HDXCLI_CSV_TRANSFORM, org, unwrapList, useContractCluster } from './helpers'

// a test cluster's batch wait is 0: a job on an unreachable bucket fails at once, as it does on a
// served cluster once its wait is over (decision 058), which is what the suite's later cases meet
useContractCluster()

let api: ReturnType<typeof hdx>
const o = () => `/config/v1/orgs/${org}`
let projectId: string
let tableId: string

/** `hdx_cli ... settings` with no key: the header and one row per writable field (basic_settings). */
function settingsText(actions: Record<string, any>, resource: Record<string, any>): string {
  const lines = ['-'.repeat(160), `${'name'.padEnd(90)}${'type'.padEnd(30)}${'value'.padEnd(40)}`, '-'.repeat(160)]
  const walk = (fields: Record<string, any>, prefix: string[]) => {
    for (const [name, field] of Object.entries(fields)) {
      if (field.read_only) continue
      const at = [...prefix, name]
      if (field.type === 'nested object' && field.children) {
        walk(field.children, at)
        continue
      }
      let value: unknown = resource
      for (const key of at) {
        if (value === null) break
        value = typeof value === 'object' && key in (value as object) ? (value as any)[key] : '(Key absent)'
        if (value === '(Key absent)') break
      }
      lines.push(`${at.join('.').padEnd(90)}${String(field.type).padEnd(30)}${JSON.stringify(value)}`)
    }
  }
  walk(actions, [])
  return lines.join('\n')
}

/** `hdx_cli ... activity`: the entries as Created / User / Action (and the object's name and description). */
function activityText(entries: any[]): string {
  const rows = entries.map((e) => [e.created, e.user, e.action, e.name, e.description].map(String).join('  '))
  return [['Created', 'User', 'Action', 'Name', 'Description'].join('  '), ...rows].join('\n')
}

beforeAll(async () => {
  ;({ api } = await hdxcliLogin())
  // global_setup: project create test_ci_project; table create test_ci_table; transform create
  const project = await api.post(`${o()}/projects/`, {
    name: 'test_ci_project',
    description: 'Created with hdxcli tool',
  })
  projectId = project.body.uuid
  const table = await api.post(`${o()}/projects/${projectId}/tables/`, {
    name: 'test_ci_table',
    description: 'Created with hdxcli tool',
  })
  tableId = table.body.uuid
  const transform = await api.post(`${o()}/projects/${projectId}/tables/${tableId}/transforms/`, {
    ...HDXCLI_CSV_TRANSFORM,
    name: 'test_ci_transform',
  })
  expect(transform.status, JSON.stringify(transform.body)).toBe(201)
})

describe("hdxcli's suite: the cases issue 50 names", () => {
  it('Project activities can be shown: entries with created, user, action and the project as the change left it', async () => {
    // "Project description can be modified" ran before: settings description 'Modified-with-hdxcli-tool' (PUT of the listed project)
    const listed = unwrapList((await api.get(`${o()}/projects/`)).body).find((p) => p.name === 'test_ci_project')
    expect(
      (await api.put(`${o()}/projects/${projectId}`, { ...listed, description: 'Modified-with-hdxcli-tool' })).status,
    ).toBe(200)
    const answer = await api.get(`${listed.url}/activity`)
    expect(answer.status).toBe(200)
    const entries = unwrapList(answer.body)
    expect(entries.map((e) => [e.action, e.name, e.description])).toEqual(
      expect.arrayContaining([
        ['create:project', 'test_ci_project', 'Created with hdxcli tool'],
        ['update:project', 'test_ci_project', 'Modified-with-hdxcli-tool'],
      ]),
    )
    const result = activityText(entries)
    // expected_output_expr
    expect(
      result.includes('Created') &&
        result.includes('User') &&
        result.includes('Action') &&
        result.includes('create:project'),
    ).toBe(true)
  })

  it('Table activities can be shown: create:table and truncate:table with the table name and description', async () => {
    const listed = unwrapList((await api.get(`${o()}/projects/${projectId}/tables/`)).body).find(
      (t) => t.name === 'test_ci_table',
    )
    expect((await api.post(`${listed.url}/truncate`)).status).toBe(200)
    const entries = unwrapList((await api.get(`${listed.url}/activity`)).body)
    // the table's own entries and its transform's (whose description is "")
    expect(entries.map((e) => [e.action, e.name, e.description])).toEqual([
      ['truncate:table', 'test_ci_table', 'Created with hdxcli tool'],
      ['create:transform', 'test_ci_transform', ''],
      ['create:table', 'test_ci_table', 'Created with hdxcli tool'],
    ])
    const result = activityText(entries)
    expect(
      result.includes('Created') &&
        result.includes('User') &&
        result.includes('Action') &&
        result.includes('create:table'),
    ).toBe(true)
  })

  describe('batch jobs (tests_data/batch-jobs/batch_job_ci_settings.json: a bucket this machine cannot reach)', () => {
    const jobs = () => `${o()}/jobs/batch/`
    const ciJob = (name: string) => ({
      type: 'batch_import',
      name,
      settings: {
        source: {
          table: 'test_ci_project.test_ci_table',
          type: 'batch',
          subtype: 'aws s3',
          transform: 'test_ci_transform',
          settings: {
            url: 's3://qe-datasets/every_datatype/json/every_datatype-data.json',
            bucket_name: 'qe-datasets',
            bucket_path: 'every_datatype/json/every_datatype-data.json',
            cloud: 'aws',
          },
        },
      },
    })
    const find = async (name: string) => unwrapList((await api.get(jobs())).body).find((j) => j.name === name)

    beforeAll(async () => {
      const created = await api.post(jobs(), ciJob('test_ci_batch_job'))
      expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    })

    it('Batch jobs can be listed: the job (the canceled one: hdxcli-suite-served.test.ts)', async () => {
      const result = unwrapList((await api.get(jobs())).body)
        .map((j) => j.name)
        .join('\n')
      expect(result).toContain('test_ci_batch_job')
    })

    it('Batch jobs can be cancelled: a job that failed answers 2xx saying why it failed, and stays failed', async () => {
      const job = await find('test_ci_batch_job')
      expect(job.status).toBe('failed')
      const cancel = await api.post(`${jobs()}${job.uuid}/cancel`)
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
      expect(cancel.body.detail).toMatch(
        /^Job had already failed, so there was nothing to cancel: Cannot reach s3:\/\/qe-datasets/,
      )
      expect((await api.get(`${jobs()}${job.uuid}`)).body.status).toBe('failed')
      // "Batch jobs can be retried" follows: retry of the failed job
      expect((await api.post(`${jobs()}${job.uuid}/retry`)).status).toBe(200)
      // a job that is done is still refused (nothing ran to be canceled, and it did not fail)
    })

    it('Batch job settings can be shown: name, uuid, type and batch_import among the rows', async () => {
      const options = await api.options(jobs())
      const result = settingsText(options.body.actions.POST, await find('test_ci_batch_job'))
      expect(result).toMatch(/^uuid {86}string {24}"[0-9a-f-]{36}"$/m)
      expect(
        result.includes('name') &&
          result.includes('test_ci_batch_job') &&
          result.includes('uuid') &&
          result.includes('type') &&
          result.includes('batch_import'),
      ).toBe(true)
    })
  })

  it('Function settings can be shown: name, sql with (x,k,b)->k*x+b, and uuid among the rows', async () => {
    const fns = `${o()}/projects/${projectId}/functions/`
    expect((await api.post(fns, { name: 'test_ci_function', sql: "'(x,k,b)->k*x+b'" })).status).toBe(201)
    const options = await api.options(fns)
    const fn = unwrapList((await api.get(fns)).body).find((f) => f.name === 'test_ci_function')
    const result = settingsText(options.body.actions.POST, fn)
    expect(
      result.includes('name') &&
        result.includes('test_ci_function') &&
        result.includes('sql') &&
        result.includes('(x,k,b)->k*x+b') &&
        result.includes('uuid'),
    ).toBe(true)
    // the uuid shown is the function's; a uuid sent back in a PUT (hdxcli sends the whole listed object) changes nothing
    const put = await api.put(`${fns}${fn.uuid}`, {
      ...fn,
      uuid: '00000000-0000-4000-8000-000000000000',
      description: 'x',
    })
    expect(put.status).toBe(200)
    expect(put.body.uuid).toBe(fn.uuid)
  })
})
