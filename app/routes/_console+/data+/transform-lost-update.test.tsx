/**
 * Issue 50 point 5, transforms: two people open the same transform. A field the second changes
 * (the transform's own, or a column's) that the first changed meanwhile is refused (409) at the
 * field with its value now, the typed value kept; a save of other fields merges onto the transform
 * as the cluster holds it now: columns added meanwhile stay, a column's other fields keep the other
 * change. Forms rendered on the server, posted as a browser without scripts posts them (decision 097).
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
import { TransformEditor } from './__transform-editor'
import { action, loader } from './tables.$tableId.transform.edit.$transformId'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
let tableId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_transforms' })
  ).uuid
  tableId = (
    await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'events',
    })
  ).uuid
})

type Json = Record<string, unknown>
type Column = { name: string; datatype: Json }
type Stored = Json & { uuid: string; description?: string; settings: Json & { output_columns: Column[] } }
type Result = { error?: Record<string, string[]>; initialValue?: Json }
type Answer = { status: number; result?: Result; formKey?: string }
const path = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/${id}`

let made = 0
async function makeTransform(): Promise<Stored> {
  made += 1
  return clusterCall<Stored>('POST', path(), {
    name: `lu_transform_${made}`,
    description: 'as made',
    type: 'json',
    settings: {
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
        { name: 'status', datatype: { type: 'string', index: true } },
        { name: 'bytes', datatype: { type: 'uint64', index: false, default: null } },
      ],
    },
  })
}
const stored = (transform: Stored) => clusterCall<Stored>('GET', path(transform.uuid))
const column = (transform: Stored, name: string) => transform.settings.output_columns.find((c) => c.name === name)!

const params = (transformId: string) => ({ tableId, transformId })
const pageUrl = (transformId: string) => `/data/tables/${tableId}/transform/edit/${transformId}?project=${projectId}`

async function openForm(transformId: string, lastResult?: Result): Promise<[string, string][]> {
  const page = await loader(args(get(pageUrl(transformId), cookie), params(transformId)))
  const html = renderToString(
    <ChakraProvider value={system}>
      <TransformEditor
        tables={page.tables}
        isTableFixed
        defaultValue={page.defaultValue}
        constraint={page.constraint}
        lastResult={lastResult as never}
        submitLabel="Save transform"
        cancelTo="/data/tables"
        canIngest
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'transform-editor')
}

const withField = (entries: [string, string][], name: string, value: string | null): [string, string][] => [
  ...entries.filter(([key]) => key !== name),
  ...(value === null ? [] : ([[name, value]] as [string, string][])),
]

async function post(transformId: string, entries: [string, string][]): Promise<Answer> {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${pageUrl(transformId)}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  const result = await returnedOrThrown(() => action(args(request, params(transformId))))
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data: { result?: Result; formKey?: string }; init?: { status?: number } }
  return { status: wrapped.init?.status ?? 200, result: wrapped.data.result, formKey: wrapped.data.formKey }
}

describe('transform editor: no silent lost update (issue 50)', () => {
  it('refuses a column field changed on both sides, naming the column and its value now; saved again it replaces it', async () => {
    const transform = await makeTransform()
    const first = await openForm(transform.uuid)
    const second = await openForm(transform.uuid)
    expect((await post(transform.uuid, withField(first, 'columns[1].type', 'uint32'))).status).toBe(302)

    const refused = await post(transform.uuid, withField(second, 'columns[1].type', 'int64'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!['columns[1].type']![0]).toMatch(/^Changed by admin@example\.com .* now “uint32”/)
    expect(refused.result!.error![''][0]).toContain('Column “status”: Type is now “uint32”')
    expect((refused.result!.initialValue!.columns as Json[])[1]!.type).toBe('int64')
    expect(refused.formKey).toMatch(/^conflict-/)
    expect(column(await stored(transform), 'status').datatype.type).toBe('uint32')

    const again = await openForm(transform.uuid, refused.result)
    expect(again).toContainEqual(['columns[1].type', 'int64'])
    expect((await post(transform.uuid, again)).status).toBe(302)
    expect(column(await stored(transform), 'status').datatype.type).toBe('int64')
  })

  it('merges other fields onto the transform as it is now: another column, the same column, a column added meanwhile', async () => {
    const transform = await makeTransform()
    const first = await openForm(transform.uuid)
    const second = await openForm(transform.uuid)
    expect((await post(transform.uuid, withField(first, 'columns[1].type', 'uint32'))).status).toBe(302)
    // a third tool adds a column
    const now = await stored(transform)
    await clusterCall('PUT', path(transform.uuid), {
      name: now.name,
      type: now.type,
      description: now.description,
      settings: {
        ...now.settings,
        output_columns: [...now.settings.output_columns, { name: 'added', datatype: { type: 'string' } }],
      },
    })
    const merged = withField(
      withField(withField(second, 'description', 'second says'), 'columns[2].index', 'on'),
      'columns[1].index',
      null,
    )
    expect((await post(transform.uuid, merged)).status).toBe(302)
    const after = await stored(transform)
    expect(after.description).toBe('second says')
    expect(column(after, 'status').datatype).toMatchObject({ type: 'uint32', index: false })
    expect(column(after, 'bytes').datatype).toEqual({ type: 'uint64', index: true, default: null })
    expect(after.settings.output_columns.map((c) => c.name)).toEqual(['timestamp', 'status', 'bytes', 'added'])
  })

  it('refuses a change to a column removed meanwhile, and lets an unchanged one go', async () => {
    const transform = await makeTransform()
    const first = await openForm(transform.uuid)
    const second = await openForm(transform.uuid)
    const third = await openForm(transform.uuid)
    // the first removes "bytes" (its row dropped from the post)
    const withoutBytes = first.filter(([key]) => !key.startsWith('columns[2]'))
    expect((await post(transform.uuid, withoutBytes)).status).toBe(302)
    const refused = await post(transform.uuid, withField(second, 'columns[2].format', 'x'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!['columns[2].name']![0]).toContain('now “(removed or renamed)”')
    expect((await post(transform.uuid, withField(third, 'description', 'third says'))).status).toBe(302)
    const after = await stored(transform)
    expect([after.description, after.settings.output_columns.map((c) => c.name)]).toEqual([
      'third says',
      ['timestamp', 'status'],
    ])
  })

  it('refuses the description changed on both sides', async () => {
    const transform = await makeTransform()
    const first = await openForm(transform.uuid)
    const second = await openForm(transform.uuid)
    expect((await post(transform.uuid, withField(first, 'description', 'first says'))).status).toBe(302)
    const refused = await post(transform.uuid, withField(second, 'description', 'second says'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.description![0]).toContain('now “first says”')
  })
})
