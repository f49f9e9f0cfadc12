/** A transform made elsewhere, for the round-trip tests (vitest and e2e) of issue 32. */

/**
 * A wide CDN-log transform shaped like the ones real clusters export (not made by this console):
 * W3C field names with hyphens, a tab delimiter, nested element types, bool columns, indexed
 * doubles, per-column format/ignore/source/default/script, unknown keys at every level.
 */
export function cdnTransform(): Record<string, unknown> {
  const fields = [
    'date',
    'time',
    'x-edge-location',
    'sc-bytes',
    'c-ip',
    'cs-method',
    'cs-host',
    'cs-uri-stem',
    'sc-status',
    'cs-referer',
    'cs-user-agent',
    'cs-uri-query',
    'cs-cookie',
    'x-edge-result-type',
    'x-edge-request-id',
    'x-host-header',
    'cs-protocol',
    'cs-bytes',
    'time-taken',
    'x-forwarded-for',
    'ssl-protocol',
    'ssl-cipher',
    'x-edge-response-result-type',
    'cs-protocol-version',
    'fle-status',
    'fle-encrypted-fields',
    'c-port',
    'time-to-first-byte',
    'x-edge-detailed-result-type',
    'sc-content-type',
    'sc-content-len',
    'sc-range-start',
    'sc-range-end',
  ]
  const typeOf = (name: string) =>
    /bytes|status|port|len|range/.test(name) ? 'uint64' : /time-taken|first-byte/.test(name) ? 'double' : 'string'
  const columns: Record<string, unknown>[] = [
    {
      name: 'timestamp',
      datatype: {
        type: 'datetime',
        primary: true,
        format: '2006-01-02 15:04:05',
        resolution: 'seconds',
        source: { from_input_index: 0 },
        script: null,
        default: null,
      },
    },
    ...fields.map((name, i) => ({
      name,
      datatype: {
        type: typeOf(name),
        index: true, // doubles too, as exported from a real cluster
        source: { from_input_index: i + 1 },
        ...(name === 'cs-cookie' ? { ignore: true } : {}),
        ...(name === 'cs-user-agent' ? { index_options: { fulltext: true } } : {}),
        ...(name === 'date' ? { format: '2006-01-02', ignore: true } : {}),
      },
    })),
  ]
  for (let i = 0; columns.length < 110; i++) {
    const kind = i % 9
    // dotted names for scalars only: the local engine cannot hold two array columns under one dotted
    // prefix (ClickHouse's Nested size streams collide), a real cluster can
    const name = `${[1, 2, 7].includes(kind) ? 'edge_meta' : 'edge.meta'}-${String(i).padStart(3, '0')}`
    const datatype: Record<string, unknown> =
      kind === 0
        ? { type: 'bool', default: false, source: { from_input_field: name } }
        : kind === 1
          ? { type: 'array', elements: [{ type: 'map', elements: [{ type: 'string' }, { type: 'string' }] }] }
          : kind === 2
            ? {
                type: 'map',
                elements: [
                  { type: 'string', index: true },
                  { type: 'array', elements: [{ type: 'uint32' }] },
                ],
              }
            : kind === 3
              ? { type: 'epoch', format: 'ms', resolution: 'ms', virtual: true, script: 'new Date().getTime()' }
              : kind === 4
                ? { type: 'double', index: true, default: 0.5, suppress: true }
                : kind === 5
                  ? { type: 'string', catch_all: true, source: { from_json_pointers: ['/a/b', '/c'] } }
                  : kind === 6
                    ? { type: 'int32', denullify: true, limits: { min: -5, max: 5 }, x_vendor: { rev: 3 } }
                    : kind === 7
                      ? { type: 'array', elements: [{ type: 'array', elements: [{ type: 'double', index: false }] }] }
                      : { type: 'string', source: { from_automatic_value: 'input_filename' }, format: null }
    columns.push({ name, datatype, ...(kind === 5 ? { x_column_note: 'kept' } : {}) })
  }
  return {
    name: 'cloudfront-standard-logs',
    description: null,
    type: 'csv',
    uuid: '2d6e9b70-0000-4000-8000-000000000000',
    created: '2023-05-01T10:00:00Z',
    url: 'https://cluster.example/config/v1/orgs/x/projects/y/tables/z/transforms/2d6e9b70/',
    x_exported_by: 'hdxcli 1.0',
    settings: {
      is_default: false,
      compression: '',
      null_values: ['-', ''],
      sql_transform: null,
      rate_limit: null,
      wurfl: null,
      shadow_table: null,
      sample_data: { note: 'a JSON object, not a string', rows: [1, 2] },
      format_details: {
        delimiter: '\t',
        skip_head: 2,
        quote: '',
        escape: '',
        comment: '#',
        skip_comments: true,
        windows_ending: false,
        buffer_size: 8192,
        flattening: {
          active: false,
          depth: null,
          map_flattening_strategy: { left: '', right: '' },
          slice_flattening_strategy: { left: '', right: '' },
        },
        x_format_hint: 'w3c',
      },
      output_columns: columns,
    },
  }
}
