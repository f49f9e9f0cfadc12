import fc from 'fast-check'
import { json } from './arbitraries'

/*
 * Objects in the shape a live Hydrolix cluster answers them (issue 50): what its GET output holds,
 * generated from the facts the issue records, not copied from any cluster. Used by the local
 * cluster's property tests (cluster/contract/live-cluster-shapes.test.ts, bench/live-org.ts) and
 * meant for the console's editors too: every object here must be created, read and saved unchanged.
 *
 * The facts: every output column's datatype carries `primary: null` unless it is the primary
 * (`true`), `format: null` (a layout on datetime, a unit on epoch), `default: null` or a value,
 * `script: null`, `source: {from_input_index: N}`, `suppress: false`, `index`, and
 * `resolution: "seconds"` on columns of every type. CSV transforms answer
 * `format_details.flattening: null`; `null_values` may be null; flattening strategies may hold null
 * parts; settings carry `wurfl`, `rate_limit`, `sql_transform`, `sample_data`, `compression: ""`.
 * Tables carry `default_query_options` (hdx_query_* values), `max_request_bytes`,
 * `rate_limit: null`, `shard_key: null`, `autoingest` as a list, `stream.token_list`,
 * `table_type: null`. Keys nobody documents (`x_…`) are added at every level that keeps them.
 */

/** A key no document lists, with any JSON value: a live object may carry such keys anywhere. */
const unknownKeys = fc.dictionary(fc.constantFrom('x_vendor', 'x_hint', 'x_rev', 'x_origin'), json, {
  maxKeys: 2,
}) as fc.Arbitrary<Record<string, unknown>>

const word = fc.constantFrom('edge', 'status', 'bytes', 'region', 'host', 'path', 'ua', 'cache', 'ttl', 'asn')

/** Go layouts a live datetime column holds. */
const goLayout = fc.constantFrom(
  '2006-01-02 15:04:05',
  '2006-01-02T15:04:05Z07:00',
  '2006-01-02T15:04:05.000Z',
  '02/Jan/2006:15:04:05 -0700',
  '02/01/2006 15:04',
)

/** A scalar type as a live cluster spells it, and a default of that type (or null). */
const scalar = fc.oneof(
  fc.record({ type: fc.constant('string'), default: fc.option(fc.constantFrom('-', '', 'unknown'), { nil: null }) }),
  fc.record({
    type: fc.constantFrom('uint8', 'uint16', 'uint32', 'uint64', 'int8', 'int32', 'int64'),
    default: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  }),
  fc.record({ type: fc.constantFrom('double', 'float64'), default: fc.option(fc.constant(0), { nil: null }) }),
  fc.record({ type: fc.constantFrom('bool', 'boolean'), default: fc.option(fc.boolean(), { nil: null }) }),
  fc.record({ type: fc.constantFrom('ip', 'uuid', 'json'), default: fc.constant(null) }),
)

/** The datatype keys every live column answers, whatever its type. */
const liveKeys = (type: string, index: boolean) => ({
  type,
  index,
  primary: null as boolean | null,
  format: null as string | null,
  resolution: 'seconds',
  default: null as unknown,
  script: null as string | null,
  suppress: false,
})

/** An element datatype of an array or a map, live-shaped too. */
const element = (type: string) => ({ ...liveKeys(type, false), elements: null as unknown })

