/*
 * The table page's settings groups without zod (decision 077): the fields, their words and the
 * groups, for the form the browser renders first; `table-settings.ts` builds the schemas from them
 * and re-exports this module.
 */

export type SettingKind =
  /** a whole number */
  | 'int'
  /** a number that may have a fraction */
  | 'number'
  /** a checkbox */
  | 'bool'
  | 'text'
  /** one value per line → a list of strings */
  | 'lines'
  /** a JSON value */
  | 'json'
  /** a JSON list of column names */
  | 'sortKeys'

export type SettingField = {
  /** The form field's name (unique in its group). */
  name: string
  /** Where it lives under `settings`. */
  path: string[]
  label: string
  kind: SettingKind
  /** Empty is an error (flush fields); otherwise empty takes the default. */
  required?: boolean
  /** Empty is an error with the spec's "must not be blank" (index sort keys: `[]` says none). */
  notBlank?: boolean
  /** The checkbox says the opposite of the setting ("Disable merge" ↔ merge.enabled). */
  inverted?: boolean
  help?: string
  /** An extra rule: returns the message when the (non-empty) text breaks it. */
  check?: (text: string) => string | undefined
  /** Empty removes the setting instead of taking a default (query options). */
  unsetWhenEmpty?: boolean
  /** The textarea's rows (json, lines). */
  rows?: number
}

export type SettingsGroupKey = 'bucket' | 'lifecycle' | 'index' | 'merge' | 'flush' | 'stream' | 'summary' | 'query'

export type SettingsGroupDef = { key: SettingsGroupKey; title: string; description: string; fields: SettingField[] }

export const SETTINGS_MESSAGES = {
  required: (label: string) => `${label} is required`,
  integer: (label: string) => `${label} must be an integer`,
  number: (label: string) => `${label} must be a number`,
  json: (label: string) => `${label} must be JSON`,
  memoryCoefficient: 'Memory coefficient must be a positive number',
  notBlank: (label: string) => `${label} must not be blank`,
  shardKeyImmutable: 'The shard key cannot be changed once set.',
} as const

const flushFields = (temp: 'hot' | 'cold'): SettingField[] => {
  const Temp = temp === 'hot' ? 'Hot' : 'Cold'
  const field = (key: string, label: string, help?: string): SettingField => ({
    name: `${temp}_${key}`,
    path: ['stream', `${temp}_data_${key}`],
    label: `${Temp}: ${label}`,
    kind: 'int',
    required: true,
    help,
  })
  return [
    field('max_active_partitions', 'max active partitions'),
    field('max_rows_per_partition', 'max rows per partition'),
    field('max_minutes_per_partition', 'max minutes per partition'),
    field('max_open_seconds', 'max open seconds'),
    field('max_idle_seconds', 'max idle seconds'),
    temp === 'hot'
      ? field('max_age_minutes', 'max age (minutes)', 'Data with a primary timestamp newer than this is hot.')
      : field('max_age_days', 'max age (days)', 'Older data than this is not ingested.'),
  ]
}

const query = (key: string, label: string, kind: SettingKind = 'int'): SettingField => ({
  name: key,
  path: ['default_query_options', key],
  label,
  kind,
  unsetWhenEmpty: true,
})

