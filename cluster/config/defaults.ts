import { f, type Field, type Fields } from './schema'

/** Default settings (product spec §9), served by `GET /config/v1/defaults/` and merged under new objects. */

export const STREAM_DEFAULTS = {
  token_auth_enabled: false,
  token_list: [] as string[],
  hot_data_max_age_minutes: 3,
  hot_data_max_active_partitions: 3,
  hot_data_max_rows_per_partition: 12_288_000,
  hot_data_max_minutes_per_partition: 1,
  hot_data_max_open_seconds: 60,
  hot_data_max_idle_seconds: 30,
  cold_data_max_age_days: 3650,
  cold_data_max_active_partitions: 50,
  cold_data_max_rows_per_partition: 12_288_000,
  cold_data_max_minutes_per_partition: 60,
  cold_data_max_open_seconds: 300,
  cold_data_max_idle_seconds: 60,
  message_queue_max_rows: 0,
}

export const AUTOINGEST_DEFAULTS = {
  enabled: false,
  source: '',
  source_region: '',
  pattern: '',
  max_rows_per_partition: 12_288_000,
  destination: '/tmp/scratch',
  max_minutes_per_partition: 60,
  max_active_partitions: 50,
  input_aggregation: 1_073_741_824,
  dry_run: false,
  source_credential_id: null as string | null,
  bucket_credential_id: null as string | null,
}

export function tableDefaults() {
  return {
    stream: { ...STREAM_DEFAULTS, token_list: [] as string[] },
    age: { max_age_days: 0 },
    reaper: { max_age_days: 1 },
    merge: {
      enabled: true,
      partition_duration_minutes: 60,
      input_aggregation: 20_000_000_000,
      max_candidates: 20,
      max_rows: 10_000_000,
      max_partitions_per_candidate: 100,
      min_age_mins: 1,
      max_age_mins: 10_080,
      memory_coefficient: 0,
      pools: { small: '', medium: '', large: '' },
    },
    autoingest: [{ ...AUTOINGEST_DEFAULTS }],
    sort_keys: [] as string[],
    shard_key: null as string | null,
    max_future_days: 0,
    max_request_bytes: 0,
    rate_limit: null,
    default_query_options: {} as Record<string, unknown>,
    // no storage_map unless one is given: real tables answer without the key, and a null there
    // ends hdxcli's `settings` listing (it reads every OPTIONS path and only catches a missing key)
  }
}

export function transformDefaults() {
  return {
    is_default: false,
    output_columns: [] as unknown[],
    compression: 'none',
    null_values: [] as string[],
    sql_transform: null as string | null,
    rate_limit: null,
    shadow_table: null,
    wurfl: null,
    sample_data: null,
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
        depth: 1,
        map_flattening_strategy: { left: '.', right: '' },
        slice_flattening_strategy: { left: '[', right: ']' },
      },
    },
  }
}

export function projectDefaults() {
  return { default_query_options: {}, blob: {}, rate_limit: null }
}

export function poolDefaults() {
  return { k8s_deployment: { replicas: '1', cpu: '0.5', memory: '0.5Gi', storage: '0.5Gi' } }
}

/**
 * The whole `defaults/` answer, grouped as in the spec. `table.autoingest` is the default of one
 * autoingest entry (an object); in a table's settings `autoingest` is a list of such entries.
 */
export function allDefaults() {
  const table = { ...tableDefaults(), autoingest: { ...AUTOINGEST_DEFAULTS } }
  return {
    project: projectDefaults(),
    table,
    transform: transformDefaults(),
    pool: poolDefaults(),
    sources: {
      kafka: {
        settings: { bootstrap_servers: [], topics: [], offset: 'latest', read_timeout: 30, max_wait: 500 },
        k8s_deployment: { replicas: 1, cpu: 1, memory: '1Gi', storage: '1Gi', service: 'kafka-peer' },
      },
      kinesis: {
        settings: { stream_name: '', region: '', checkpointer: { name: '' } },
        k8s_deployment: { replicas: 1, cpu: 1, memory: '10Gi', storage: '10Gi', service: 'kinesis-peer' },
      },
      siem: { settings: { access_details: {} }, k8s_deployment: { replicas: 1, cpu: 1, service: 'akamai-siem-peer' } },
    },
    jobs: {
      batch: {
        settings: {
          max_active_partitions: 576,
          max_rows_per_partition: 33_554_432,
          max_minutes_per_partition: 15,
          input_concurrency: 1,
          input_aggregation: 1_536_000_000,
          max_files: 0,
          dry_run: false,
          regex_filter: '',
        },
      },
    },
  }
}

// ------------------------------------------------------------------------------------------------
// Query options (§9 of the reference): names and types, validated wherever default_query_options
// appear (org query_options, project and table settings).

const int0 = (o: Partial<Extract<Field, { type: 'integer' }>> = {}) => f.int({ min: 0, ...o })

export const QUERY_OPTION_FIELDS: Fields = {
  hdx_query_max_rows: int0({ help: 'Rows evaluated; 0 = unlimited' }),
  hdx_query_max_attempts: int0(),
  hdx_query_max_result_bytes: f.int({ min: 10_000, help: 'Bytes in the result; at least 10000' }),
  hdx_query_max_result_rows: int0(),
  hdx_query_max_timerange_sec: int0(),
  hdx_query_timerange_required: f.bool(),
  hdx_query_max_partitions: int0(),
  hdx_query_max_execution_time: int0(),
  hdx_query_max_columns_to_read: int0(),
  hdx_query_max_memory_usage: int0(),
  hdx_query_max_memory_usage_perc: f.int({ min: 0, max: 100 }),
  hdx_query_catalog_timeout_ms: int0(),
  hdx_query_unlimited_cnf: f.bool(),
  hdx_query_max_peers: int0(),
  hdx_query_pool_name: f.str({ blank: true }),
  hdx_query_max_streams: int0(),
  hdx_query_max_concurrent_partitions: f.int({ min: 1 }),
  hdx_query_output_file_enabled: f.bool(),
  hdx_query_output_filename: f.str({ blank: true }),
  hdx_query_output_format: f.str({ blank: true }),
  hdx_query_comment: f.str({ blank: true }),
  hdx_query_admin_comment: f.str({ blank: true }),
  hdx_query_debug: f.bool(),
  hdx_query_label: f.str({ blank: true }),
  hdx_query_streaming_result: f.bool(),
  hdx_query_max_perc_before_external_group_by: f.int({ min: 0, max: 100 }),
  hdx_query_max_perc_before_external_sort: f.int({ min: 0, max: 100 }),
  hdx_log_query: f.bool(),
  use_query_cache: f.bool(),
  query_cache_ttl: int0(),
  distributed_aggregation_memory_efficient: f.bool(),
  max_bytes_before_external_group_by: int0(),
  max_bytes_before_external_sort: int0(),
  alter_reliable_update_enabled: f.bool(),
}

/** default_query_options: known option names only, each with its type. */
export const queryOptionsField = (): Field =>
  f.obj(QUERY_OPTION_FIELDS, { open: false, strict: '"{name}" is not a known query option.' })
