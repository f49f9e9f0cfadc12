/**
 * Issue 32, table settings: every settings group of a table made by another tool (unknown keys,
 * null, absent keys, values the form would normalise), opened in its form (fields, and as JSON) and
 * saved unchanged, leaves the table exactly as the cluster holds it; the rename form too. Tables are
 * generated across the settings schema, created on the local cluster, loaded by the table page's
 * loader, rendered on the server, and the rendered form is posted as a browser without scripts
 * posts it (decision 072).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { RenameTableForm, SettingsGroupForm } from './__table-settings'
import { action, loader } from './tables.$tableId._index'

// The forms outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_settings' }))
    .uuid
})

type Stored = Record<string, unknown> & { uuid: string; settings: Record<string, unknown> }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const tablePath = (tableId = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId ? `${tableId}/` : ''}`

/** Posts `entries` to the table page's action; returns what it returned or threw. */
async function postPage(tableId: string, entries: [string, string][]) {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}/data/tables/${tableId}?project=${projectId}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  return returnedOrThrown(() => action(args(request, { tableId })))
}

const GROUPS = ['bucket', 'lifecycle', 'index', 'merge', 'flush', 'stream', 'query'] as const

/** Opens `group` (as fields or JSON), renders its form and posts it unchanged; returns the action's result. */
async function saveGroupUnchanged(tableId: string, group: string, asJson: boolean) {
  const url = `/data/tables/${tableId}?project=${projectId}&edit=${group}${asJson ? '&as=json' : ''}`
  const page = await loader(args(get(url, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SettingsGroupForm step={page.settingsStep!} cancelTo={`/data/tables/${tableId}`} />
    </ChakraProvider>,
  )
  return postPage(tableId, formEntries(html, `settings-${asJson ? 'json-' : ''}${group}`, null))
}

async function renameUnchanged(tableId: string) {
  const page = await loader(args(get(`/data/tables/${tableId}?project=${projectId}&edit=rename`, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <RenameTableForm
        name={page.table.name}
        description={page.table.description}
        original={page.table.original}
        constraint={page.renameConstraint}
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  return postPage(tableId, formEntries(html, 'rename-table', null))
}

const status = (result: unknown) =>
  result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)

// ---------------------------------------------------------------------------------------------
// Tables across the settings schema

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é', '\\'), maxLength: 6 })
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(0.5, 1e21),
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'k', 'x_y'), tie('value'), { maxKeys: 3 }),
  ),
})).value
/** Keys no client of this console knows. */
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy', 'z'), json, { maxKeys: 2 })
const maybe = <T,>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })
const count = (min = 0) => fc.oneof(fc.integer({ min, max: 100 }), fc.constantFrom(12_288_000, 20_000_000_000))
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/)

const streamArb = fc.record(
  {
    token_auth_enabled: fc.boolean(),
    token_list: fc.array(fc.constantFrom('tok1', ' padded ', 'a b', 'x\\y', '"q"'), { maxLength: 3 }),
    hot_data_max_age_minutes: count(1),
    hot_data_max_active_partitions: count(1),
    hot_data_max_idle_seconds: count(1),
    cold_data_max_age_days: count(1),
    cold_data_max_rows_per_partition: count(1),
    message_queue_max_rows: count(),
  },
  { requiredKeys: [] },
)

const poolName = fc.oneof(fc.constant(''), fc.constant(null), name, fc.constant(' spaced '))
const mergeArb = fc.record(
  {
    enabled: fc.boolean(),
    memory_coefficient: fc.constantFrom(0, 0.5, 1.25, 3, 1e-7),
    max_candidates: count(1),
    pools: fc.oneof(
      fc.constant(null),
      fc.record({ small: poolName, medium: poolName, large: poolName }, { requiredKeys: [] }),
    ),
    sql: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
  },
  { requiredKeys: [] },
)

const queryOptionsArb = fc.record(
  {
    hdx_query_max_rows: count(),
    hdx_query_max_result_bytes: fc.integer({ min: 10_000, max: 1e9 }),
    hdx_query_timerange_required: fc.boolean(),
    hdx_query_max_memory_usage_perc: fc.integer({ min: 0, max: 100 }),
    hdx_query_pool_name: fc.oneof(fc.constant(''), name),
    hdx_query_output_format: fc.constantFrom('', 'json'),
    hdx_query_comment: fc.oneof(fc.constant(''), text),
    hdx_query_debug: fc.boolean(),
    hdx_query_streaming_result: fc.boolean(),
    use_query_cache: fc.boolean(),
  },
  { requiredKeys: [] },
)

