/**
 * Issue 50 point 5, table settings groups and the rename form: two people open the same group; the
 * first saves a field. The second's save of another value of that field is refused (409) at the
 * field, naming its value now and who changed it, the typed value kept; a save of another field of
 * the group merges (both changes on the cluster). As fields and as JSON. Forms are rendered on the
 * server and posted as a browser without scripts posts them (decision 097).
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
import { RenameTableForm, SettingsGroupForm } from './__table-settings'
import { action, loader } from './tables.$tableId._index'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_settings' }))
    .uuid
})

type Json = Record<string, unknown>
type Stored = Json & {
  uuid: string
  name: string
  description?: string
  settings: Json & { age?: Json; reaper?: Json }
}
type Result = { error?: Record<string, string[]>; initialValue?: Json }
type Answer = { status: number; result?: Result }
const tablePath = (tableId = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId ? `${tableId}/` : ''}`

let made = 0
async function makeTable(): Promise<Stored> {
  made += 1
  return clusterCall<Stored>('POST', tablePath(), {
    name: `lu_table_${made}`,
    description: 'as made',
    settings: { age: { max_age_days: 30 }, reaper: { max_age_days: 2 }, max_future_days: 0 },
  })
}

/** The group's form as a browser without scripts posts it (after `lastResult`, a refused answer, when given). */
async function openGroup(tableId: string, group: string, asJson = false, lastResult?: Result) {
  const url = `/data/tables/${tableId}?project=${projectId}&edit=${group}${asJson ? '&as=json' : ''}`
  const page = await loader(args(get(url, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SettingsGroupForm
        step={page.settingsStep!}
        lastResult={lastResult as never}
        cancelTo={`/data/tables/${tableId}`}
      />
    </ChakraProvider>,
  )
  return formEntries(html, `settings-${asJson ? 'json-' : ''}${group}`, null)
}

async function openRename(tableId: string, lastResult?: Result) {
  const page = await loader(args(get(`/data/tables/${tableId}?project=${projectId}&edit=rename`, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <RenameTableForm
        name={page.table.name}
        description={page.table.description}
        original={page.table.original}
        constraint={page.renameConstraint}
        lastResult={lastResult as never}
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'rename-table', null)
}

const withField = (entries: [string, string][], name: string, value: string): [string, string][] => [
  ...entries.filter(([key]) => key !== name),
  [name, value],
]

/** The JSON form's entries with `edit` applied to its JSON. */
const withJson = (entries: [string, string][], edit: (value: Json) => void): [string, string][] => {
  const value = JSON.parse(entries.find(([key]) => key === 'json')![1]) as Json
  edit(value)
  return withField(entries, 'json', JSON.stringify(value, null, 2))
}

async function post(tableId: string, entries: [string, string][]): Promise<Answer> {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}/data/tables/${tableId}?project=${projectId}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  const result = await returnedOrThrown(() => action(args(request, { tableId })))
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data: { result?: Result }; init?: { status?: number } }
  return { status: wrapped.init?.status ?? 200, result: wrapped.data.result }
}

const stored = (tableId: string) => clusterCall<Stored>('GET', tablePath(tableId))

describe('table settings: no silent lost update (issue 50)', () => {
  it('refuses a second change of the same field of a group, kept as typed; saved again it replaces it', async () => {
    const table = await makeTable()
    const first = await openGroup(table.uuid, 'lifecycle')
    const second = await openGroup(table.uuid, 'lifecycle')
    expect((await post(table.uuid, withField(first, 'reaper_max_age_days', '5'))).status).toBe(302)

    const refused = await post(table.uuid, withField(second, 'reaper_max_age_days', '9'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.reaper_max_age_days![0]).toMatch(
      /^Changed by admin@example\.com at [\d-]+ [\d:]+ UTC since you opened this form: now “5”/,
    )
    expect(refused.result!.error![''][0]).toContain('Delay before permanent deletion (days) is now “5”')
    expect(refused.result!.initialValue!.reaper_max_age_days).toBe('9')
    expect((await stored(table.uuid)).settings.reaper!.max_age_days).toBe(5)

    const again = await openGroup(table.uuid, 'lifecycle', false, refused.result)
    expect(again).toContainEqual(['reaper_max_age_days', '9'])
    expect((await post(table.uuid, again)).status).toBe(302)
    expect((await stored(table.uuid)).settings.reaper!.max_age_days).toBe(9)
  })

  it('merges a change of another field of the same group', async () => {
    const table = await makeTable()
    const first = await openGroup(table.uuid, 'lifecycle')
    const second = await openGroup(table.uuid, 'lifecycle')
    expect((await post(table.uuid, withField(first, 'reaper_max_age_days', '5'))).status).toBe(302)
    expect((await post(table.uuid, withField(second, 'max_future_days', '7'))).status).toBe(302)
    const after = await stored(table.uuid)
    expect(after.settings.reaper!.max_age_days).toBe(5)
    expect(after.settings.max_future_days).toBe(7)
    expect(after.settings.age!.max_age_days).toBe(30)
  })

  it('refuses the same field edited as JSON, at the JSON, and merges another', async () => {
    const table = await makeTable()
    const first = await openGroup(table.uuid, 'lifecycle')
    const second = await openGroup(table.uuid, 'lifecycle', true)
    const third = await openGroup(table.uuid, 'lifecycle', true)
    expect((await post(table.uuid, withField(first, 'reaper_max_age_days', '5'))).status).toBe(302)
    const refused = await post(
      table.uuid,
      withJson(second, (value) => ((value.reaper as Json).max_age_days = 9)),
    )
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.json![0]).toMatch(/^reaper\.max_age_days: Changed by .* now “5”/)
    expect(
      (
        await post(
          table.uuid,
          withJson(third, (value) => (value.max_future_days = 3)),
        )
      ).status,
    ).toBe(302)
    const after = await stored(table.uuid)
    expect([after.settings.reaper!.max_age_days, after.settings.max_future_days]).toEqual([5, 3])
  })

  it('a change another group made meanwhile is not a conflict', async () => {
    const table = await makeTable()
    const lifecycle = await openGroup(table.uuid, 'lifecycle')
    const merge = await openGroup(table.uuid, 'merge')
    expect((await post(table.uuid, withField(merge, 'memory_coefficient', '2'))).status).toBe(302)
    expect((await post(table.uuid, withField(lifecycle, 'max_future_days', '4'))).status).toBe(302)
  })

  it('the rename form refuses a description changed meanwhile and merges a name', async () => {
    const table = await makeTable()
    const first = await openRename(table.uuid)
    const second = await openRename(table.uuid)
    const third = await openRename(table.uuid)
    expect((await post(table.uuid, withField(first, 'description', 'first says'))).status).toBe(302)
    const refused = await post(table.uuid, withField(second, 'description', 'second says'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.description![0]).toContain('now “first says”')
    expect((await post(table.uuid, withField(third, 'name', `${table.name}_renamed`))).status).toBe(302)
    const after = await stored(table.uuid)
    expect([after.name, after.description]).toEqual([`${table.name}_renamed`, 'first says'])
  })
})
