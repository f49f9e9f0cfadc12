/**
 * Issue 50 point 5, ingest sources: two people open the same kafka source; the first saves a field.
 * The second's save of another value of that field is refused (409) at the field with its value
 * now, the typed value kept; a save of another field merges. Forms rendered on the server, posted
 * as a browser without scripts posts them (decision 097).
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
import { SourceEditor } from './__source-editor'
import { action, loader } from './tables.$tableId.source.edit.$type.$sourceId'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
let tableId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_sources' }))
    .uuid
  tableId = (
    await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'events',
    })
  ).uuid
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`, {
    name: 'main',
    type: 'json',
    settings: {
      output_columns: [{ name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02' } }],
    },
  })
})

type Json = Record<string, unknown>
type Stored = Json & { uuid: string; description?: string; settings: Json }
type Result = { error?: Record<string, string[]>; initialValue?: Json }
type Answer = { status: number; result?: Result }
const sourcesPath = `/config/v1/orgs/{org}/projects/{project}/tables/{table}/sources/kafka/`
const path = (id = '') => sourcesPath.replace('{project}', projectId).replace('{table}', tableId) + (id ? `${id}/` : '')

let made = 0
async function makeSource(): Promise<Stored> {
  made += 1
  return clusterCall<Stored>('POST', path(), {
    name: `lu-kafka-${made}`,
    description: 'as made',
    type: 'pull',
    subtype: 'kafka',
    transform: 'main',
    table: `lu_sources.events`,
    settings: { bootstrap_servers: ['kafka-1:9092'], topics: ['a'] },
    k8s_deployment: { replicas: 1, cpu: 1, memory: '1Gi', storage: '1Gi' },
  })
}

const params = (sourceId: string) => ({ tableId, type: 'kafka', sourceId })
const pageUrl = (sourceId: string) => `/data/tables/${tableId}/source/edit/kafka/${sourceId}?project=${projectId}`

async function openForm(sourceId: string, lastResult?: Result): Promise<[string, string][]> {
  const page = await loader(args(get(pageUrl(sourceId), cookie), params(sourceId)))
  if (page.mode !== 'source') throw new Error('not a source page')
  const html = renderToString(
    <ChakraProvider value={system}>
      <SourceEditor
        kind="kafka"
        table={page.table.value}
        tableLabel={page.table.label}
        transforms={page.transforms}
        defaultValue={page.defaultValue}
        constraint={page.constraint}
        lastResult={lastResult as never}
        submitLabel="Save source"
        cancelTo="/data/tables"
        isEdit
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'source-kafka', null)
}

const withField = (entries: [string, string][], name: string, value: string): [string, string][] => [
  ...entries.filter(([key]) => key !== name),
  [name, value],
]

async function post(sourceId: string, entries: [string, string][]): Promise<Answer> {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${pageUrl(sourceId)}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  const result = await returnedOrThrown(() => action(args(request, params(sourceId))))
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data: { result?: Result }; init?: { status?: number } }
  return { status: wrapped.init?.status ?? 200, result: wrapped.data.result }
}

describe('source editor: no silent lost update (issue 50)', () => {
  it('refuses a second change of the topics, naming the value now; saved again it replaces it', async () => {
    const source = await makeSource()
    const first = await openForm(source.uuid)
    const second = await openForm(source.uuid)
    expect((await post(source.uuid, withField(first, 'topics', 'a, b'))).status).toBe(302)

    const refused = await post(source.uuid, withField(second, 'topics', 'c'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.topics![0]).toMatch(/^Changed by admin@example\.com .* now “a, b”/)
    expect(refused.result!.initialValue!.topics).toBe('c')
    expect(((await clusterCall<Stored>('GET', path(source.uuid))).settings.topics as string[]).join()).toBe('a,b')

    const again = await openForm(source.uuid, refused.result)
    expect(again).toContainEqual(['topics', 'c'])
    expect((await post(source.uuid, again)).status).toBe(302)
    expect((await clusterCall<Stored>('GET', path(source.uuid))).settings.topics).toEqual(['c'])
  })

  it('merges a change of another field', async () => {
    const source = await makeSource()
    const first = await openForm(source.uuid)
    const second = await openForm(source.uuid)
    expect((await post(source.uuid, withField(first, 'topics', 'a, b'))).status).toBe(302)
    expect((await post(source.uuid, withField(second, 'description', 'second says'))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', path(source.uuid))
    expect([after.settings.topics, after.description]).toEqual([['a', 'b'], 'second says'])
  })
})
