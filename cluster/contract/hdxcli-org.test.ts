/** hdxcli on org-wide resources (storages, pools, query options) and `hdxcli migrate`. */
import { beforeAll, describe, expect, it } from 'vitest'
import { type hdx, hdxcliLogin, org, unwrapList, useContractCluster } from './helpers'

useContractCluster()

describe('hdxcli', () => {
  let api: ReturnType<typeof hdx>

  beforeAll(async () => {
    ;({ api } = await hdxcliLogin())
  })

  it('storages: create from tests_data/storages, delete with ?force_operation=true (storage/commands.py)', async () => {
    const storagesPath = `/config/v1/orgs/${org}/storages/`
    const body = {
      settings: {
        bucket_path: '/new-bucket-2/',
        bucket_name: 'hdx-cli-2',
        region: 'us-sea-9',
        cloud: 'linode',
        endpoint: 'https://us-sea-9.linodeobjects.com',
      },
      name: 'hdx_storage',
    }
    const created = await api.post(storagesPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const listed = unwrapList((await api.get(storagesPath)).body).find((s) => s.name === 'hdx_storage')
    // settings with params: PUT of the whole object with ?force_operation=true
    listed.settings.io_perf_mode = 'relaxed'
    const put = await api.put(`${storagesPath}${listed.uuid}?force_operation=true`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const del = await api.delete(`${listed.url}?force_operation=true`)
    expect(del.status).toBe(204)
  })

  it('pools: create with build_request_body, settings PUT then PATCH (pool/commands.py)', async () => {
    const poolsPath = '/config/v1/pools/'
    const body = {
      description: 'Created with hdxcli tool',
      settings: {
        k8s_deployment: { replicas: '1', cpu: '0.5', memory: '0.5Gi', storage: '0.5Gi', service: 'query-peer' },
      },
      name: 'hdx-pool',
    }
    const created = await api.post(poolsPath, body)
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status)
    const listed = unwrapList((await api.get(poolsPath)).body).find((p) => p.name === 'hdx-pool')
    listed.settings.k8s_deployment.replicas = '3'
    const put = await api.put(`${poolsPath}${listed.uuid}`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const patch = await api.patch(`${poolsPath}${listed.uuid}`, { settings: { k8s_deployment: { cpu: '2' } } })
    expect(patch.status).toBe(200)
    expect(patch.body.settings.k8s_deployment).toMatchObject({ replicas: '3', cpu: '2', service: 'query-peer' })
    expect((await api.delete(listed.url)).status).toBe(204)
  })

  it('query options: GET, PUT the object back with one option changed (query_option/commands.py)', async () => {
    const url = `/config/v1/orgs/${org}/query_options/`
    const opts = await api.options(url)
    expect(opts.body.actions.PUT.settings.children.default_query_options.children.hdx_query_max_rows.type).toBeTypeOf(
      'string',
    )
    const current = (await api.get(url)).body
    current.settings.default_query_options = {
      ...current.settings.default_query_options,
      hdx_query_max_execution_time: 60,
    }
    const put = await api.put(url, current)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.settings.default_query_options.hdx_query_max_execution_time).toBe(60)

    // _set from the command line: the value is a string (click argument)
    const before = (await api.get(url)).body
    expect('default_query_options' in before.settings).toBe(true)
    before.settings.default_query_options.hdx_query_max_concurrent_partitions = '10'
    before.settings.default_query_options.hdx_query_timerange_required = 'true'
    const fromCli = await api.put(url, before)
    expect(fromCli.status, JSON.stringify(fromCli.body)).toBe(200)
    // --from-file tests_data/query-options/settings.json
    const again = (await api.get(url)).body
    Object.assign(again.settings.default_query_options, {
      hdx_query_max_concurrent_partitions: 10,
      hdx_query_max_columns_to_read: 20,
    })
    expect((await api.put(url, again)).status).toBe(200)
    // _list: only options that OPTIONS lists are shown, each with its type
    const listed = (await api.get(url)).body.settings.default_query_options
    const available = opts.body.actions.PUT.settings.children.default_query_options.children
    for (const name of Object.keys(listed)) expect(available[name]?.type, name).toBeTypeOf('string')
    // _unset one, then --all (del settings['default_query_options']); the key must come back for the next _set
    const one = (await api.get(url)).body
    delete one.settings.default_query_options.hdx_query_max_columns_to_read
    expect((await api.put(url, one)).body.settings.default_query_options.hdx_query_max_columns_to_read).toBeUndefined()
    const all = (await api.get(url)).body
    delete all.settings.default_query_options
    expect((await api.put(url, all)).status).toBe(200)
    const after = (await api.get(url)).body
    expect(after.settings.default_query_options).toEqual({})
  })

  it('migrate: objects re-created through the OPTIONS structure keep their settings (resources.py, resource_adapter.py)', async () => {
    // _adapt_resource_to_api_structure: keeps only the non-read-only fields OPTIONS actions.POST lists,
    // nested objects through their `children`; an empty required field would stop for a prompt.
    const prompts: string[] = []
    const adapt = (
      structure: Record<string, any>,
      value: Record<string, any> | undefined,
      parent = '',
    ): Record<string, any> => {
      const out: Record<string, any> = {}
      const empty = (v: unknown) =>
        v === null ||
        v === undefined ||
        v === '' ||
        (Array.isArray(v) && !v.length) ||
        (typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.keys(v).length)
      for (const [name, props] of Object.entries(structure)) {
        if (props.read_only) continue
        const v = value?.[name]
        const at = parent ? `${parent}.${name}` : name
        if (props.type === 'nested object') {
          if (props.children && Object.keys(props.children).length) {
            if (!v && !props.required) continue
            const nested = adapt(props.children, v ?? {}, at)
            if (Object.keys(nested).length || props.required) out[name] = nested
          } else if (props.child && v && typeof v === 'object') out[name] = { ...v }
        } else if (!empty(v)) out[name] = v
        else if (props.required) prompts.push(at)
      }
      return out
    }
    const o = `/config/v1/orgs/${org}`
    const src = (await api.post(`${o}/projects/`, { name: 'mig_src', description: 'source' })).body
    const table = await api.post(`${o}/projects/${src.uuid}/tables/`, {
      name: 'mig_t',
      settings: {
        stream: { token_list: ['tok1'], hot_data_max_age_minutes: 30, message_queue_max_rows: 100 },
        age: { max_age_days: 30 },
        merge: { enabled: false },
        sort_keys: ['host'],
        shard_key: 'host',
        max_future_days: 2,
        default_query_options: { hdx_query_max_execution_time: 30 },
        autoingest: [{ enabled: true, source: 's3://bucket/in/', pattern: '.*\\.json', max_rows_per_partition: 1000 }],
      },
    })
    expect(table.status, JSON.stringify(table.body)).toBe(201)
    const transform = await api.post(`${o}/projects/${src.uuid}/tables/${table.body.uuid}/transforms/`, {
      name: 'mig_json',
      type: 'json',
      settings: {
        is_default: true,
        compression: 'gzip',
        null_values: ['-'],
        sql_transform: 'SELECT * FROM {STREAM}',
        format_details: {
          flattening: {
            active: true,
            depth: 2,
            map_flattening_strategy: { left: '_', right: '' },
            slice_flattening_strategy: { left: '[', right: ']' },
          },
        },
        output_columns: [
          {
            name: 'ts',
            datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z', resolution: 's' },
          },
          { name: 'host', datatype: { type: 'string', index: true, default: 'none' } },
        ],
      },
    })
    expect(transform.status, JSON.stringify(transform.body)).toBe(201)
    const fn = await api.post(`${o}/projects/${src.uuid}/functions/`, {
      name: 'mig_fn',
      sql: '(x) -> x + 1',
      description: 'plus one',
    })
    expect(fn.status).toBe(201)

    // get_resources, then create_resources into a new project: project, functions, table, transforms
    const target = (
      await api.post(
        `${o}/projects/`,
        adapt((await api.options(`${o}/projects/`)).body.actions.POST, { ...src, name: 'mig_dst' }),
      )
    ).body
    expect(target.uuid).toBeTruthy()
    const srcFn = unwrapList((await api.get(`${o}/projects/${src.uuid}/functions/`)).body)[0]
    const fnBody = adapt((await api.options(`${o}/projects/${target.uuid}/functions/`)).body.actions.POST, {
      ...srcFn,
      name: 'mig_fn2',
    })
    expect((await api.post(`${o}/projects/${target.uuid}/functions/`, fnBody)).status).toBe(201)
    const srcTable = unwrapList((await api.get(`${o}/projects/${src.uuid}/tables/`)).body)[0]
    const tableBody = adapt((await api.options(`${o}/projects/${target.uuid}/tables/`)).body.actions.POST, srcTable)
    const newTable = await api.post(`${o}/projects/${target.uuid}/tables/`, tableBody)
    expect(newTable.status, JSON.stringify(newTable.body)).toBe(201)
    const srcTransform = unwrapList(
      (await api.get(`${o}/projects/${src.uuid}/tables/${srcTable.uuid}/transforms/`)).body,
    )[0]
    const trBody = adapt(
      (await api.options(`${o}/projects/${target.uuid}/tables/${newTable.body.uuid}/transforms/`)).body.actions.POST,
      srcTransform,
    )
    const newTransform = await api.post(`${o}/projects/${target.uuid}/tables/${newTable.body.uuid}/transforms/`, trBody)
    expect(newTransform.status, JSON.stringify(newTransform.body)).toBe(201)

    expect(prompts).toEqual([])
    expect(newTable.body.settings).toEqual(srcTable.settings)
    expect(newTransform.body.settings).toEqual(srcTransform.settings)
    expect(newTransform.body.type).toBe('json')
    expect(target.description).toBe('source')
  })
})