export const SETTINGS_GROUPS: SettingsGroupDef[] = [
  {
    key: 'bucket',
    title: 'Bucket settings',
    description: 'Store rows in different buckets by the value of one column; other values go to the default storage.',
    fields: [
      { name: 'column_name', path: ['storage_map', 'column_name'], label: 'Column name', kind: 'text', required: true },
      {
        name: 'default_storage_id',
        path: ['storage_map', 'default_storage_id'],
        label: 'Default storage ID',
        kind: 'text',
        required: true,
      },
      {
        name: 'column_value_mapping',
        path: ['storage_map', 'column_value_mapping'],
        label: 'Value lists → storage IDs (JSON)',
        kind: 'json',
        help: 'An object: each storage ID mapped to the list of column values stored there, e.g. {"<storage id>": ["eu", "de"]}.',
        rows: 4,
        check: (text) => {
          const value: unknown = JSON.parse(text)
          const ok =
            value !== null &&
            typeof value === 'object' &&
            !Array.isArray(value) &&
            Object.values(value).every((list) => Array.isArray(list) && list.every((item) => typeof item === 'string'))
          return ok ? undefined : 'Value lists must map each storage ID to a list of values'
        },
      },
    ],
  },
  {
    key: 'lifecycle',
    title: 'Data lifecycle',
    description: 'How long data is kept, and when removed data is deleted for good.',
    fields: [
      {
        name: 'max_age_days',
        path: ['age', 'max_age_days'],
        label: 'Max age (days)',
        kind: 'int',
        help: 'Data older than this is removed; 0 keeps it forever.',
      },
      {
        name: 'reaper_max_age_days',
        path: ['reaper', 'max_age_days'],
        label: 'Delay before permanent deletion (days)',
        kind: 'int',
      },
      {
        name: 'max_future_days',
        path: ['max_future_days'],
        label: 'Max future days',
        kind: 'int',
        help: 'Rows dated further ahead than this are rejected; 0 accepts any.',
      },
    ],
  },
  {
    key: 'index',
    title: 'Index',
    description: 'The columns data is sorted by, and the column partitions are sharded by.',
    fields: [
      {
        name: 'sort_keys',
        path: ['sort_keys'],
        label: 'Sort keys (JSON)',
        kind: 'sortKeys',
        notBlank: true,
        help: 'A JSON list of column names, e.g. ["host", "status"]; [] for none.',
        rows: 2,
      },
      { name: 'shard_key', path: ['shard_key'], label: 'Shard key', kind: 'text', help: 'Cannot be changed once set.' },
    ],
  },
  {
    key: 'merge',
    title: 'Merge',
    description:
      'Merging combines small partitions. Pools: small takes partitions with a primary ' +
      'timestamp under 1 hour old, medium 1 to 24 hours, large over 1 day.',
    fields: [
      { name: 'disable', path: ['merge', 'enabled'], label: 'Disable merge', kind: 'bool', inverted: true },
      {
        name: 'memory_coefficient',
        path: ['merge', 'memory_coefficient'],
        label: 'Memory coefficient',
        kind: 'number',
        check: (text) => (Number(text) > 0 ? undefined : SETTINGS_MESSAGES.memoryCoefficient),
      },
      {
        name: 'pool_small',
        path: ['merge', 'pools', 'small'],
        label: 'Small pool',
        kind: 'text',
        unsetWhenEmpty: true,
      },
      {
        name: 'pool_medium',
        path: ['merge', 'pools', 'medium'],
        label: 'Medium pool',
        kind: 'text',
        unsetWhenEmpty: true,
      },
      {
        name: 'pool_large',
        path: ['merge', 'pools', 'large'],
        label: 'Large pool',
        kind: 'text',
        unsetWhenEmpty: true,
      },
    ],
  },
  {
    key: 'flush',
    title: 'Flush (hot and cold)',
    description: 'When stream ingest closes a partition. Hot max age is in minutes, cold max age in days.',
    fields: [...flushFields('hot'), ...flushFields('cold')],
  },
  {
    key: 'stream',
    title: 'Stream',
    description: 'Who may send rows to the stream endpoint, and how many rows may wait in the queue.',
    fields: [
      {
        name: 'token_auth_enabled',
        path: ['stream', 'token_auth_enabled'],
        label: 'Token authentication enabled',
        kind: 'bool',
      },
      { name: 'token_list', path: ['stream', 'token_list'], label: 'Tokens (one per line)', kind: 'lines', rows: 3 },
      {
        name: 'message_queue_max_rows',
        path: ['stream', 'message_queue_max_rows'],
        label: 'Max queue rows',
        kind: 'int',
        required: true,
      },
    ],
  },
  {
    key: 'summary',
    title: 'Summary',
    description: 'A summary table is fed by the SQL below as rows arrive in its parent table.',
    fields: [
      { name: 'summary_enabled', path: ['summary', 'enabled'], label: 'Summary enabled', kind: 'bool' },
      { name: 'summary_sql', path: ['summary', 'sql'], label: 'Summary SQL', kind: 'text', required: true, rows: 6 },
    ],
  },
  {
    key: 'query',
    title: 'Query options',
    description: 'Defaults for every query on this table; an empty field leaves the option unset.',
    fields: [
      query('hdx_query_max_rows', 'Max rows'),
      query('hdx_query_max_attempts', 'Max attempts'),
      query('hdx_query_max_result_bytes', 'Max result bytes'),
      query('hdx_query_max_result_rows', 'Max result rows'),
      query('hdx_query_max_timerange_sec', 'Max timerange (seconds)'),
      query('hdx_query_timerange_required', 'Timerange required', 'bool'),
      query('hdx_query_max_partitions', 'Max partitions'),
      query('hdx_query_max_execution_time', 'Max execution time (seconds)'),
      query('hdx_query_max_columns_to_read', 'Max columns to read'),
      query('hdx_query_max_memory_usage', 'Max memory usage (bytes)'),
      query('hdx_query_catalog_timeout_ms', 'Catalog timeout (ms)'),
      query('hdx_query_unlimited_cnf', 'Unlimited CNF', 'bool'),
      query('hdx_query_max_peers', 'Max peers'),
      query('hdx_query_pool_name', 'Peer pool name', 'text'),
      query('hdx_query_max_streams', 'Max streams'),
      query('hdx_query_max_concurrent_partitions', 'Max concurrent partitions'),
      query('hdx_query_output_file_enabled', 'Output file enabled', 'bool'),
      query('hdx_query_output_filename', 'Output file name', 'text'),
      query('hdx_query_comment', 'Comment', 'text'),
      query('hdx_query_admin_comment', 'Admin comment', 'text'),
      query('hdx_query_debug', 'Debug', 'bool'),
      query('hdx_query_label', 'Label', 'text'),
      query('distributed_aggregation_memory_efficient', 'Distributed aggregation memory efficient', 'bool'),
      query('max_bytes_before_external_group_by', 'Max bytes before external group by'),
      query('max_bytes_before_external_sort', 'Max bytes before external sort'),
      query('alter_reliable_update_enabled', 'Alter reliable update enabled', 'bool'),
    ],
  },
]

/** Whether the form shows the field as a textarea (a browser posts its line breaks as CR LF). */
export function isTextareaField(field: Pick<SettingField, 'rows' | 'kind'>): boolean {
  return Boolean(field.rows) || field.kind === 'json' || field.kind === 'lines' || field.kind === 'sortKeys'
}

export function settingsGroup(key: string | null | undefined): SettingsGroupDef | undefined {
  return SETTINGS_GROUPS.find((group) => group.key === key)
}
