/**
 * Issue 32, pools: a pool made by another tool (unknown keys, null, "", absent keys, sizes as bytes
 * or quantities the form would rewrite), opened on its page and saved unchanged, stays exactly as
 * the cluster holds it; a change writes only its own place. Pools are generated across the
 * cluster's schema, created on the local cluster, loaded by the pool page's loader, rendered on the
 * server, and posted as a browser without scripts posts the form (decision 072).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { json, maybe, text } from '#tests/arbitraries'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { PoolEditEditor } from './__pool-editor'
import { action, loader } from './pool.$poolId'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

type Stored = Record<string, unknown> & { uuid: string }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const POOLS = '/config/v1/pools/'

/** Opens the pool's page, renders its edit form, posts it with `change` applied; returns the action's status. */
async function save(poolId: string, change = (e: [string, string][]) => e) {
  const url = `/scale/pool/${poolId}`
  const page = await loader(args(get(url, cookie), { poolId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <PoolEditEditor
        defaultValue={page.editValues}
        defaults={page.defaults}
        constraint={page.constraint}
        cancelTo="/scale"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'pool-edit', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, { poolId })))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Pools across the cluster's schema

const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy'), json, { maxKeys: 2 })
const withUnknown = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, unknownKeys).map(([value, unknown]) => ({ ...unknown, ...value }))

const quantity = fc.oneof(
  fc.constantFrom(1, 0.5, 2, '2', '10Gi', '512Mi', '1.5Gi', '100m', '1G', 1073741824, '0.5'),
  fc.integer({ min: 1, max: 64 }),
)
const SERVICES = ['intake-head', 'stream-peer', 'query-peer', 'merge-peer', 'batch-peer', 'kafka-peer']

const poolArb = fc
  .record({
    description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
    type: maybe(fc.constantFrom('ingest', 'search', 'core', null, '')),
    k8s: withUnknown(
      fc.record(
        {
          service: fc.constantFrom(...SERVICES),
          replicas: fc.constantFrom(1, 0, 3, '2', '1-3', '2 - 5'),
          cpu: quantity,
          memory: quantity,
          storage: quantity,
          shards: maybe(fc.integer({ min: 1, max: 4 })),
        },
        { requiredKeys: ['service'] },
      ),
    ),
    settings: withUnknown(
      fc.record(
        {
          is_default: fc.boolean(),
          table: fc.constantFrom(null, '', 'p.t'),
          transform: fc.constantFrom(null, '', 'p.t:x'),
        },
        { requiredKeys: [] },
      ),
    ),
  })
  .map(({ description, type, k8s, settings }) =>
    JSON.parse(JSON.stringify({ description, type, settings: { ...settings, k8s_deployment: k8s } })),
  )

let made = 0
async function createPool(pool: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', POOLS, { ...pool, name: `rt-pool-${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the pool: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', `${POOLS}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 40)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('pool editor round trip (issue 32)', () => {
  it('keeps every generated pool exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(poolArb, async (pool) => {
        cases += 1
        const before = await createPool(pool)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${POOLS}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`pool round trip: ${cases} generated pools saved unchanged`)
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(poolArb, async (pool) => {
        const before = await createPool(pool)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'description'),
          ['description', 'Changed here'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${POOLS}${before.uuid}`)
        expect(strip(after)).toEqual({ ...strip(before), description: 'Changed here' })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
