import { paramNameOf } from '~/utils/sql-params'

/**
 * The spec's query options (section 3), each under the setting name the query API takes as a URL
 * parameter (cluster-api.md section 9). Shared by the editor form, the server that validates and
 * sends them, and the Reference tab. Form fields are named after the settings, so a result URL
 * reads `/result?sql=…&hdx_query_max_rows=10`.
 */
export type QueryOptionKind = 'int' | 'bool' | 'text' | 'format'
export type QueryOption = {
  name: string
  label: string
  kind: QueryOptionKind
  description: string
  /** For bools: the values the setting takes for yes and no. */
  values?: readonly [yes: string, no: string]
}
export type QueryOptionGroup = { title: string; options: QueryOption[] }

/** The query UI shows at most this many rows (spec sections 5 and 9). */
export const QUERY_UI_MAX_ROWS = 10_000
export const MAX_ROWS_MESSAGE = 'Query UI max rows limited to 10,000'
export const MAX_RESULT_ROWS = 'hdx_query_max_result_rows'
/** Spec section 8: an empty result. */
export const EMPTY_RESULT_MESSAGE = 'Nothing was found for the current query'
export const NO_SQL_MESSAGE = 'Enter a query to run'

const HDX_BOOL = ['true', 'false'] as const
const ENGINE_BOOL = ['1', '0'] as const

export const OUTPUT_FORMATS = [
  'CSV',
  'CSVWithNames',
  'TSV',
  'TSVWithNames',
  'JSON',
  'JSONCompact',
  'JSONEachRow',
  'Pretty',
] as const

export const QUERY_OPTION_GROUPS: QueryOptionGroup[] = [
  {
    title: 'Output formatting',
    options: [
      {
        name: 'hdx_query_output_file_enabled',
        label: 'Output file enabled',
        kind: 'bool',
        values: HDX_BOOL,
        description: 'Write the result to a file in storage.',
      },
      { name: 'hdx_query_output_filename', label: 'File name', kind: 'text', description: 'Name of the output file.' },
      {
        name: 'hdx_query_output_format',
        label: 'Format',
        kind: 'format',
        description: 'Output format of the answer (the UI shows JSON formats as a table, others as text).',
      },
      { name: 'hdx_query_comment', label: 'Comment', kind: 'text', description: 'A comment recorded with the query.' },
      {
        name: 'hdx_query_admin_comment',
        label: 'Admin comment',
        kind: 'text',
        description: 'A comment shown to administrators in active queries.',
      },
      {
        name: 'hdx_query_debug',
        label: 'Debug',
        kind: 'bool',
        values: HDX_BOOL,
        description: 'Add index and column details to the statistics.',
      },
      { name: 'hdx_query_label', label: 'Label', kind: 'text', description: 'A label to find the query by.' },
    ],
  },
  {
    title: 'Circuit breakers',
    options: [
      {
        name: 'hdx_query_max_rows',
        label: 'Max rows',
        kind: 'int',
        description: 'Most rows the query may read; 0 is unlimited.',
      },
      {
        name: 'hdx_query_max_attempts',
        label: 'Max attempts',
        kind: 'int',
        description: 'How many times a failing query is retried.',
      },
      {
        name: 'hdx_query_max_result_bytes',
        label: 'Max result bytes',
        kind: 'int',
        description: 'Most bytes in the result.',
      },
      {
        name: MAX_RESULT_ROWS,
        label: 'Max result rows',
        kind: 'int',
        description: 'Most rows in the result; the query UI shows at most 10,000.',
      },
      {
        name: 'hdx_query_max_timerange_sec',
        label: 'Max timerange',
        kind: 'int',
        description: 'Widest time range the query may cover, in seconds.',
      },
      {
        name: 'hdx_query_timerange_required',
        label: 'Timerange required',
        kind: 'bool',
        values: HDX_BOOL,
        description: 'Refuse queries without a time filter on the primary column.',
      },
      {
        name: 'hdx_query_max_partitions',
        label: 'Max partitions',
        kind: 'int',
        description: 'Most partitions the query may read.',
      },
      {
        name: 'hdx_query_max_execution_time',
        label: 'Max execution time',
        kind: 'int',
        description: 'Seconds before the query is stopped.',
      },
      {
        name: 'hdx_query_max_columns_to_read',
        label: 'Max columns to read',
        kind: 'int',
        description: 'Most columns the query may read.',
      },
      {
        name: 'hdx_query_max_memory_usage',
        label: 'Max memory usage',
        kind: 'int',
        description: 'Most memory the query may use, in bytes.',
      },
      {
        name: 'hdx_query_catalog_timeout_ms',
        label: 'Catalog timeout ms',
        kind: 'int',
        description: 'Time allowed for the catalog lookup, in ms.',
      },
      {
        name: 'hdx_query_unlimited_cnf',
        label: 'Unlimited CNF',
        kind: 'bool',
        values: HDX_BOOL,
        description: 'Lift the limit on the size of the filter’s normal form.',
      },
    ],
  },
  {
    title: 'Rate limiting',
    options: [
      { name: 'hdx_query_max_peers', label: 'Max peers', kind: 'int', description: 'Most query peers used; 0 is all.' },
      {
        name: 'hdx_query_pool_name',
        label: 'Peer pool name',
        kind: 'text',
        description: 'The query pool that runs the query.',
      },
      {
        name: 'hdx_query_max_streams',
        label: 'Max streams',
        kind: 'int',
        description: 'Threads per peer; 0 is one per CPU.',
      },
      {
        name: 'hdx_query_max_concurrent_partitions',
        label: 'Max concurrent partitions',
        kind: 'int',
        description: 'Partitions read at once per peer.',
      },
    ],
  },
  {
    title: 'Other flags',
    options: [
      {
        name: 'distributed_aggregation_memory_efficient',
        label: 'Distributed aggregation memory efficient',
        kind: 'bool',
        values: ENGINE_BOOL,
        description: 'Merge distributed aggregation in less memory.',
      },
      {
        name: 'max_bytes_before_external_group_by',
        label: 'Max bytes before external group by',
        kind: 'int',
        description: 'Spill GROUP BY to disk above this many bytes; 0 never.',
      },
      {
        name: 'max_bytes_before_external_sort',
        label: 'Max bytes before external sort',
        kind: 'int',
        description: 'Spill ORDER BY to disk above this many bytes; 0 never.',
      },
      {
        name: 'hdx_query_alter_reliable_update_enabled',
        label: 'Alter reliable update enabled',
        kind: 'bool',
        values: HDX_BOOL,
        description: 'Use reliable updates for alter statements.',
      },
    ],
  },
]

