/**
 * Issue 32, users: a user (or service account) with any roles in any order, opened on its edit page
 * and saved unchanged, stays exactly as the cluster holds it (its roles in their order); adding or
 * removing one role changes only that role. Users are generated, created on the local cluster,
 * loaded by the edit page's loader, rendered on the server, and posted as a browser without scripts
 * posts the form (decision 074).
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
import EditUserRoute, { action, loader } from './users.$userId.edit-user'

// The page outside a Remix app: its router parts as the plain elements they render, its loader data given.
const page = vi.hoisted(() => ({ data: undefined as unknown }))
vi.mock('@remix-run/react', async (importOriginal) => ({
  ...(await (await import('#tests/remix-plain')).plainRemixReact(importOriginal)),
  useLoaderData: () => page.data,
  useActionData: () => undefined,
}))

useTestCluster()

type Stored = Record<string, unknown> & { uuid: string; roles: string[] }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const USERS = '/config/v1/users/'

let cookie: string
let roleNames: string[]
beforeAll(async () => {
  cookie = await loginAsAdmin()
  for (const name of ['rt-custom-a', 'rt-custom-b'])
    await clusterCall('POST', '/config/v1/roles/', {
      name,
      policies: [{ permissions: ['view_org'], scope_type: null }],
    })
  const roles = await clusterCall<{ results: { name: string }[] }>('GET', '/config/v1/roles/?page_size=100')
  roleNames = roles.results.map((role) => role.name)
})

/**
 * Opens the user's edit page, renders it, runs `meanwhile` (another tool at work), posts its roles
 * form with `change` applied; returns the action's status.
 */
async function save(userId: string, change = (e: [string, string][]) => e, meanwhile = async () => {}) {
  const url = `/security/users/${userId}/edit-user`
  page.data = await loader(args(get(url, cookie), { userId }))
  await meanwhile()
  const html = renderToString(
    <ChakraProvider value={system}>
      <EditUserRoute />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'user-roles', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, { userId })))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Users across the cluster's schema

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é'), maxLength: 6 })
const userArb = fc.record(
  {
    kind: fc.constantFrom('user', 'service account'),
    name: fc.option(text, { nil: undefined }),
    description: fc.option(fc.oneof(fc.constant(null), fc.constant(''), text), { nil: undefined }),
    // any roles in any order (filled in once the roles are known)
    roles: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 4 })),
    vendor_hint: fc.option(fc.oneof(fc.constant(null), text, fc.integer()), { nil: undefined }),
  },
  { requiredKeys: ['kind', 'roles'] },
)

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never

let made = 0
async function createUser({ kind, roles: [start, count], ...rest }: ValueOf<typeof userArb>) {
  made += 1
  const roles = [...new Set(Array.from({ length: count }, (_, i) => roleNames[(start + i * 5) % roleNames.length]!))]
  const created =
    kind === 'user'
      ? await clusterCall<Stored>('POST', USERS, {
          email: `rt-user-${made}@example.com`,
          password: 'a-long-password-1',
          roles,
          ...(rest.name !== undefined ? { name: rest.name } : {}),
          ...(rest.vendor_hint !== undefined ? { vendor_hint: rest.vendor_hint } : {}),
        })
      : await clusterCall<Stored>('POST', '/config/v1/service_accounts/', {
          name: `rt-sa-${made}`,
          roles,
          ...(rest.description !== undefined ? { description: rest.description } : {}),
        })
  return clusterCall<Stored>('GET', `${USERS}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 40)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('user editor round trip (issue 32)', () => {
  it('keeps every generated user exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(userArb, async (user) => {
        cases += 1
        const before = await createUser(user)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${USERS}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`user round trip: ${cases} generated users saved unchanged`)
  })

  it('an unchanged save keeps a role given or taken by someone else since the page was opened', async () => {
    await fc.assert(
      fc.asyncProperty(userArb, fc.boolean(), fc.nat(), async (user, give, pick) => {
        const before = await createUser(user)
        const absent = roleNames.filter((name) => !before.roles.includes(name))
        const role = give ? absent[pick % absent.length] : before.roles[pick % Math.max(1, before.roles.length)]
        fc.pre(role !== undefined)
        const verb = give ? 'add_roles' : 'remove_roles'
        const status = await save(
          before.uuid,
          (entries) => entries,
          () => clusterCall('POST', `${USERS}${before.uuid}/${verb}/`, { roles: [role] }),
        )
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${USERS}${before.uuid}`)
        expect(after.roles).toEqual(give ? [...before.roles, role] : before.roles.filter((name) => name !== role))
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('adding or removing one role changes only that role, the others keep their order', async () => {
    await fc.assert(
      fc.asyncProperty(userArb, fc.boolean(), fc.nat(), async (user, add, pick) => {
        const before = await createUser(user)
        const absent = roleNames.filter((name) => !before.roles.includes(name))
        const role = add ? absent[pick % absent.length] : before.roles[pick % Math.max(1, before.roles.length)]
        fc.pre(role !== undefined)
        const status = await save(before.uuid, (entries) =>
          add ? [...entries, ['roles', role!]] : entries.filter(([key, value]) => !(key === 'roles' && value === role)),
        )
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${USERS}${before.uuid}`)
        const roles = add ? [...before.roles, role] : before.roles.filter((name) => name !== role)
        expect(strip(after)).toEqual({ ...strip(before), roles })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
