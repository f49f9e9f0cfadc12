/**
 * Transforms exported from real clusters (issue 32): what a real cluster holds, the local one holds
 * as given. The spec's rules on index and names are the console form's rules for what an operator
 * types, not the API's.
 */
import { describe, expect, it } from 'vitest'
import { c, type hdx, hdxcliLogin, org, useContractCluster } from './helpers'

useContractCluster()

let api: ReturnType<typeof hdx>
let n = 0

/** A fresh project and table; returns the table's transforms path. */
async function newTable() {
  n += 1
  if (!api) api = (await hdxcliLogin()).api
  const p = await api.post(`/config/v1/orgs/${org}/projects/`, { name: `real_p${n}` })
  expect(p.status).toBe(201)
  const t = await api.post(`/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/`, { name: `real_t${n}` })
  expect(t.status).toBe(201)
  return `/config/v1/orgs/${org}/projects/${p.body.uuid}/tables/${t.body.uuid}/transforms/`
}

const timestamp = {
  name: 'timestamp',
  datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05', source: { from_input_index: 0 } },
}

describe('real transforms on the local cluster', () => {
  it('keeps a tab delimiter (CloudFront standard logs), untrimmed quote and escape', async () => {
    const path = await newTable()
    const r = await api.post(path, {
      name: 'cloudfront_standard',
      type: 'csv',
      settings: {
        format_details: { delimiter: '\t', quote: ' ', escape: '', skip_head: 2 },
        output_columns: [timestamp, { name: 'c-ip', datatype: { type: 'string', source: { from_input_index: 1 } } }],
      },
    })
    expect(r.status).toBe(201)
    const back = await api.get(`${path}${r.body.uuid}`)
    expect(back.body.settings.format_details).toMatchObject({ delimiter: '\t', quote: ' ', escape: '', skip_head: 2 })
    const blank = await api.post(path, {
      name: 'blank_delimiter',
      type: 'csv',
      settings: { format_details: { delimiter: '' }, output_columns: [timestamp] },
    })
    expect(blank.status).toBe(400)
    expect(blank.body.settings.format_details.delimiter).toEqual(['This field may not be blank.'])
  })

  it('holds index: true on a double column and hyphenated column and transform names', async () => {
    const path = await newTable()
    const r = await api.post(path, {
      name: 'akamai-datastream',
      type: 'json',
      settings: {
        output_columns: [
          { ...timestamp, datatype: { ...timestamp.datatype, source: { from_input_field: 'ts' } } },
          { name: 'cache-status', datatype: { type: 'string', index: true } },
          { name: 'turn-around-time', datatype: { type: 'double', index: true } },
        ],
      },
    })
    expect(r.status).toBe(201)
    const back = await api.get(`${path}${r.body.uuid}`)
    expect(back.body.name).toBe('akamai-datastream')
    expect(back.body.settings.output_columns.slice(1)).toEqual([
      { name: 'cache-status', datatype: { type: 'string', index: true } },
      { name: 'turn-around-time', datatype: { type: 'double', index: true } },
    ])
  })

  it('keeps is_default: false on the first transform of a table; absent, the first is the default', async () => {
    const path = await newTable()
    const first = await api.post(path, {
      name: 'not_default',
      type: 'json',
      settings: { is_default: false, output_columns: [timestamp] },
    })
    expect(first.status).toBe(201)
    expect(first.body.settings.is_default).toBe(false)
    expect((await api.get(`${path}${first.body.uuid}`)).body.settings.is_default).toBe(false)

    const other = await newTable()
    const plain = await api.post(other, { name: 'plain', type: 'json', settings: { output_columns: [timestamp] } })
    expect(plain.body.settings.is_default).toBe(true)
  })

  it('keeps nested element types, nulls, empty strings and unknown keys as given', async () => {
    const path = await newTable()
    const settings = {
      is_default: true,
      compression: '',
      sample_data: { ts: '2024-01-01 00:00:00', tags: [{ a: 'b' }] },
      format_details: {
        flattening: {
          active: true,
          depth: null,
          map_flattening_strategy: { left: '', right: '' },
          slice_flattening_strategy: { left: '', right: '' },
        },
        vendor_hint: { x: 1 },
      },
      output_columns: [
        timestamp,
        {
          name: 'tags',
          datatype: {
            type: 'array',
            elements: [{ type: 'map', elements: [{ type: 'string' }, { type: 'string' }] }],
            unknown_key: [1, null],
          },
        },
        { name: 'ok', datatype: { type: 'bool', default: null, script: null } },
      ],
    }
    const r = await api.post(path, { name: 'nested', type: 'json', settings })
    expect(r.status).toBe(201)
    const back = (await api.get(`${path}${r.body.uuid}`)).body.settings
    expect(back.compression).toBe('')
    expect(back.sample_data).toEqual(settings.sample_data)
    expect(back.format_details.flattening).toEqual(settings.format_details.flattening)
    expect(back.format_details.vendor_hint).toEqual({ x: 1 })
    expect(back.output_columns[1].datatype).toMatchObject(settings.output_columns[1]!.datatype)
    expect(back.output_columns[2].datatype).toMatchObject({ type: 'bool', default: null, script: null })
  })

  // Issue 50: one transform of each further shape hydrolix/transforms holds (written from what the
  // files show, not copied). The Kinesis real-time CloudFront transform (both files of it) was
  // refused: its epoch primary's format is the unit spelled out.

  it('Kinesis real-time CloudFront logs: tab CSV, epoch primary with "format": "seconds", null_values, ingested as seconds', async () => {
    const path = await newTable()
    const column = (name: string, type: string, at: number) => ({
      name,
      datatype: { type, source: { from_input_index: at } },
    })
    const r = await api.post(path, {
      name: 'cloudFrontTransform',
      type: 'csv',
      description: 'Real_time CloudFront logs transform',
      settings: {
        is_default: true,
        compression: 'none',
        format_details: { delimiter: '\t', skip_head: 0, quote: '"', comment: '#', escape: '"', buffer_size: 4096 },
        output_columns: [
          {
            name: 'timestamp',
            datatype: {
              type: 'epoch',
              primary: true,
              format: 'seconds',
              resolution: 'seconds',
              source: { from_input_index: 0 },
            },
          },
          column('c_ip', 'string', 1),
          column('time_to_first_byte', 'double', 2),
          column('sc_status', 'uint64', 3),
          column('cmcd_buffer_starvation', 'boolean', 4),
          column('cmcd_playback_rate', 'uint8', 5),
        ],
        null_values: ['-'],
      },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.settings.output_columns[0].datatype.format).toBe('seconds')
    const [project, table] = [`real_p${n}`, `real_t${n}`]
    const ingested = await c.api('POST', '/ingest/event', '1700000000.123\t10.0.0.1\t0.002\t200\t-\t1\n', undefined, {
      'x-hdx-table': `${project}.${table}`,
      'content-type': 'text/csv',
    })
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(200)
    const q = await c.api(
      'POST',
      '/query',
      `SELECT toUnixTimestamp64Milli(timestamp), cmcd_buffer_starvation FROM ${project}.${table} FORMAT JSONCompact`,
    )
    expect(q.body.data).toEqual([[1700000000123, null]])
    // the spelled-out units are accepted, anything else is still refused with the field's error
    const odd = await api.post(path, {
      name: 'odd_epoch',
      type: 'csv',
      settings: { output_columns: [{ name: 't', datatype: { type: 'epoch', primary: true, format: 'fortnights' } }] },
    })
    expect(odd.status).toBe(400)
    expect(odd.body.settings.output_columns[0].datatype.format[0]).toMatch(/^Epoch formats are s, ms, us, ns, cs/)
  })

  it('Mux realtime and APIContext: sql_transform over {STREAM}, JSON pointers, SQL-made columns, array of map, uuid, dates', async () => {
    const path = await newTable()
    const dt = {
      index: true,
      primary: false,
      format: null,
      resolution: 'seconds',
      default: null,
      script: null,
      suppress: false,
    }
    const body = {
      name: 'mux_realtime',
      description: 'Realtime feed',
      uuid: 'd73e8033-3dde-4b54-831c-1c10ffe8fa7e',
      created: '2024-05-10T13:56:01.998038Z',
      modified: '2024-10-16T12:14:35.093746Z',
      type: 'json',
      settings: {
        is_default: true,
        rate_limit: null,
        sql_transform:
          "SELECT arrayMap(x -> x['value'], metrics) AS metric_value, start + duration / 1000 AS end, * FROM {STREAM}",
        null_values: [],
        sample_data: [{ samples: [{ records: [{ start: '2024-08-23T07:13:46Z', duration: 40050 }] }] }],
        output_columns: [
          {
            name: 'start',
            datatype: {
              ...dt,
              type: 'datetime',
              index: false,
              primary: true,
              format: '2006-01-02T15:04:05.999999Z',
              source: { from_json_pointers: ['/samples/0/records/0/start'] },
            },
          },
          { name: 'end', datatype: { ...dt, type: 'datetime', format: '2006-01-02T15:04:05Z', source: null } },
          {
            name: 'duration',
            datatype: { ...dt, type: 'uint32', source: { from_json_pointers: ['/samples/0/records/0/duration'] } },
          },
          {
            name: 'metrics',
            datatype: {
              type: 'array',
              index: false,
              format: null,
              resolution: 'seconds',
              default: null,
              script: null,
              elements: [
                {
                  type: 'map',
                  index: true,
                  elements: [
                    { type: 'string', index: true },
                    { type: 'string', index: true },
                  ],
                },
              ],
              source: { from_json_pointers: ['/samples/0/records/0/metrics'] },
              suppress: true,
            },
          },
          {
            name: 'metric_value',
            datatype: { ...dt, type: 'array', index: false, elements: [{ type: 'string' }], source: null },
          },
        ],
        compression: '',
        wurfl: null,
        format_details: {
          flattening: {
            depth: null,
            active: false,
            map_flattening_strategy: { left: '', right: '' },
            slice_flattening_strategy: { left: '', right: '' },
          },
        },
      },
    }
    const r = await api.post(path, body)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.uuid).not.toBe(body.uuid)
    expect(r.body.created).not.toBe(body.created)
    const back = (await api.get(`${path}${r.body.uuid}`)).body
    expect(back.settings.output_columns).toEqual(body.settings.output_columns)
    expect(back.settings.sql_transform).toBe(body.settings.sql_transform)
    expect(back.settings.sample_data).toEqual(body.settings.sample_data)
  })

  it('Akamai SIEM: epoch "s", null resolution on strings, columns format, type, version, sql_transform, null_values ["-1"]', async () => {
    const path = await newTable()
    const dt = { index: true, format: null, resolution: null, default: null, script: null, suppress: false }
    const pointer = (p: string) => ({ from_json_pointers: [p] })
    const columns = [
      {
        name: 'timestamp',
        datatype: {
          ...dt,
          type: 'epoch',
          index: false,
          primary: true,
          format: 's',
          resolution: 'seconds',
          source: pointer('/httpMessage/start'),
        },
      },
      { name: 'referer', datatype: { ...dt, type: 'string', source: { from_input_field: 'sql_transform' } } },
      { name: 'format', datatype: { ...dt, type: 'string', source: null } },
      { name: 'type', datatype: { ...dt, type: 'string', source: null } },
      { name: 'version', datatype: { ...dt, type: 'string', source: null } },
      { name: 'rulesStr', datatype: { ...dt, type: 'string', source: pointer('/attackData/rules'), suppress: true } },
      {
        name: 'rules',
        datatype: { ...dt, type: 'array', index: false, elements: [{ type: 'string', index: true }], source: null },
      },
    ]
    const r = await api.post(path, {
      name: 'siem',
      description: 'Default SIEM integration for Akamai',
      type: 'json',
      settings: {
        is_default: true,
        rate_limit: null,
        shadow_table: null,
        sql_transform: 'SELECT akamai_siem_extract(rulesStr) AS rules, * FROM {STREAM}',
        null_values: ['-1'],
        sample_data: { httpMessage: { start: '1491303422' }, attackData: { rules: 'OTUw' } },
        output_columns: columns,
      },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect((await api.get(`${path}${r.body.uuid}`)).body.settings.output_columns).toEqual(columns)
  })

  it('EdgeCast and Datazoom: an epoch primary in "seconds" stored as ms, columns named uuid and status, dotted names', async () => {
    const path = await newTable()
    const edgecast = await api.post(path, {
      name: 'EdgeCast-RTLD-Transform',
      description: 'Real-time Log Delivery',
      type: 'json',
      settings: {
        is_default: true,
        compression: 'none',
        output_columns: [
          { name: 'account_number', datatype: { type: 'uint32' } },
          { name: 'first_byte_served', datatype: { type: 'int8' } },
          { name: 'status', datatype: { type: 'string' } },
          { name: 'timestamp', datatype: { type: 'epoch', format: 'seconds', primary: true, resolution: 'ms' } },
          { name: 'uuid', datatype: { type: 'string' } },
          { name: 'write_time', datatype: { type: 'double' } },
        ],
      },
    })
    expect(edgecast.status, JSON.stringify(edgecast.body)).toBe(201)
    const ingested = await c.api(
      'POST',
      '/ingest/event',
      JSON.stringify({ account_number: 7, status: 'OK', timestamp: 1700000000, uuid: 'u-1', write_time: 0.5 }),
      undefined,
      { 'x-hdx-table': `real_p${n}.real_t${n}`, 'content-type': 'application/json' },
    )
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(200)
    const q = await c.api(
      'POST',
      '/query',
      `SELECT toUnixTimestamp(timestamp), uuid FROM real_p${n}.real_t${n} FORMAT JSONCompact`,
    )
    expect(q.body.data).toEqual([[1700000000, 'u-1']])

    const datazoom = await api.post(await newTable(), {
      name: 'transform',
      type: 'json',
      settings: {
        is_default: true,
        output_columns: [
          { name: 'event.type', datatype: { type: 'string' } },
          { name: 'event.timestamp', datatype: { type: 'epoch', primary: true, format: 'ms', resolution: 'ms' } },
          { name: 'event.metrics.buffer_fill_percent', datatype: { type: 'double', index: false } },
          {
            name: 'event.metrics.content_session_start_ts_ms',
            datatype: { type: 'epoch', format: 'ms', resolution: 'ms' },
          },
          { name: 'attempt.success', datatype: { type: 'boolean' } },
        ],
      },
    })
    expect(datazoom.status, JSON.stringify(datazoom.body)).toBe(201)
  })

  it("Cloudflare and Fastly v2: virtual columns, elements [] on scalars, every type's default, a microsecond primary", async () => {
    const path = await newTable()
    const dt = {
      index: true,
      virtual: false,
      primary: false,
      source: null,
      catch_all: false,
      ignore: false,
      format: null,
      resolution: 'seconds',
      default: null,
      script: null,
      elements: [],
      suppress: false,
    }
    const columns = [
      {
        name: 'reqTimeSec',
        datatype: {
          ...dt,
          type: 'datetime',
          index: false,
          primary: true,
          format: '2006-01-02T15:04:05.999999Z',
          resolution: 'ms',
          source: { from_input_field: 'timestamp' },
        },
      },
      { name: 'hdx_cdn', datatype: { ...dt, type: 'string', default: 'fastly' } },
      {
        name: 'is_tls',
        datatype: { ...dt, type: 'bool', default: false, source: { from_input_field: 'sql_transform' } },
      },
      { name: 'EdgeResponseTimeMS', datatype: { ...dt, type: 'uint64', virtual: true } },
      { name: 'EdgeResponseCompressionRatio', datatype: { ...dt, type: 'double', index: false } },
    ]
    const r = await api.post(path, {
      name: 'fastly_v2',
      description: 'Fastly CDN Transform',
      type: 'json',
      settings: {
        is_default: true,
        sql_transform: 'SELECT IF(ISNULL(tlsVersion), 0, 1) as is_tls, * FROM {STREAM}',
        null_values: [],
        sample_data: null,
        output_columns: columns,
      },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect((await api.get(`${path}${r.body.uuid}`)).body.settings.output_columns).toEqual(columns)
  })
})