export const QUERY_OPTIONS: QueryOption[] = QUERY_OPTION_GROUPS.flatMap((group) => group.options)
const BY_NAME = new Map(QUERY_OPTIONS.map((option) => [option.name, option]))

/**
 * The filled options of `params` (unknown names and empty values dropped, values trimmed), and the
 * values of the SQL's typed parameters (`param_<name>`, decision 100) as given: not trimmed, an empty
 * one kept (an empty String is a value). Parameters ride with the options, so everything that sends
 * a run's settings (the result, its streamed rows, progress, cancel, downloads, Analysis) sends them
 * as the HTTP interface takes them, and a saved query and a history entry keep them in their options.
 */
export function readOptions(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {}
  for (const option of QUERY_OPTIONS) {
    const value = params.get(option.name)?.trim()
    if (value) values[option.name] = value
  }
  for (const [field, value] of params) {
    if (paramNameOf(field) !== null && !(field in values)) values[field] = value
  }
  return values
}

/** The options without the parameters' values (what the Query options disclosure shows and counts). */
export function withoutParams(options: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(options).filter(([field]) => paramNameOf(field) === null))
}

/**
 * The filled options exactly as typed (spaces and all), for a form shown again after a refusal or
 * in a POST's own answer: what runs or is saved is `readOptions`' trimmed values.
 */
export function typedOptions(fields: FormData | URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {}
  for (const option of QUERY_OPTIONS) {
    const value = fields.get(option.name)
    if (typeof value === 'string' && value.trim()) values[option.name] = value
  }
  for (const [field, value] of fields) {
    if (paramNameOf(field) !== null && typeof value === 'string' && !(field in values)) values[field] = value
  }
  return values
}

/** Field errors for option values the query API would refuse, keyed by option name. */
export function validateOptions(values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const [name, value] of Object.entries(values)) {
    const option = BY_NAME.get(name)
    if (!option) continue
    if (option.kind === 'int' && !/^\d+$/.test(value)) errors[name] = `${option.label} must be a whole number`
    else if (option.kind === 'bool' && !option.values!.includes(value))
      errors[name] = `${option.label} must be ${option.values!.join(' or ')}`
    else if (option.kind === 'format' && !/^[A-Za-z]+$/.test(value))
      errors[name] = `${option.label} must be a format name`
  }
  const maxResultRows = values[MAX_RESULT_ROWS]
  if (!errors[MAX_RESULT_ROWS] && maxResultRows && Number(maxResultRows) > QUERY_UI_MAX_ROWS)
    errors[MAX_RESULT_ROWS] = MAX_ROWS_MESSAGE
  return errors
}

/** The editor's link for a statement and its options (a query string): opens it, never runs it. */
export function editorLink(sql: string, options: string): string {
  const params = new URLSearchParams(options)
  params.set('data', sql)
  return `/queries?${params}`
}

/** The result's link for a statement and its options (a query string): runs it. */
export function resultLink(sql: string, options: string): string {
  return `/result?${new URLSearchParams([['sql', sql], ...new URLSearchParams(options)])}`
}
