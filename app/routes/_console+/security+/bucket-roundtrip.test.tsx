/**
 * Issue 32, buckets (storages): a storage made by another tool (settings the form does not show,
 * unknown keys in its settings, null vs "" vs absent, a credential that no longer exists), opened
 * on its page and saved unchanged, stays exactly as the cluster holds it; a change writes only its
 * own place. Storages are generated, created on the local cluster, loaded by the bucket page's
 * loader, rendered on the server, and posted as a browser without scripts posts the form
 * (decision 074).
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
import { BucketEditor } from './__bucket-editor'
import { action, loader } from './buckets.$bucketId._index'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

type Stored = Record<string, unknown> & { uuid: string; settings: Record<string, unknown> }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const STORAGES = '/config/v1/orgs/{org}/storages/'
const CREDENTIALS = '/config/v1/orgs/{org}/credentials/'

let cookie: string
let credentialId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  credentialId = (await makeCredential('rt-bucket-credential')).uuid
})

const makeCredential = (name: string) =>
  clusterCall<{ uuid: string }>('POST', CREDENTIALS, {
    name,
    type: 'aws_access_keys',
    details: { access_key_id: 'AKIA', secret_access_key: 'very-secret' },
  })

/** Opens the bucket's page, renders its edit form, posts it with `change` applied; returns the action's status. */
async function save(bucketId: string, change = (e: [string, string][]) => e) {
  const url = `/security/buckets/${bucketId}`
  const page = await loader(args(get(url, cookie), { bucketId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <BucketEditor
        credentials={page.credentials}
        credentialsError={page.credentialsError}
        constraint={page.constraint}
        defaultValue={page.formValues}
        submitLabel="Save bucket"
        submitIntent="save-bucket"
        cancelTo="/security/buckets"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'bucket-editor', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, { bucketId })))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Storages across the cluster's schema

const word = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '/', ' ', 'é'), minLength: 1, maxLength: 6 })
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'cloud_options'), json, { maxKeys: 2 })
const nullish = (value: fc.Arbitrary<string>) => maybe(fc.oneof(fc.constant(null), fc.constant(''), value))

const storageArb = fc
  .record({
    description: nullish(text),
    settings: fc.record(
      {
        bucket_name: word.filter((name) => name.trim() !== ''),
        bucket_path: maybe(fc.oneof(fc.constant(''), fc.constant('/'), word)),
        region: nullish(word),
        cloud: fc.constantFrom('aws', 'gcp', 'azure', 'linode', 'akamai', 'oci', 'minio', 'local'),
        endpoint: nullish(word),
        account_name: nullish(word),
        is_default: maybe(fc.boolean()),
        io_perf_mode: maybe(fc.constantFrom('aggressive', 'moderate', 'relaxed')),
      },
      { requiredKeys: ['bucket_name', 'cloud'] },
    ),
    credential: fc.constantFrom('none', 'null', 'kept', 'gone'),
    unknown: unknownKeys,
  })
  .map(({ description, settings, credential, unknown }) => ({
    body: JSON.parse(JSON.stringify({ description, settings: { ...unknown, ...settings } })) as Record<string, unknown>,
    credential,
  }))

let made = 0
async function createStorage({ body, credential }: { body: Record<string, unknown>; credential: string }) {
  made += 1
  const gone = credential === 'gone' ? await makeCredential(`rt-gone-${made}`) : null
  const settings = body.settings as Record<string, unknown>
  if (credential === 'null') settings.credential_id = null
  if (credential === 'kept') settings.credential_id = credentialId
  if (gone) settings.credential_id = gone.uuid
  const created = await clusterCall<Stored>('POST', STORAGES, { ...body, name: `rt-bucket-${made}` })
  // a credential deleted after the bucket was set up: the bucket still names it
  if (gone) await clusterCall('DELETE', `${CREDENTIALS}${gone.uuid}`)
  return clusterCall<Stored>('GET', `${STORAGES}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 40)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('bucket editor round trip (issue 32)', () => {
  it('keeps every generated storage exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(storageArb, async (storage) => {
        cases += 1
        const before = await createStorage(storage)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${STORAGES}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`bucket round trip: ${cases} generated storages saved unchanged`)
  })

  it('changing the region writes only the region', async () => {
    await fc.assert(
      fc.asyncProperty(storageArb, async (storage) => {
        const before = await createStorage(storage)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'region'),
          ['region', 'eu-north-9'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${STORAGES}${before.uuid}`)
        expect(strip(after)).toEqual({ ...strip(before), settings: { ...before.settings, region: 'eu-north-9' } })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
