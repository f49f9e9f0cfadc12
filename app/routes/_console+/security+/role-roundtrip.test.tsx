/**
 * Issue 32, roles: a role made by another tool (policies the form cannot name, unknown keys on its
 * policies, null or "" descriptions, policies and permissions in any order), opened on its edit
 * page and saved unchanged, stays exactly as the cluster holds it; a change writes only its own
 * place. Roles are generated, created on the local cluster, loaded by the edit page's loader,
 * rendered on the server, and posted as a browser without scripts posts the form (decision 074).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { json, text } from '#tests/arbitraries'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { RoleEditor } from './__role-editor'
import { action, loader } from './roles.$roleId.edit-role'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

type Stored = Record<string, unknown> & { id: number }
type Catalogue = { scope_type: string | null; permissions: string[] }[]
const strip = ({ modified: _m, ...rest }: Stored) => rest
const ROLES = '/config/v1/roles/'

let cookie: string
let catalogue: Catalogue
let scopes: { projectId: string; tableId: string }
beforeAll(async () => {
  cookie = await loginAsAdmin()
  scopes = await makeTable('rt_roles_p', 'rt_roles_t')
  catalogue = await clusterCall<Catalogue>('GET', `${ROLES}permissions/`)
})

type EditorState = Awaited<ReturnType<typeof loader>> & Record<string, unknown>

function render(page: EditorState, staged?: Record<string, unknown>) {
  const draft = (staged?.draft ?? page.draft) as EditorState['draft']
  return renderToString(
    <ChakraProvider value={system}>
      <RoleEditor
        draft={draft}
        saved={page.saved}
        original={(staged?.original as string | undefined) ?? (page as { original?: string }).original}
        scopes={(staged?.scopes as EditorState['scopes']) ?? page.scopes}
        scopeSearch={(staged?.scopeSearch as EditorState['scopeSearch']) ?? page.scopeSearch}
        catalogue={page.catalogue}
        revision="r"
        submitLabel="Save role"
        cancelTo="/security/roles"
      />
    </ChakraProvider>,
  )
}

async function post(roleId: string, entries: [string, string][]) {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const url = `/security/roles/${roleId}/edit-role`
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  return returnedOrThrown(() => action(args(request, { roleId })))
}

const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)

/**
 * Opens the role's edit page, renders its form, optionally presses another button first (`first`) (a staging answer
 * renders the form again), posts Save with `change` applied; returns the action's status.
 */
async function save(roleId: string, { change = (e: [string, string][]) => e, first = '' } = {}) {
  const page = (await loader(args(get(`/security/roles/${roleId}/edit-role`, cookie), { roleId }))) as EditorState
  let html = render(page)
  if (first) {
    const found = await post(roleId, formEntries(html, 'role-editor', ['intent', first]))
    const staged = (found as { data?: Record<string, unknown> }).data
    if (!staged || !('draft' in staged)) throw new Error(`${first} answered ${statusOf(found)}`)
    html = render(page, staged)
  }
  return statusOf(await post(roleId, change(formEntries(html, 'role-editor'))))
}

// ---------------------------------------------------------------------------------------------
// Roles across the cluster's schema

const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy'), json, { maxKeys: 2 })

/** One policy: permissions of its scope type (any order, a scope the form cannot name too), unknown keys. */
const policyArb = fc
  .tuple(
    fc.constantFrom('none', 'org', 'project', 'table', 'pool'),
    fc.nat(),
    fc.integer({ min: 1, max: 5 }),
    unknownKeys,
    fc.boolean(),
  )
  .map(([level, start, count, unknown, unknownFirst]) => {
    const scopeType = level === 'none' ? null : level
    const offered = (catalogue.find((entry) => entry.scope_type === scopeType) ?? catalogue[0]!).permissions
    const permissions = Array.from({ length: Math.min(count, offered.length) }, (_, i) => {
      // a stride through the catalogue: permissions in an order of their own
      return offered[(start + i * 7) % offered.length]!
    })
    const scopeId =
      level === 'project'
        ? scopes.projectId
        : level === 'table'
          ? scopes.tableId
          : level === 'pool'
            ? '7c1e6a52-0d55-4a57-9a51-2d1f3c2b9e10'
            : null
    const policy = { permissions: [...new Set(permissions)], scope_type: scopeType, scope_id: scopeId }
    return unknownFirst ? { ...unknown, ...policy } : { ...policy, ...unknown }
  })

const roleArb = fc.record(
  {
    description: fc.oneof(fc.constant(null), fc.constant(''), text),
    // a role without policies too: the form would not create one, another tool may have
    policies: fc.array(policyArb, { minLength: 0, maxLength: 4 }),
  },
  { requiredKeys: ['policies'] },
)

let made = 0
async function createRole(role: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', ROLES, { ...role, name: `rt-role-${made}` })
  return clusterCall<Stored>('GET', `${ROLES}${created.id}/`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 40)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('role editor round trip (issue 32)', () => {
  it('keeps every generated role exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(roleArb, async (role) => {
        cases += 1
        const before = await createRole(role)
        expect(await save(String(before.id))).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${ROLES}${before.id}/`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`role round trip: ${cases} generated roles saved unchanged`)
  })

  it('keeps the role when the scope search is used before an unchanged save', async () => {
    await fc.assert(
      fc.asyncProperty(roleArb, async (role) => {
        const before = await createRole(role)
        expect(await save(String(before.id), { first: 'find-scope' })).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${ROLES}${before.id}/`))).toEqual(strip(before))
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('removing a policy keeps the other policies as stored', async () => {
    await fc.assert(
      fc.asyncProperty(roleArb, async (role) => {
        fc.pre(role.policies.length >= 2)
        const before = await createRole(role)
        expect(await save(String(before.id), { first: 'remove-policy:0' })).toBe(302)
        const after = await clusterCall<Stored>('GET', `${ROLES}${before.id}/`)
        expect(strip(after)).toEqual({ ...strip(before), policies: (before.policies as unknown[]).slice(1) })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(roleArb, async (role) => {
        const before = await createRole(role)
        const status = await save(String(before.id), {
          change: (entries) => [...entries.filter(([key]) => key !== 'description'), ['description', 'Changed here']],
        })
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${ROLES}${before.id}/`)
        expect(strip(after)).toEqual({ ...strip(before), description: 'Changed here' })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
