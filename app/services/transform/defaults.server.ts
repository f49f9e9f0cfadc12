import type { ClusterApi } from '~/api/client.server'
import { getDefaults } from '~/api/defaults.server'
import { settle } from '~/api/policies.server'
import { isObject, transformFormValue } from '~/schemas/transform-value'
import { mergeDeep } from '~/utils/merge-deep'

/**
 * The transform defaults the spec gives (section 9), used when `GET /config/v1/defaults/` fails or
 * lacks a value. Shaped like a transform's `settings`. The spec names no flattening values: these
 * are the console's (flattening on, one level, `.` for maps and `[]` for lists).
 */
export const BUILT_IN_TRANSFORM_DEFAULTS: Record<string, unknown> = {
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
      active: true,
      depth: 1,
      map_flattening_strategy: { left: '.', right: '' },
      slice_flattening_strategy: { left: '[', right: ']' },
    },
  },
}

/**
 * The transform defaults: the cluster's (`defaults.transforms`, or `defaults.transform`), each
 * missing value from the spec's.
 */
export async function loadTransformDefaults(
  api: ClusterApi,
): Promise<{ defaults: Record<string, unknown>; isBuiltIn: boolean }> {
  const answer = await settle(() => getDefaults(api))
  const fromCluster = answer.value?.transforms ?? answer.value?.transform
  if (!isObject(fromCluster)) return { defaults: BUILT_IN_TRANSFORM_DEFAULTS, isBuiltIn: true }
  return { defaults: mergeDeep(BUILT_IN_TRANSFORM_DEFAULTS, fromCluster), isBuiltIn: false }
}

/** A new transform's form: one primary timestamp column, JSON, every format field from the defaults. */
export function newTransformValue(
  table: string,
  defaults: Record<string, unknown> = BUILT_IN_TRANSFORM_DEFAULTS,
): Record<string, unknown> {
  const fromDefaults = transformFormValue({ type: 'json', settings: defaults }, table)
  const keep = [
    'delimiter',
    'quote',
    'escape',
    'comment',
    'skipHead',
    'skipComments',
    'windowsEnding',
    'bufferSize',
    'flatteningActive',
    'depth',
    'mapLeft',
    'mapRight',
    'sliceLeft',
    'sliceRight',
    'compression',
  ]
  return {
    table,
    type: 'json',
    columns: [{ name: 'timestamp', type: 'datetime', format: '2006-01-02T15:04:05Z', primary: 'on', index: 'on' }],
    ...Object.fromEntries(keep.map((key) => [key, fromDefaults[key]])),
  }
}
