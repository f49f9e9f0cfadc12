import type { ClusterApi } from '~/api/client.server'
import { dictionarySqlName, type Dictionary } from '~/api/dictionaries.server'
import { QueryError, runQuery } from '~/api/query.server'
import { sqlString } from '~/utils/sql'

/**
 * A datatype of the cluster's schema definitions as the engine's type (for typed lookup keys): the
 * local cluster's mapping (cluster/data/engine.ts), which tests/datatypes.test.ts keeps in step.
 */
export const ENGINE_TYPES: Record<string, string> = {
  string: 'String',
  boolean: 'Bool',
  bool: 'Bool',
  int8: 'Int8',
  uint8: 'UInt8',
  int16: 'Int16',
  uint16: 'UInt16',
  int32: 'Int32',
  uint32: 'UInt32',
  int64: 'Int64',
  uint64: 'UInt64',
  double: 'Float64',
  float: 'Float64',
  float64: 'Float64',
  float32: 'Float32',
  datetime: 'DateTime64(3)',
  datetime64: 'DateTime64(3)',
  epoch: 'DateTime64(3)',
  json: 'String',
  ip: 'String',
  uuid: 'String',
}

export type LookupKey = { column: string; type: string; value: string }

export type Lookup =
  | { status: 'empty'; keys: LookupKey[]; sql: string }
  | { status: 'done'; keys: LookupKey[]; sql: string; values: { attribute: string; value: string }[] }
  | { status: 'failed'; keys: LookupKey[]; sql: string; error: string }

function show(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return typeof value === 'string' ? value : JSON.stringify(value)
}

async function rowsOf(api: ClusterApi, sql: string): Promise<Record<string, unknown>[]> {
  const answer = await runQuery(api, `${sql} FORMAT JSON`)
  return (JSON.parse(answer.text) as { data?: Record<string, unknown>[] }).data ?? []
}

/**
 * Looks the dictionary up through /query with `dictGet`: the key from the URL (`k0`, `k1`… one
 * per primary-key column), else the first key the dictionary holds. Returns each attribute's value
 * for that key, `empty` when the dictionary holds nothing to look up, or the engine's error as it
 * said it. Throws ClusterError for anything but the engine's refusal.
 */
export async function lookUpDictionary(
  api: ClusterApi,
  projectName: string,
  dictionary: Dictionary,
  url: URL,
): Promise<Lookup> {
  const s = dictionary.settings ?? {}
  const columns = s.output_columns ?? []
  const keyNames = s.primary_key?.length ? s.primary_key : columns.slice(0, 1).map((column) => column.name)
  const keys: LookupKey[] = keyNames.map((name, index) => ({
    column: name,
    type: ENGINE_TYPES[columns.find((column) => column.name === name)?.datatype.type ?? ''] ?? 'String',
    value: url.searchParams.get(`k${index}`) ?? '',
  }))
  const attributes = columns.map((column) => column.name).filter((name) => !keyNames.includes(name))
  const name = sqlString(dictionarySqlName(projectName, dictionary.name))
  const isComplex =
    (s.layout ?? '').startsWith('complex_key') || !(keys.length === 1 && /^U?Int\d+$/.test(keys[0]!.type))
  const keyList = keyNames.map((key) => `\`${key.replace(/`/g, '')}\``).join(', ')
  // The smallest key, so the same page shows the same lookup (a hashed layout has no order of its own).
  let sql = `SELECT ${keyList} FROM dictionary(${name}) ORDER BY ${keyList} LIMIT 1`
  try {
    if (keys.every((key) => key.value === '')) {
      const first = (await rowsOf(api, sql))[0]
      if (!first) return { status: 'empty', keys, sql }
      keys.forEach((key) => (key.value = show(first[key.column])))
    }
    const literals = keys.map((key) => `CAST(${sqlString(key.value)} AS ${key.type})`)
    const keyExpression = isComplex ? `tuple(${literals.join(', ')})` : literals[0]!
    // A dictionary of keys only has no attribute to get: whether it holds the key is its answer.
    const getOf = (attribute: string) =>
      `dictGet(${name}, ${sqlString(attribute)}, ${keyExpression}) AS \`${attribute.replace(/`/g, '')}\``
    sql = attributes.length
      ? `SELECT ${attributes.map(getOf).join(', ')}`
      : `SELECT dictHas(${name}, ${keyExpression}) AS found`
    const row = (await rowsOf(api, sql))[0] ?? {}
    const selected = attributes.length ? attributes : ['found']
    return {
      status: 'done',
      keys,
      sql,
      values: selected.map((attribute) => ({ attribute, value: show(row[attribute]) })),
    }
  } catch (error) {
    if (error instanceof QueryError) return { status: 'failed', keys, sql, error: error.message }
    throw error
  }
}
