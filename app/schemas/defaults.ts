/**
 * Built-in fallbacks for the cluster's defaults (spec section 9), used when GET /defaults fails or
 * leaves a value out.
 */
export const TABLE_DEFAULTS = {
  stream: {
    hot_data_max_age_minutes: 3,
    hot_data_max_active_partitions: 3,
    hot_data_max_rows_per_partition: 12288000,
    hot_data_max_minutes_per_partition: 1,
    hot_data_max_open_seconds: 60,
    hot_data_max_idle_seconds: 30,
    cold_data_max_age_days: 3650,
    cold_data_max_active_partitions: 50,
    cold_data_max_rows_per_partition: 12288000,
    cold_data_max_minutes_per_partition: 60,
    cold_data_max_open_seconds: 300,
    cold_data_max_idle_seconds: 60,
    message_queue_max_rows: 0,
  },
  age: { max_age_days: 0 },
  reaper: { max_age_days: 1 },
  merge: {
    enabled: true,
    partition_duration_minutes: 60,
    input_aggregation: 20000000000,
    max_candidates: 20,
    max_rows: 10000000,
    max_partitions_per_candidate: 100,
    min_age_mins: 1,
    max_age_mins: 10080,
    memory_coefficient: 0,
    pools: { small: '', medium: '', large: '' },
  },
  autoingest: {
    enabled: false,
    pattern: '',
    max_rows_per_partition: 12288000,
    destination: '/tmp/scratch',
    max_minutes_per_partition: 60,
    max_active_partitions: 50,
    input_aggregation: 1073741824,
    dry_run: false,
  },
  sort_keys: [] as string[],
  shard_key: null as string | null,
}
export type TableDefaults = typeof TABLE_DEFAULTS

export const TRANSFORM_DEFAULTS = {
  is_default: false,
  output_columns: [] as unknown[],
  compression: 'none',
  format_details: {
    delimiter: ',',
    skip_head: 0,
    quote: '"',
    comment: '#',
    skip_comments: false,
    escape: '"',
    windows_ending: false,
    buffer_size: 4096,
    flattening: {
      active: false,
      map_flattening_strategy: { left: '.', right: '' },
      slice_flattening_strategy: { left: '[', right: ']' },
    },
  },
}
export type TransformDefaults = typeof TRANSFORM_DEFAULTS

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `fallback` with every value `override` gives (of the same kind) laid over it, recursively. */
export function mergeDefaults<T>(fallback: T, override: unknown): T {
  if (!isPlainObject(fallback) || !isPlainObject(override)) return fallback
  const result: Record<string, unknown> = { ...fallback }
  for (const [key, base] of Object.entries(fallback)) {
    if (!(key in override)) continue
    const value = override[key]
    if (isPlainObject(base)) result[key] = mergeDefaults(base, value)
    else if (value === null || value === undefined) result[key] = base === null ? null : base
    else if (base === null || typeof value === typeof base || (Array.isArray(base) && Array.isArray(value))) result[key] = value
  }
  return result as T
}