/** A live output column's datatype (never the primary); `at` is its input index. */
export const liveDatatype = (at: number): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      fc.oneof(
        {
          weight: 6,
          arbitrary: scalar.map((s) => ({
            ...liveKeys(s.type, !['double', 'float64'].includes(s.type)),
            default: s.default,
          })),
        },
        { weight: 1, arbitrary: goLayout.map((format) => ({ ...liveKeys('datetime', true), format })) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('s', 'ms', 'us', 'ns').map((format) => ({ ...liveKeys('epoch', true), format })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('string', 'uint64')
            .map((t) => ({ ...liveKeys('array', false), elements: [element(t)] })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('string', 'uint32')
            .map((t) => ({ ...liveKeys('map', false), elements: [element('string'), element(t)] })),
        },
      ),
      fc.boolean(),
      fc.option(fc.boolean(), { nil: undefined }),
      unknownKeys,
    )
    .map(([dt, withIgnore, virtual, extra]) => ({
      ...dt,
      source: { from_input_index: at },
      ...(withIgnore ? { ignore: false } : {}),
      ...(virtual === undefined ? {} : { virtual: false }),
      ...extra,
    }))

/** The primary column a live transform answers. */
export const livePrimary = fc
  .tuple(
    fc.constantFrom('timestamp', 'ts', 'reqTimeSec', '_timestamp'),
    fc.oneof(
      goLayout.map((format) => ({ type: 'datetime', format })),
      fc.constantFrom('s', 'ms').map((format) => ({ type: 'epoch', format })),
    ),
  )
  .map(([name, t]) => ({
    name,
    datatype: { ...liveKeys(t.type, true), ...t, primary: true, source: { from_input_index: 0 } },
  }))

/** About `count` output columns: the primary first, then uniquely named live columns. */
export const liveColumns = (count = 60) =>
  fc
    .tuple(
      livePrimary,
      fc.array(fc.tuple(word, fc.constantFrom('', '-x', '_id')), { minLength: count - 6, maxLength: count + 4 }),
    )
    .chain(([primary, names]) =>
      fc
        .tuple(...names.map((_, i) => liveDatatype(i + 1)))
        .map((datatypes) => [
          primary,
          ...datatypes.map((datatype, i) => ({ name: `${names[i][0]}${i}${names[i][1]}`, datatype })),
        ]),
    )

const liveFlattening = fc.record({
  active: fc.boolean(),
  depth: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  map_flattening_strategy: fc.option(
    fc.record({ left: fc.constantFrom('.', '_'), right: fc.option(fc.constant(''), { nil: null }) }),
    { nil: null },
  ),
  slice_flattening_strategy: fc.option(
    fc.record({
      left: fc.option(fc.constant('['), { nil: null }),
      right: fc.option(fc.constant(']'), { nil: null }),
    }),
    { nil: null },
  ),
})

/** `format_details` as a live cluster answers it: CSV with `flattening: null`, JSON with flattening parts that may be null. */
const liveFormatDetails = (type: 'csv' | 'json') =>
  type === 'csv'
    ? fc
        .record({
          delimiter: fc.constantFrom(',', '\t', '|', ' '),
          skip_head: fc.integer({ min: 0, max: 2 }),
          quote: fc.constantFrom('"', "'"),
          comment: fc.constantFrom('#', ''),
          skip_comments: fc.boolean(),
          escape: fc.constantFrom('"', '\\', ''),
          windows_ending: fc.boolean(),
        })
        .chain((fd) => unknownKeys.map((extra) => ({ ...fd, flattening: null, ...extra })))
    : fc.tuple(liveFlattening, unknownKeys).map(([flattening, extra]) => ({ flattening, ...extra }))

/** A transform as a live cluster's GET answers it, ready to be sent back to `transforms/` (name given). */
export const liveTransform = (name: string, columns = 60) =>
  fc.constantFrom<'csv' | 'json'>('csv', 'json').chain((type) =>
    fc
      .record({
        description: fc.option(fc.constantFrom('Imported', 'CDN logs', ''), { nil: null }),
        output_columns: liveColumns(columns),
        format_details: liveFormatDetails(type),
        compression: fc.constantFrom('', 'none', 'gzip'),
        null_values: fc.option(fc.constantFrom<string[]>([], ['-'], ['', 'null']), { nil: null }),
        is_default: fc.boolean(),
        extra: unknownKeys,
      })
      .map(({ description, output_columns, format_details, compression, null_values, is_default, extra }) => ({
        name,
        description,
        type,
        settings: {
          is_default,
          compression,
          null_values,
          sql_transform: null,
          sample_data: null,
          wurfl: null,
          rate_limit: null,
          format_details,
          output_columns,
          ...extra,
        },
      })),
  )

const QUERY_OPTIONS = fc.record(
  {
    hdx_query_max_rows: fc.integer({ min: 0, max: 1_000_000 }),
    hdx_query_max_result_bytes: fc.integer({ min: 10_000, max: 1_000_000 }),
    hdx_query_timerange_required: fc.boolean(),
    hdx_query_max_timerange_sec: fc.integer({ min: 0, max: 86_400 }),
    hdx_query_max_concurrent_partitions: fc.integer({ min: 1, max: 8 }),
  },
  { requiredKeys: [] },
)

const liveAutoingest = fc.record({
  enabled: fc.constant(false),
  source: fc.constantFrom('', 'sqs://queue/x'),
  pattern: fc.constantFrom('', '^s3://bucket/logs/.*'),
  max_rows_per_partition: fc.constant(12_288_000),
  max_minutes_per_partition: fc.constant(60),
  max_active_partitions: fc.constant(50),
  dry_run: fc.boolean(),
  input_aggregation: fc.constant(1_073_741_824),
})

/** A turbine table as a live cluster's GET answers it, ready to be sent back to `tables/` (name given). */
export const liveTable = (name: string) =>
  fc
    .record({
      description: fc.option(fc.constantFrom('Imported', 'edge logs', ''), { nil: null }),
      token_list: fc.constantFrom<string[]>([], ['t0k3n']),
      autoingest: fc.array(liveAutoingest, { maxLength: 2 }),
      default_query_options: QUERY_OPTIONS,
      max_request_bytes: fc.constantFrom(0, 1_048_576),
      merge_enabled: fc.boolean(),
      age: fc.integer({ min: 0, max: 365 }),
      extra: unknownKeys,
    })
    .map(
      ({
        description,
        token_list,
        autoingest,
        default_query_options,
        max_request_bytes,
        merge_enabled,
        age,
        extra,
      }) => ({
        name,
        description,
        type: 'turbine',
        table_type: null,
        settings: {
          stream: {
            token_auth_enabled: token_list.length > 0,
            token_list,
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
          },
          age: { max_age_days: age },
          reaper: { max_age_days: 1 },
          merge: { enabled: merge_enabled },
          autoingest,
          sort_keys: [],
          shard_key: null,
          max_future_days: 0,
          max_request_bytes,
          rate_limit: null,
          default_query_options,
          ...extra,
        },
      }),
    )

/** An org of live shape: `tables` tables, the first `transforms` of them with one transform each. */
export const liveOrg = (tables = 80, transforms = 70, columns = 60) =>
  fc.tuple(
    fc.tuple(...Array.from({ length: tables }, (_, i) => liveTable(`live_t${i}`))),
    fc.tuple(...Array.from({ length: transforms }, (_, i) => liveTransform(`live_tr${i}`, columns))),
  )

/** Keys the cluster writes itself, left out when comparing what was sent with what is answered. */
export const SERVER_KEYS = ['uuid', 'url', 'created', 'modified', 'project', 'table', 'org', 'primary_key']

/**
 * The paths at which `answered` differs from `sent` (key order aside); keys of `answered` that were
 * not sent are listed only when `strict`. Empty when everything sent came back as it was.
 */
export function differences(sent: unknown, answered: unknown, strict = false, at = ''): string[] {
  if (sent === answered) return []
  if (Array.isArray(sent) && Array.isArray(answered)) {
    if (sent.length !== answered.length) return [`${at}: ${sent.length} items, answered ${answered.length}`]
    return sent.flatMap((v, i) => differences(v, answered[i], strict, `${at}[${i}]`))
  }
  if (isObject(sent) && isObject(answered)) {
    const out: string[] = []
    for (const key of Object.keys(sent)) {
      if (!(key in answered)) out.push(`${at}.${key}: sent ${JSON.stringify(sent[key])}, answered without it`)
      else out.push(...differences(sent[key], answered[key], strict, `${at}.${key}`))
    }
    if (strict) for (const key of Object.keys(answered)) if (!(key in sent)) out.push(`${at}.${key}: not sent`)
    return out
  }
  return [`${at}: sent ${JSON.stringify(sent)}, answered ${JSON.stringify(answered)}`]
}

/** `object` without the keys the cluster writes itself (the object as read, ready to compare). */
export function withoutServerKeys(object: Record<string, unknown>, ignore: string[] = SERVER_KEYS) {
  return Object.fromEntries(Object.entries(object).filter(([k]) => !ignore.includes(k)))
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
