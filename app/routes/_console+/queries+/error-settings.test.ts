import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, unwrap } from '#tests/session'
import { loader as resultLoader } from '../result'

/*
 * Issue 54, smaller points: an engine error showed the SETTINGS clause the console adds (its row
 * cap, overflow mode, 64-bit quoting) as if the user had written it. The message shows the user's SQL.
 */

useTestCluster()

let cookie: string

beforeAll(async () => {
  cookie = await loginAsAdmin()
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'errs' })
  const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: 'events',
  })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: 'events_json',
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } },
      ],
    },
  })
})

const result = async (search: Record<string, string>) =>
  unwrap<{ outcome?: { kind: string; message?: string } }>(
    await resultLoader(args(get(`/result?${new URLSearchParams(search)}`, cookie))),
  )

describe('an engine error', () => {
  it('names the user SQL, not the SETTINGS the console added', async () => {
    const { data } = await result({ sql: 'SELECT nosuch FROM errs.events' })
    expect(data.outcome?.kind).toBe('error')
    const message = data.outcome?.message ?? ''
    expect(message).toMatch(/nosuch/)
    expect(message).not.toMatch(/SETTINGS|max_result_rows|result_overflow_mode|output_format_json_quote_64bit_integers/)
  })

  it('keeps a SETTINGS clause the user wrote, without the console ones', async () => {
    const { data } = await result({ sql: 'SELECT nosuch FROM errs.events SETTINGS max_threads = 1' })
    const message = data.outcome?.message ?? ''
    expect(message).toMatch(/nosuch/)
    expect(message).toMatch(/SETTINGS max_threads = 1\b/)
    expect(message).not.toMatch(/max_result_rows|result_overflow_mode/)
  })
})
