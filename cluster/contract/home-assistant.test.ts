/** The Home Assistant integration (dsztykman/hydrolix_home_assistant). */
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { c, org, raw, unwrapList, useContractCluster } from './helpers'

useContractCluster()

describe('Home Assistant integration (custom_components/hydrolix_history/config_api.py, client.py)', () => {
  it('finds the org, provisions project, table and transform, then ingests gzipped NDJSON with ?table=&transform=', async () => {
    const headers = {
      Authorization: `Bearer ${c.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    }
    const base = 'http://local-cluster/config/v1'
    // get_org_uuid: _unwrap_list(GET /orgs/)[0]["uuid"]
    const orgs = await raw('GET', `${base}/orgs/`, { headers })
    expect(unwrapList(orgs.body)[0].uuid).toBe(org)
    // create_project: _unwrap_single(POST) -> ["uuid"]
    const proj = await raw('POST', `${base}/orgs/${org}/projects/`, {
      headers,
      body: JSON.stringify({ name: 'home_assistant', description: 'Home Assistant history data' }),
    })
    expect(proj.status).toBe(201)
    const table = await raw('POST', `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/`, {
      headers,
      body: JSON.stringify({
        name: 'states',
        description: 'Home Assistant state change history',
        settings: {
          stream: {
            hot_data_max_age_minutes: 5,
            hot_data_max_active_partitions: 3,
            hot_data_max_rows_per_partition: 12288000,
            hot_data_max_minutes_per_partition: 5,
            hot_data_max_open_seconds: 60,
            hot_data_max_idle_seconds: 30,
            cold_data_max_age_days: 3650,
            cold_data_max_active_partitions: 50,
            cold_data_max_rows_per_partition: 12288000,
            cold_data_max_minutes_per_partition: 60,
            cold_data_max_open_seconds: 30,
            cold_data_max_idle_seconds: 60,
          },
          age: { max_age_days: 0 },
          merge: { enabled: true },
          sort_keys: ['entity_id'],
          max_future_days: 0,
        },
      }),
    })
    expect(table.status, JSON.stringify(table.body)).toBe(201)
    expect(table.body.uuid).toBeTruthy()
    const fmt = '2006-01-02T15:04:05.000000Z07:00'
    const transform = await raw(
      'POST',
      `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/${table.body.uuid}/transforms/`,
      {
        headers,
        body: JSON.stringify({
          name: 'ha_state_history',
          description: 'Home Assistant state change events — auto-created by the Hydrolix History integration',
          type: 'json',
          settings: {
            is_default: true,
            output_columns: [
              { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: fmt, resolution: 'ms' } },
              { name: 'entity_id', datatype: { type: 'string', index: true } },
              { name: 'domain', datatype: { type: 'string', index: true } },
              { name: 'state', datatype: { type: 'string', index: true } },
              { name: 'old_state', datatype: { type: 'string', index: true, default: '' } },
              { name: 'state_float', datatype: { type: 'double', index: false, default: '0' } },
              { name: 'last_changed', datatype: { type: 'datetime', format: fmt, resolution: 'ms', index: true } },
              { name: 'last_updated', datatype: { type: 'datetime', format: fmt, resolution: 'ms', index: true } },
              { name: 'friendly_name', datatype: { type: 'string', index: true, default: '' } },
              { name: 'device_class', datatype: { type: 'string', index: true, default: '' } },
              { name: 'unit_of_measurement', datatype: { type: 'string', index: true, default: '' } },
              { name: 'icon', datatype: { type: 'string', index: true, default: '' } },
              { name: 'attributes', datatype: { type: 'json' } },
            ],
            format_details: { flattening: { active: false, map_flattening_strategy: null } },
          },
        }),
      },
    )
    expect(transform.status, JSON.stringify(transform.body)).toBe(201)
    // list_transforms: any(t.get("name") == HA_TRANSFORM_NAME)
    const transforms = await raw(
      'GET',
      `${base}/orgs/${org}/projects/${proj.body.uuid}/tables/${table.body.uuid}/transforms/`,
      { headers },
    )
    expect(unwrapList(transforms.body).some((t) => t.name === 'ha_state_history')).toBe(true)

    // client.py _flush: POST /ingest/event?table=db.table&transform=name, gzip NDJSON, Bearer token
    const now = '2024-05-01T12:00:00.123456+00:00'
    const records = [
      {
        timestamp: now,
        entity_id: 'sensor.t',
        domain: 'sensor',
        state: '21.5',
        old_state: '21.0',
        last_changed: now,
        last_updated: now,
        friendly_name: 'T',
        device_class: 'temperature',
        unit_of_measurement: '°C',
        icon: '',
        state_float: 21.5,
        attributes: { unit_of_measurement: '°C' },
      },
      {
        timestamp: now,
        entity_id: 'light.k',
        domain: 'light',
        state: 'on',
        old_state: '',
        last_changed: now,
        last_updated: now,
        friendly_name: '',
        device_class: '',
        unit_of_measurement: '',
        icon: '',
        state_float: null,
        attributes: {},
      },
    ]
    const ingest = await raw(
      'POST',
      'http://local-cluster/ingest/event?table=home_assistant.states&transform=ha_state_history',
      {
        headers: {
          Authorization: `Bearer ${c.token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
        },
        body: zlib.gzipSync(records.map((r) => JSON.stringify(r)).join('\n')),
      },
    )
    expect([200, 201, 204], ingest.text).toContain(ingest.status)
    const q = await c.api(
      'POST',
      '/query',
      'SELECT count(), countIf(state_float IS NULL OR state_float = 0) FROM home_assistant.states FORMAT CSV',
    )
    expect(String(q.body).trim()).toBe('2,1')
  })
})