const storageMapArb = fc.oneof(
  fc.constant(null),
  fc.record(
    {
      column_name: fc.oneof(fc.constant(null), name),
      default_storage_id: fc.constant(null),
      column_value_mapping: fc.oneof(fc.constant(null), fc.constant({}), json),
    },
    { requiredKeys: [] },
  ),
)

const withUnknown = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, unknownKeys).map(([value, unknown]) => ({ ...unknown, ...value }))

export const tableArb = fc
  .record({
    name,
    description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
    settings: fc.record(
      {
        stream: withUnknown(streamArb),
        age: withUnknown(fc.record({ max_age_days: count() }, { requiredKeys: [] })),
        reaper: withUnknown(fc.record({ max_age_days: count() }, { requiredKeys: [] })),
        merge: withUnknown(mergeArb),
        sort_keys: fc.array(fc.constantFrom('host', 'status', 'a.b'), { maxLength: 2 }),
        shard_key: fc.oneof(fc.constant(null), name),
        max_future_days: count(),
        max_request_bytes: count(),
        rate_limit: maybe(json),
        default_query_options: queryOptionsArb,
        storage_map: maybe(storageMapArb.map((map) => (map ? map : map))),
        autoingest: maybe(fc.constant([{ enabled: false, pattern: '', vendor_hint: 1 }])),
      },
      { requiredKeys: [] },
    ),
    settingsUnknown: unknownKeys,
  })
  .map(({ name, description, settings, settingsUnknown }) => {
    const table = {
      name,
      ...(description === undefined ? {} : { description }),
      settings: { ...settingsUnknown, ...settings },
    }
    return JSON.parse(JSON.stringify(table)) as Record<string, unknown>
  })

let made = 0
async function createTable(table: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', tablePath(), { ...table, name: `${String(table.name)}_${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the table: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', tablePath(created.uuid))
}

// ---------------------------------------------------------------------------------------------

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 10)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('table settings round trip (issue 32)', () => {
  it('every group, as fields and as JSON, and the rename form, saved unchanged keep the table exactly as stored', async () => {
    let cases = 0
    await fc.assert(
      // each group opened as fields or as JSON (both are generated across the cases)
      fc.asyncProperty(
        tableArb,
        fc.array(fc.boolean(), { minLength: GROUPS.length, maxLength: GROUPS.length }),
        async (table, asJsonOf) => {
          cases += 1
          const before = await createTable(table)
          for (const [at, group] of GROUPS.entries()) {
            const asJson = asJsonOf[at]!
            const result = await saveGroupUnchanged(before.uuid, group, asJson)
            expect(status(result), `${group}${asJson ? ' as JSON' : ''}`).toBe(302)
            const after = await clusterCall<Stored>('GET', tablePath(before.uuid))
            expect(strip(after), `${group}${asJson ? ' as JSON' : ''}`).toEqual(strip(before))
          }
          expect(status(await renameUnchanged(before.uuid))).toBe(302)
          expect(strip(await clusterCall<Stored>('GET', tablePath(before.uuid)))).toEqual(strip(before))
        },
      ),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`table settings round trip: ${cases} generated tables, ${GROUPS.length + 1} forms each`)
  })

  it('a change writes only the field the operator changed', async () => {
    await fc.assert(
      fc.asyncProperty(tableArb, fc.integer({ min: 1, max: 99 }), async (table, days) => {
        const before = await createTable(table)
        const url = `/data/tables/${before.uuid}?project=${projectId}&edit=merge`
        const page = await loader(args(get(url, cookie), { tableId: before.uuid }))
        const html = renderToString(
          <ChakraProvider value={system}>
            <SettingsGroupForm step={page.settingsStep!} cancelTo="/data/tables" />
          </ChakraProvider>,
        )
        const entries = formEntries(html, 'settings-merge', null).map(([key, value]): [string, string] =>
          key === 'memory_coefficient' ? [key, String(days)] : [key, value],
        )
        expect(status(await postPage(before.uuid, entries))).toBe(302)
        const after = await clusterCall<Stored>('GET', tablePath(before.uuid))
        const expected = structuredClone(strip(before)) as Stored
        ;(expected.settings.merge as Record<string, unknown>).memory_coefficient = days
        expect(strip(after)).toEqual(expected)
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 3)), seed: SEED },
    )
  })
})
