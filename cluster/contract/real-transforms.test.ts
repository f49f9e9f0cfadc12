/**
 * Transforms exported from real clusters (issue 32): what a real cluster holds, the local one holds
 * as given. The spec's rules on index and names are the console form's rules for what an operator
 * types, not the API's.
 */
import { describe, expect, it } from 'vitest'
import { type hdx, hdxcliLogin, org, useContractCluster } from './helpers'

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
})
