/** hdxcli on projects, tables, transforms and what hangs off a table (sources, views, columns, dictionaries, functions). */
import { describe, expect, it } from 'vitest'
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../test-helpers'
import { HDX_HEADERS, hdx, HDXCLI_CSV_TRANSFORM, org, raw, unwrapList, useContractCluster } from './helpers'

useContractCluster()

describe('hdxcli', () => {
  let token: string
  let api: ReturnType<typeof hdx>
  let projectsPath: string
  let project: any
  let tablesPath: string
  let table: any

  it('logs in and takes orgs[0].uuid (library_api/common/login.py)', async () => {
    // requests.post(url, json={"username", "password"}, headers={"Accept": "application/json"}); no trailing slash
    const r = await raw('POST', '/config/v1/login', {
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
    })
    expect(r.status).toBe(200)
    expect(typeof r.body.auth_token.access_token).toBe('string')
    expect(r.body.auth_token.expires_in).toBeGreaterThan(0)
    expect(r.body.auth_token.token_type).toBe('Bearer')
    expect(r.body.orgs[0].uuid).toBe(org)
    token = r.body.auth_token.access_token
    api = hdx(token)
    // a failed login: 401 and json.loads(content)["detail"]
    const bad = await raw('POST', '/config/v1/login/', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: TEST_ADMIN_EMAIL, password: 'wrong' }),
    })
    expect(bad.status).toBe(401)
    expect(typeof bad.body.detail).toBe('string')
  })

  it('creates a project and a table with the basic_create body (cli_interface/common/undecorated_click_commands.py)', async () => {
    projectsPath = `/config/v1/orgs/${org}/projects/`
    const created = await api.post(projectsPath, { name: 'hdx_project', description: 'Created with hdxcli tool' })
    expect([200, 201]).toContain(created.status)
    // table group: rest_ops.list(projects/) then [p['uuid'] for p in projects_list if p['name'] == name]
    const list = await api.get(projectsPath)
    expect(list.status).toBe(200)
    project = unwrapList(list.body).find((p) => p.name === 'hdx_project')
    expect(project.uuid).toMatch(/^[0-9a-f-]{36}$/)
    tablesPath = `/config/v1/orgs/${org}/projects/${project.uuid}/tables/`
    const t = await api.post(tablesPath, { name: 'hdx_table', description: 'Created with hdxcli tool' })
    expect([200, 201]).toContain(t.status)
    // find_tables lists without the trailing slash (cli_interface/common/cached_operations.py)
    const tables = await api.get(tablesPath.replace(/\/$/, ''))
    table = unwrapList(tables.body).find((x) => x.name === 'hdx_table')
    expect(table.type).toBe('turbine')
    expect(table.url).toBe(`http://local-cluster${tablesPath}${table.uuid}`)
  })

  it('creates a transform from tests_data/transforms/csv_transform.json (transform/commands.py, body from string)', async () => {
    // basic_create_with_body_from_string: json.loads(file), body['name'] = name, POST with Content-Type json
    const r = await api.post(`${tablesPath}${table.uuid}/transforms/`, { ...HDXCLI_CSV_TRANSFORM, name: 'hdx_csv' })
    expect([200, 201], JSON.stringify(r.body)).toContain(r.status)
    // list: "name (default)" when settings.is_default; the table's first transform is its default
    const list = await api.get(`${tablesPath}${table.uuid}/transforms`)
    const t = unwrapList(list.body).find((x) => x.name === 'hdx_csv')
    expect(t.settings.output_columns[0].datatype.resolution).toBe('seconds')
    expect(typeof t.settings.is_default).toBe('boolean')
  })

  it('settings: OPTIONS actions.POST walk, then PUT of the whole fetched table, PATCH as fallback (basic_settings)', async () => {
    const opts = await api.options(tablesPath)
    expect(opts.status).toBe(200)
    const walk = (fields: Record<string, any>) => {
      for (const [, v] of Object.entries(fields)) {
        // _do_for_each_setting reads setting_val["read_only"], ["type"], and ["children"] of nested objects
        expect(typeof v.read_only).toBe('boolean')
        expect(typeof v.type).toBe('string')
        if (v.type === 'nested object' && !v.read_only) {
          expect(v.children).toBeTypeOf('object')
          walk(v.children)
        }
      }
    }
    walk(opts.body.actions.POST)
    expect(opts.body.actions.POST.settings.children.merge.children.enabled.type).toBe('boolean')
    // `table settings` (no key) reads every listed setting from the resource; the older
    // _get_dotted_key_from_dict (common/misc_operations.py) catches KeyError only, so a null in the
    // middle of a path (None[key] -> TypeError) would end the command
    const resourceForSettings = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    const crashes: string[] = []
    const read = (fields: Record<string, any>, prefix: string[]) => {
      for (const [name, v] of Object.entries(fields)) {
        if (v.read_only) continue
        const at = [...prefix, name]
        if (v.type === 'nested object') read(v.children, at)
        else {
          let cur: any = resourceForSettings
          for (const key of at) {
            if (cur === null) {
              crashes.push(at.join('.'))
              break
            }
            if (typeof cur !== 'object' || !(key in cur)) break // KeyError: "(Key absent)"
            cur = cur[key]
          }
        }
      }
    }
    read(opts.body.actions.POST, [])
    expect(crashes).toEqual([])

    // `table settings settings.merge.enabled false`: the resource as listed, one key changed, PUT to {list}{uuid}
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    listed.settings.merge.enabled = false
    const put = await api.put(`${tablesPath}${listed.uuid}`, listed)
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.settings.merge.enabled).toBe(false)
    // `settings description Modified`: PUT again (the description top-level key)
    const again = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    again.description = 'Modified-with-hdxcli-tool'
    expect((await api.put(`${tablesPath}${again.uuid}`, again)).status).toBe(200)
    // the fallback: PATCH {"settings": {"merge": {"enabled": true}}}
    const patch = await api.patch(`${tablesPath}${listed.uuid}`, { settings: { merge: { enabled: true } } })
    expect(patch.status).toBe(200)
    // the older hdxcli (common/misc_operations.py) PATCHes first, with the value as the command-line string
    const stringly = await api.patch(`${tablesPath}${listed.uuid}`, {
      settings: { merge: { enabled: 'false' }, age: { max_age_days: '30' } },
    })
    expect(stringly.status, JSON.stringify(stringly.body)).toBe(200)
    expect(stringly.body.settings.merge.enabled).toBe(false)
    expect(stringly.body.settings.age.max_age_days).toBe(30)
    expect(
      (
        await api.patch(`${tablesPath}${listed.uuid}`, {
          settings: { merge: { enabled: 'true' }, age: { max_age_days: '0' } },
        })
      ).status,
    ).toBe(200)
    const after = await api.get(`${tablesPath}${listed.uuid}`)
    expect(after.body.settings.merge.enabled).toBe(true)
    expect(after.body.description).toBe('Modified-with-hdxcli-tool')
    // project: PUT of the whole listed project with a new description
    const p = unwrapList((await api.get(projectsPath)).body).find((x) => x.name === 'hdx_project')
    p.description = 'Modified-with-hdxcli-tool'
    expect((await api.put(`${projectsPath}${p.uuid}`, p)).status).toBe(200)
    // transform: PUT of the whole listed transform
    const tr = unwrapList((await api.get(`${tablesPath}${listed.uuid}/transforms/`)).body)[0]
    tr.description = 'changed'
    const trPut = await api.put(`${tablesPath}${listed.uuid}/transforms/${tr.uuid}`, tr)
    expect(trPut.status, JSON.stringify(trPut.body)).toBe(200)
  })

  it('stats, activity and truncate on the url field (basic_stats, basic_activity, table _basic_truncate)', async () => {
    // ingest a row first so truncate has something to do
    const ing = await raw('POST', '/ingest/event', {
      headers: {
        Authorization: `Bearer ${token}`,
        'x-hdx-table': 'hdx_project.hdx_table',
        'x-hdx-transform': 'hdx_csv',
        'content-type': 'text/csv',
      },
      body: '_timestamp,_float,_ip4,_key,_numeric,_string,_uint64\n18/07/2022 15:58,1.5,10.0.0.1,k,7,s,8\n',
    })
    expect(ing.status, JSON.stringify(ing.body)).toBe(200)
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    // url = resource['url'].replace('https://', f'{scheme}://'); url += '/stats'
    const stats = await api.get(`${listed.url.replace('https://', 'http://')}/stats`)
    expect(stats.status).toBe(200)
    expect(stats.body.total_rows).toBe(1)
    const activity = await api.get(`${listed.url}/activity`)
    expect(activity.status).toBe(200)
    expect(JSON.stringify(activity.body)).toContain('hdx_table')
    const projectListed = unwrapList((await api.get(projectsPath)).body).find((x) => x.name === 'hdx_project')
    expect((await api.get(`${projectListed.url}/stats`)).status).toBe(200)
    expect((await api.get(`${projectListed.url}/activity`)).status).toBe(200)
    // requests.post(f'{url}/truncate', headers=headers): no body, no content-type; 200 or 201
    const tr = await api.post(`${listed.url}/truncate`)
    expect([200, 201]).toContain(tr.status)
    const after = await api.get(`${listed.url}/stats`)
    expect(after.body.total_rows).toBe(0)
  })

  it('url follows the scheme and host the client used (X-Forwarded-Proto/Host)', async () => {
    const r = await raw('GET', projectsPath, {
      headers: { ...HDX_HEADERS(token), 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hdx.example.com' },
    })
    const p = unwrapList(r.body)[0]
    expect(p.url).toBe(`https://hdx.example.com${projectsPath}${p.uuid}`)
  })

  it('dictionary files: multipart upload to dictionaries/files, list of names, create, delete (dictionary/commands.py)', async () => {
    const filesPath = `/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/files`
    // rest_ops.create_file: requests.post(url, files={'file': stream}, data={'name': remote_filename})
    const form = new FormData()
    form.append('name', 'hdx_dict_file')
    form.append(
      'file',
      new Blob(['id_country,country_name\n1,Qatar\n2,Andorra\n3,Saudi Arabia\n4,Egypt\n']),
      'dictionary_file.csv',
    )
    const up = await raw('POST', filesPath, { headers: HDX_HEADERS(token), body: form })
    expect([200, 201], JSON.stringify(up.body)).toContain(up.status)
    // basic_list prints list items that are strings as they are
    const list = await api.get(filesPath)
    expect(unwrapList(list.body)).toContain('hdx_dict_file')
    // create: tests_data/dictionaries/dictionary_settings.json + name + settings.filename
    const dictsPath = `/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/`
    const d = await api.post(dictsPath, {
      name: 'hdx_dict',
      settings: {
        filename: 'hdx_dict_file',
        layout: 'complex_key_hashed',
        lifetime_seconds: 5,
        output_columns: [
          { name: 'id_country', datatype: { type: 'uint64' } },
          { name: 'country_name', datatype: { type: 'string' } },
        ],
        primary_key: ['id_country'],
        format: 'CSVWithNames',
      },
    })
    expect([200, 201], JSON.stringify(d.body)).toContain(d.status)
    const q = await raw('POST', '/query', {
      headers: HDX_HEADERS(token),
      body: "SELECT dictGet('hdx_project_hdx_dict', 'country_name', tuple(toUInt64(2)))",
    })
    expect(q.text.trim()).toBe('"Andorra"')
    expect((await api.delete(`${dictsPath}${d.body.uuid}`)).status).toBe(204)
    // dict_file_delete: DELETE {path}/{filename} -> 204
    expect((await api.delete(`${filesPath}/hdx_dict_file`)).status).toBe(204)
  })

  it('function from tests_data/function_settings.json (function/commands.py)', async () => {
    const r = await api.post(`/config/v1/orgs/${org}/projects/${project.uuid}/functions/`, {
      name: 'function_test',
      sql: '(x, k, b) -> k*x + b',
    })
    expect([200, 201], JSON.stringify(r.body)).toContain(r.status)
    const q = await raw('POST', '/query', { headers: HDX_HEADERS(token), body: 'SELECT function_test(2, 3, 4)' })
    expect(q.text.trim()).toBe('10')
  })

  it('sources, views, summary table from hdxcli tests_data (sources/*.py, view/commands.py, table/commands.py)', async () => {
    const t = `${tablesPath}${table.uuid}`
    // tests_data/sources/kafka_source_settings.json: numbers for cpu and replicas, type/subtype/table/pool_name given
    const kafka = await api.post(`${t}/sources/kafka/`, {
      type: 'pull',
      subtype: 'kafka',
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      settings: { bootstrap_servers: ['104.198.40.96:9092'], topics: ['test_ci_topic'] },
      pool_name: 'my-kafka-pool',
      k8s_deployment: { cpu: 1, replicas: 1, service: 'kafka-peer' },
      name: 'hdx_kafka',
    })
    expect([200, 201], JSON.stringify(kafka.body)).toContain(kafka.status)
    const kinesis = await api.post(`${t}/sources/kinesis/`, {
      pool_name: 'kinesis-pool',
      k8s_deployment: { cpu: 1, memory: '10Gi', service: 'kinesis-peer', replicas: '1', storage: '10Gi' },
      type: 'pull',
      subtype: 'kinesis',
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      settings: {
        stream_name: 'arn:aws:kinesis:us-east-2:184958025203:stream/ci',
        region: 'us-east-2',
        checkpointer: { name: 'arn:aws:dynamodb:us-east-2:184958025203:table/ci' },
      },
      name: 'hdx_kinesis',
    })
    expect([200, 201], JSON.stringify(kinesis.body)).toContain(kinesis.status)
    const siem = await api.post(`${t}/sources/siem/`, {
      transform: 'hdx_csv',
      table: 'hdx_project.hdx_table',
      pool_name: 'siem12-pool',
      k8s_deployment: { replicas: 1, cpu: 1, service: 'akamai-siem-peer' },
      settings: {
        access_details: {
          host: 'akab-1.luna.akamaiapis.net',
          entity_id: '87862',
          client_secret: 's',
          client_token: 't',
          access_token: 'a',
        },
      },
      name: 'hdx_siem',
    })
    expect([200, 201], JSON.stringify(siem.body)).toContain(siem.status)
    // `sources kinesis settings type` -> "type: pull"; show has the service name
    const listed = unwrapList((await api.get(`${t}/sources/kinesis/`)).body).find((s) => s.name === 'hdx_kinesis')
    expect(listed.type).toBe('pull')
    expect(JSON.stringify(unwrapList((await api.get(`${t}/sources/kafka/`)).body))).toContain('kafka-peer')
    // settings name rename through PUT of the whole object
    const k = unwrapList((await api.get(`${t}/sources/kafka/`)).body)[0]
    k.name = 'new_kafka_name'
    const put = await api.put(`${t}/sources/kafka/${k.uuid}`, k)
    expect(put.status, JSON.stringify(put.body)).toBe(200)

    // tests_data/views/view_settings.json (its own name replaced by the argument)
    const view = await api.post(`${t}/views/`, {
      name: 'hdx_view',
      description: 'view_description_should_be_here',
      settings: {
        is_default: false,
        output_columns: [
          {
            name: '_timestamp',
            datatype: {
              primary: true,
              type: 'datetime',
              index: false,
              format: '2006-01-02T15:04:05Z',
              resolution: 'seconds',
            },
          },
          { name: '_key', datatype: { type: 'string', index: true } },
        ],
      },
    })
    expect([200, 201], JSON.stringify(view.body)).toContain(view.status)
    const views = unwrapList((await api.get(`${t}/views/`)).body)
    expect(views.find((v) => v.name === 'hdx_view').settings.is_default).toBe(false)

    // table create -t summary -f sql.txt: {"name", "type": "summary", "settings": {"summary": {"sql"}}}
    const summary = await api.post(tablesPath, {
      name: 'hdx_summary',
      type: 'summary',
      settings: {
        summary: {
          sql:
            'SELECT toStartOfMinute(_timestamp) AS minute, count() AS cnt FROM hdx_project.hdx_table ' +
            "GROUP BY minute SETTINGS hdx_primary_key='minute'",
        },
      },
    })
    expect([200, 201], JSON.stringify(summary.body)).toContain(summary.status)
    expect(summary.body.type).toBe('summary')
  })

  it('resource summary reads config_blob; defaults reads /defaults/ (resource_summary/commands.py, defaults/commands.py)', async () => {
    const blob = await api.get(`/config/v1/orgs/${org}/config_blob/`)
    expect(blob.status).toBe(200)
    expect(blob.body.projects.hdx_project.tables.hdx_table.transforms.hdx_csv).toBeTypeOf('object')
    for (const k of ['kafka', 'kinesis', 'siem', 'summary']) expect(blob.body.sources[k]).toBeTypeOf('object')
    const defaults = await api.get('/config/v1/defaults/')
    expect(defaults.body.table.stream).toBeTypeOf('object')
  })

  it('columns: list and show a transform column (current_name), add-name, add-alias, delete the alias (column/commands.py)', async () => {
    const columnsPath = `${tablesPath}${table.uuid}/columns/`
    // `column list`: the table's columns by name, _timestamp among them
    const list = unwrapList((await api.get(columnsPath)).body)
    expect(list.map((x) => x.name)).toEqual(expect.arrayContaining(['_timestamp', '_float', '_uint64']))
    // `column --column _timestamp show`: basic_show over the list; "name", "current_name", an "id"
    const ts = list.find((x) => x.name === '_timestamp')
    expect(ts).toMatchObject({ name: '_timestamp', current_name: '_timestamp' })
    expect(typeof ts.id).toBe('string')
    expect((await api.get(`${columnsPath}${ts.id}`)).body.current_name).toBe('_timestamp')
    // `add-name renamed_column`: basic_create(f"{path}{id}/add_name/", body={"new_name"})
    const added = await api.post(`${columnsPath}${ts.id}/add_name/`, { new_name: 'renamed_column' })
    expect([200, 201], JSON.stringify(added.body)).toContain(added.status)
    expect((await api.get(`${columnsPath}${ts.id}`)).body.names).toContain('renamed_column')
    expect((await api.post(`${columnsPath}${ts.id}/add_name/`, { new_name: '_float' })).status).toBe(400)
    // `add-alias new_column 'plus(_numeric,_uint64)'`: {"name", "expression"}
    const alias = await api.post(columnsPath, { name: 'new_column', expression: 'plus(_numeric,_uint64)' })
    expect([200, 201], JSON.stringify(alias.body)).toContain(alias.status)
    const withAlias = unwrapList((await api.get(columnsPath)).body).find((x) => x.name === 'new_column')
    expect(withAlias).toMatchObject({ current_name: 'new_column', expression: 'plus(_numeric,_uint64)' })
    // `column delete new_column`: basic_delete through the listed url -> 204
    expect((await api.delete(withAlias.url)).status).toBe(204)
    expect(unwrapList((await api.get(columnsPath)).body).some((x) => x.name === 'new_column')).toBe(false)
  })

  it('deletes via the url field: 204 (basic_delete)', async () => {
    const listed = unwrapList((await api.get(tablesPath)).body).find((x) => x.name === 'hdx_table')
    const del = await api.delete(listed.url.replace('https://', 'http://'))
    expect(del.status).toBe(204)
    expect((await api.get(listed.url)).status).toBe(404)
  })
})
