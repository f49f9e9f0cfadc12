/**
 * Issue 50 point 5, roles: two people open the same role; the first saves a change. The second's
 * save of another change of the same field (description, or the policies) is refused (409) with the
 * field named and its value now, what was typed and staged kept; a change of another field merges.
 * Forms rendered on the server, posted as a browser without scripts posts them (decision 097).
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { RoleEditor } from './__role-editor'
import { action, loader } from './roles.$roleId.edit-role'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

type Json = Record<string, unknown>
type Stored = Json & { id: number; name: string; description?: string; policies: Json[] }
type Result = { error?: Record<string, string[]>; initialValue?: Json }
type Answer = { status: number; data?: Json & { result?: Result } }
const ROLES = '/config/v1/roles/'

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

type EditorState = Awaited<ReturnType<typeof loader>> & Record<string, unknown>

/** The edit form, rendered from the page (and an answer: a staging answer or a refusal) as the route does. */
async function openForm(roleId: string, answer?: Answer['data']): Promise<[string, string][]> {
  const page = (await loader(args(get(`/security/roles/${roleId}/edit-role`, cookie), { roleId }))) as EditorState
  const html = renderToString(
    <ChakraProvider value={system}>
      <RoleEditor
        draft={(answer?.draft as EditorState['draft']) ?? page.draft}
        saved={page.saved}
        original={answer && 'original' in answer ? (answer.original as string) : page.original}
        scopes={page.scopes}
        scopeSearch={page.scopeSearch}
        catalogue={page.catalogue}
        revision="r"
        lastResult={answer?.result as never}
        submitLabel="Save role"
        cancelTo="/security/roles"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'role-editor')
}

async function post(roleId: string, entries: [string, string][]): Promise<Answer> {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}/security/roles/${roleId}/edit-role`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  const result = await returnedOrThrown(() => action(args(request, { roleId })))
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data: Answer['data']; init?: { status?: number } }
  return { status: wrapped.init?.status ?? 200, data: wrapped.data }
}

const withField = (entries: [string, string][], name: string, value: string): [string, string][] => [
  ...entries.filter(([key]) => key !== name),
  [name, value],
]

let made = 0
async function makeRole(): Promise<Stored> {
  made += 1
  const created = await clusterCall<Stored>('POST', ROLES, {
    name: `lu-role-${made}`,
    description: 'as made',
    policies: [
      { permissions: ['view_org'], scope_type: null, scope_id: null },
      { permissions: ['view_pool'], scope_type: null, scope_id: null },
    ],
  })
  return clusterCall<Stored>('GET', `${ROLES}${created.id}/`)
}
const stored = (role: Stored) => clusterCall<Stored>('GET', `${ROLES}${role.id}/`)

/** Presses a policy's Remove in the form, then returns the form the answer renders. */
async function removePolicy(roleId: string, entries: [string, string][], index: number) {
  const answer = await post(roleId, [
    ...entries.filter(([key]) => key !== 'intent'),
    ['intent', `remove-policy:${index}`],
  ])
  if (!answer.data || !('draft' in answer.data)) throw new Error(`Remove answered ${answer.status}`)
  return openForm(roleId, answer.data)
}

describe('role editor: no silent lost update (issue 50)', () => {
  it('refuses a second change of the description, naming it and its value now; saved again it replaces it', async () => {
    const role = await makeRole()
    const roleId = String(role.id)
    const first = await openForm(roleId)
    const second = await openForm(roleId)
    expect((await post(roleId, withField(first, 'description', 'first says'))).status).toBe(302)

    const refused = await post(roleId, withField(second, 'description', 'second says'))
    expect(refused.status).toBe(409)
    expect(refused.data!.result!.error!.description![0]).toMatch(/^Changed by admin@example\.com .* now “first says”/)
    expect(refused.data!.result!.error![''][0]).toContain('Description is now “first says”')
    expect((await stored(role)).description).toBe('first says')

    const again = await openForm(roleId, refused.data)
    expect(again).toContainEqual(['description', 'second says'])
    expect((await post(roleId, again)).status).toBe(302)
    expect((await stored(role)).description).toBe('second says')
  })

  it('refuses policies changed on both sides, and merges the policies with a description change', async () => {
    const role = await makeRole()
    const roleId = String(role.id)
    const first = await openForm(roleId)
    const second = await openForm(roleId)
    const third = await openForm(roleId)
    expect((await post(roleId, await removePolicy(roleId, first, 0))).status).toBe(302)
    expect((await stored(role)).policies.map((policy) => policy.permissions)).toEqual([['view_pool']])

    const refused = await post(roleId, await removePolicy(roleId, second, 1))
    expect(refused.status).toBe(409)
    expect(refused.data!.result!.error!.policies![0]).toContain('now “[{"permissions":["view_pool"]')
    expect((await stored(role)).policies.map((policy) => policy.permissions)).toEqual([['view_pool']])

    expect((await post(roleId, withField(third, 'description', 'third says'))).status).toBe(302)
    const after = await stored(role)
    expect([after.description, after.policies.map((policy) => policy.permissions)]).toEqual([
      'third says',
      [['view_pool']],
    ])
  })
})
