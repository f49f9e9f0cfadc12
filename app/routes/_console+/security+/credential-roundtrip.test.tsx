/**
 * Issue 32, credentials: a credential made by another tool (every type, optional details absent,
 * null or "", details the type does not list, null descriptions), opened on its page and saved
 * unchanged, stays exactly as the cluster holds it, stored secrets included; a change writes only
 * its own place; no secret reaches the browser (the page's HTML, its loader data, the hidden
 * `original`). Credentials are generated, created on the local cluster, loaded by the credential
 * page's loader, rendered on the server, and posted as a browser without scripts posts the form
 * (decision 074).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { json, text } from '#tests/arbitraries'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { CREDENTIAL_TYPES } from '../../../../cluster/config/storages'
import { CredentialEditor } from './__credential-editor'
import { action, loader } from './credentials.$credentialId._index'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

const cluster = useTestCluster()

type Stored = Record<string, unknown> & { uuid: string; details: Record<string, unknown> }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const CREDENTIALS = '/config/v1/orgs/{org}/credentials/'

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

/** The credential as the cluster stores it (secrets unmasked), less `modified`. */
const storedCopy = (uuid: string) => {
  const { modified: _m, ...rest } = structuredClone(cluster().handler.state.store.get<Stored>('credential', uuid)!)
  return rest
}

/**
 * Opens the credential's page, renders its edit form, posts it with `change` applied; returns the
 * action's status, and the page's HTML and loader data (to look for secrets in).
 */
async function save(credentialId: string, change = (e: [string, string][]) => e) {
  const url = `/security/credentials/${credentialId}`
  const page = await loader(args(get(url, cookie), { credentialId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <CredentialEditor
        types={page.types}
        defaultValue={page.formValues}
        stored={page.stored}
        fixedType={page.credential.type}
        submitLabel="Save credential"
        submitIntent="save-credential"
        pickTypeIntent="pick-type"
        cancelTo="/security/credentials"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'credential-editor', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, { credentialId })))
  const status =
    result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
  return { status, html, page: JSON.stringify(page) }
}

// ---------------------------------------------------------------------------------------------
// Credentials across the cluster's schema

const value = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '/', ' ', '+', '='), minLength: 1, maxLength: 8 })
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'universe_domain'), json, { maxKeys: 2 })
const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined })

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never

let made = 0
/** A distinct secret per case: found nowhere in the page if it never reaches the browser. */
const secretOf = (key: string) => `S3CR3T-${key}-${made}-${Math.random().toString(36).slice(2, 8)}`

const credentialArb = fc
  .record({
    type: fc.constantFrom(...Object.keys(CREDENTIAL_TYPES)),
    description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
    // per field: a value (required ones never blank), or absent / null / "" for optional ones
    values: fc.array(fc.oneof(value, fc.constant(undefined), fc.constant(null), fc.constant('')), {
      minLength: 8,
      maxLength: 8,
    }),
    unknown: unknownKeys,
  })
  .map(({ type, description, values, unknown }) => ({ type, description, values, unknown }))

async function createCredential({ type, description, values, unknown }: ValueOf<typeof credentialArb>) {
  made += 1
  const details: Record<string, unknown> = { ...unknown }
  Object.entries(CREDENTIAL_TYPES[type]!.fields).forEach(([key, spec], i) => {
    const given = values[i]
    if (spec.required && (given === undefined || given === null || given === ''))
      details[key] = spec.secret ? secretOf(key) : `v${i}`
    else if (given !== undefined)
      details[key] = typeof given === 'string' && spec.secret && given ? secretOf(key) : given
  })
  const created = await clusterCall<Stored>('POST', CREDENTIALS, {
    name: `rt-credential-${made}`,
    type,
    details,
    ...(description !== undefined ? { description } : {}),
  })
  return created.uuid
}

/** The secrets a credential stores: none of them may be in the page. */
const secretsOf = (stored: ReturnType<typeof storedCopy>) =>
  Object.entries(CREDENTIAL_TYPES[String(stored.type)]!.fields)
    .filter(([key, spec]) => spec.secret && typeof stored.details[key] === 'string' && stored.details[key])
    .map(([key]) => String(stored.details[key]))

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 40)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('credential editor round trip (issue 32)', () => {
  it('keeps every generated credential exactly as stored, secrets included, when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(credentialArb, async (credential) => {
        cases += 1
        const uuid = await createCredential(credential)
        const before = storedCopy(uuid)
        const { status, html, page } = await save(uuid)
        for (const secret of secretsOf(before)) {
          expect(html).not.toContain(secret)
          expect(page).not.toContain(secret)
        }
        expect(status).toBe(302)
        expect(storedCopy(uuid)).toEqual(before)
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`credential round trip: ${cases} generated credentials saved unchanged`)
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(credentialArb, async (credential) => {
        const uuid = await createCredential(credential)
        const before = storedCopy(uuid)
        const { status } = await save(uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'description'),
          ['description', 'Changed here'],
        ])
        expect(status).toBe(302)
        expect(storedCopy(uuid)).toEqual({ ...before, description: 'Changed here' })
        const answered = await clusterCall<Stored>('GET', `${CREDENTIALS}${uuid}`)
        expect(strip(answered).description).toBe('Changed here')
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('typing a new secret changes only that secret', async () => {
    await fc.assert(
      fc.asyncProperty(credentialArb, async (credential) => {
        const uuid = await createCredential(credential)
        const before = storedCopy(uuid)
        const secret = Object.entries(CREDENTIAL_TYPES[credential.type]!.fields).find(([, spec]) => spec.secret)?.[0]
        fc.pre(secret !== undefined)
        const { status } = await save(uuid, (entries) => [
          ...entries.filter(([key]) => key !== `details.${secret}`),
          [`details.${secret}`, 'a-new-secret'],
        ])
        expect(status).toBe(302)
        expect(storedCopy(uuid)).toEqual({ ...before, details: { ...before.details, [secret!]: 'a-new-secret' } })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
