import { describe, expect, it } from 'vitest'
import { mergeDefaults, TABLE_DEFAULTS } from './defaults'

describe('table defaults', () => {
  it('hold the spec’s values', () => {
    expect(TABLE_DEFAULTS.stream.hot_data_max_rows_per_partition).toBe(12288000)
    expect(TABLE_DEFAULTS.stream.cold_data_max_age_days).toBe(3650)
    expect(TABLE_DEFAULTS.merge.max_age_mins).toBe(10080)
    expect(TABLE_DEFAULTS.autoingest.destination).toBe('/tmp/scratch')
    expect(TABLE_DEFAULTS.reaper.max_age_days).toBe(1)
  })

  it('take the cluster’s values over the built-in ones, keeping what it leaves out', () => {
    const merged = mergeDefaults(TABLE_DEFAULTS, {
      stream: { hot_data_max_age_minutes: 10, unknown_key: 1 },
      merge: { enabled: 'yes' },
      sort_keys: ['timestamp'],
      shard_key: 'host',
    })
    expect(merged.stream.hot_data_max_age_minutes).toBe(10)
    expect(merged.stream.hot_data_max_active_partitions).toBe(3)
    expect('unknown_key' in merged.stream).toBe(false)
    expect(merged.merge.enabled).toBe(true) // wrong kind: the built-in value stays
    expect(merged.sort_keys).toEqual(['timestamp'])
    expect(merged.shard_key).toBe('host')
  })

  it('fall back entirely when there is nothing to merge', () => {
    expect(mergeDefaults(TABLE_DEFAULTS, undefined)).toBe(TABLE_DEFAULTS)
  })
})
