/**
 * Issue 32, auto batch: a table's `settings.autoingest` entries as other tools leave them (disabled
 * with a queue, a bare queue name, a pattern in the engine's regex dialect, unknown keys, credentials,
 * several entries), one opened in its edit page and saved unchanged: the table stays exactly as the
 * cluster holds it; a change writes only its own place in its own entry. Entries are generated,
 * stored on the local cluster, loaded by the edit loader, rendered on the server and posted as a
 * browser without scripts posts the form (decisions 072 and 073).
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
import { AutoBatchEditor } from './__source-autobatch'
import { action, loader } from './tables.$tableId.source.edit.$type.$sourceId'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
const credentials: string[] = []
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_batches' }))
    .uuid
  for (const name of ['rt_queue_keys', 'rt_bucket_keys'])
    credentials.push(
      (
        await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/credentials/', {
          name,
          type: 'aws_access_keys',
          details: { access_key_id: 'AKIA1', secret_access_key: 'secret' },
        })
      ).uuid,
    )
})

type Stored = Record<string, unknown> & { uuid: string; settings: Record<string, unknown> }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const tablesPath = () => `/config/v1/orgs/{org}/projects/${projectId}/tables/`

/** Opens entry `index`'s edit page, renders its form, posts it with `change` applied; returns the action's result. */
async function save(
  tableId: string,
  index: number,
  change = (e: [string, string][]) => e,
  listed?: { value: string; label: string }[],
) {
  const params = { tableId, type: 'autobatch', sourceId: String(index) }
  const url = `/data/tables/${tableId}/source/edit/autobatch/${index}?project=${projectId}`
  const page = await loader(args(get(url, cookie), params))
  if (page.mode !== 'autobatch') throw new Error('not an auto batch page')
  const html = renderToString(
    <ChakraProvider value={system}>
      <AutoBatchEditor
        table={page.table.value}
        tableLabel={page.table.label}
        credentials={listed ?? page.credentials}
        defaultValue={page.defaultValue}
        constraint={page.constraint}
        submitLabel="Save auto batch"
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'source-autobatch', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, params)))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Entries as other tools leave them

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é'), maxLength: 6 })
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -100, max: 100 }),
    text,
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'k'), tie('value'), { maxKeys: 2 }),
  ),
})).value
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'notification_type'), json, {
  maxKeys: 2,
})

const QUEUES = [
  'https://sqs.us-east-1.amazonaws.com/123456789012/new-files',
  'sqs://queue.example/files ',
  // a bare queue name (the form asks for the address; a real cluster holds it)
  'new-files',
]
// the last is RE2's named group, which a real cluster's engine reads and JavaScript refuses
const PATTERNS = ['', '.*\\.gz$', ' logs/ ', '^(?P<year>\\d{4})/.*\\.json$']

const entryArb = fc
  .record(
    {
      enabled: fc.boolean(),
      source: fc.constantFrom(...QUEUES),
      source_region: fc.constantFrom('', 'us-east-1', ' eu-west-2'),
      pattern: fc.constantFrom(...PATTERNS),
      dry_run: fc.boolean(),
      source_credential_id: fc.oneof(fc.constant(null), fc.constant(0), fc.constant(1)),
      bucket_credential_id: fc.oneof(fc.constant(null), fc.constant(0), fc.constant(1)),
      max_rows_per_partition: fc.integer({ min: 1, max: 20_000_000 }),
      max_minutes_per_partition: fc.integer({ min: 1, max: 600 }),
      max_active_partitions: fc.integer({ min: 1, max: 100 }),
      input_aggregation: fc.nat(2_000_000_000),
      destination: fc.constantFrom('/tmp/scratch', ''),
    },
    { requiredKeys: ['source'] },
  )
  .chain((entry) => unknownKeys.map((unknown) => ({ ...unknown, ...entry })))

const caseArb = fc
  .tuple(fc.array(entryArb, { minLength: 1, maxLength: 3 }), fc.nat())
  .map(([entries, at]) => ({ entries, index: at % entries.length }))

let made = 0
/** A table holding `entries` as its autoingest list (credential indexes become the credentials' ids). */
async function createTable(entries: Record<string, unknown>[]) {
  made += 1
  const autoingest = entries.map((entry) => {
    const out = { ...entry }
    for (const key of ['source_credential_id', 'bucket_credential_id'])
      if (typeof out[key] === 'number') out[key] = credentials[out[key] as number]
    return out
  })
  const created = await clusterCall<Stored>('POST', tablesPath(), {
    name: `rt_batch_${made}`,
    settings: { autoingest },
  })
  if (!created.uuid) throw new Error(`The cluster refused the table: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', `${tablesPath()}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 30)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('auto batch editor round trip (issue 32)', () => {
  it('keeps the table exactly as stored when an entry is saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ entries, index }) => {
        cases += 1
        const before = await createTable(entries)
        expect(await save(before.uuid, index)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${tablesPath()}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`auto batch round trip: ${cases} generated entries saved unchanged`)
  })

  it('keeps a stored credential the user cannot list', async () => {
    const entry = { enabled: true, source: QUEUES[0], source_credential_id: 0, bucket_credential_id: 1 }
    const before = await createTable([entry])
    expect(await save(before.uuid, 0, undefined, [])).toBe(302)
    expect(strip(await clusterCall<Stored>('GET', `${tablesPath()}${before.uuid}`))).toEqual(strip(before))
  })

  it('changing the max rows writes only that entry’s max rows', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ entries, index }) => {
        const before = await createTable(entries)
        const status = await save(before.uuid, index, (e) => [
          ...e.filter(([key]) => key !== 'maxRows'),
          ['maxRows', '4321'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${tablesPath()}${before.uuid}`)
        const autoingest = structuredClone(before.settings.autoingest) as Record<string, unknown>[]
        autoingest[index]!.max_rows_per_partition = 4321
        expect(strip(after)).toEqual({ ...strip(before), settings: { ...before.settings, autoingest } })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
