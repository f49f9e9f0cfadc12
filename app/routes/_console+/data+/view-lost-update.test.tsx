/**
 * Issue 50 point 5, views (decision 097): a field saved by one operator meanwhile (the description,
 * the columns) is not overwritten by another's stale form; a change of another field merges.
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { answerOf, formPost, withField, type FormResult } from '#tests/lost-update'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { ViewEditor } from './__view-editor'
import { action, loader } from './tables.$tableId.view.edit.$viewId'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
let tableId: string
let made = 0
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_views' }))
    .uuid
})

/** A table of its own for each test (a view of another test could be the parent the form picks). */
async function makeTable() {
  tableId = (
    await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: `logs_${made}`,
    })
  ).uuid
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`, {
    name: 'main',
    type: 'json',
    settings: {
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02' } },
        { name: 'host', datatype: { type: 'string' } },
        { name: 'status', datatype: { type: 'uint32' } },
      ],
    },
  })
}

type Stored = Record<string, unknown> & {
  uuid: string
  description?: string
  settings: { output_columns: { name: string }[] }
}
const viewsPath = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/views/${id}`
const url = (viewId: string) => `/data/tables/${tableId}/view/edit/${viewId}?project=${projectId}`

async function openForm(viewId: string, lastResult?: FormResult) {
  const page = await loader(args(get(url(viewId), cookie), { tableId, viewId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <ViewEditor
        table={page.table}
        tableLabel={page.tableLabel}
        views={page.views}
        hasAutoView={page.hasAutoView}
        constraint={page.constraint}
        excludeViewId={page.view.uuid}
        defaults={{
          name: page.view.name,
          description: page.view.description,
          parentView: page.view.parentView,
          outputColumns: page.view.columns,
          original: page.view.original,
        }}
        lastResult={lastResult as never}
        submitLabel="Save view"
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'view-editor', null)
}
const post = (viewId: string, entries: [string, string][]) =>
  answerOf(() => action(args(formPost(url(viewId), entries, cookie, TEST_CONSOLE_URL), { tableId, viewId })))

async function makeView() {
  await makeTable()
  const auto = (await clusterCall<{ results?: Stored[] } | Stored[]>('GET', viewsPath())) as unknown
  const list = (Array.isArray(auto) ? auto : (auto as { results: Stored[] }).results) as (Stored & { name: string })[]
  const parent = list.find((view) => view.name === 'auto_view')!
  const columns = parent.settings.output_columns.filter((column) => column.name !== 'status')
  return clusterCall<Stored>('POST', viewsPath(), {
    name: `lu_view_${++made}`,
    description: 'as made',
    settings: { output_columns: columns },
  })
}
const withoutColumn = (entries: [string, string][], name: string) =>
  entries.filter(([key, value]) => !(key === 'outputColumns' && value === name))
const withColumn = (entries: [string, string][], name: string): [string, string][] => [
  ...entries,
  ['outputColumns', name],
]
const names = (view: Stored) => view.settings.output_columns.map((column) => column.name)

describe('view editor: no silent lost update (issue 50)', () => {
  it('refuses the description changed meanwhile; saved again it replaces it', async () => {
    const view = await makeView()
    const [first, second] = [await openForm(view.uuid), await openForm(view.uuid)]
    expect((await post(view.uuid, withField(first, 'description', 'first says'))).status).toBe(302)
    const refused = await post(view.uuid, withField(second, 'description', 'second says'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.description![0]).toMatch(/now “first says”/)
    expect((await post(view.uuid, await openForm(view.uuid, refused.result))).status).toBe(302)
    expect((await clusterCall<Stored>('GET', viewsPath(view.uuid))).description).toBe('second says')
  })

  it('refuses columns changed on both sides, and merges a description with columns changed meanwhile', async () => {
    const view = await makeView()
    const [first, second, third] = [await openForm(view.uuid), await openForm(view.uuid), await openForm(view.uuid)]
    const added = await post(view.uuid, withColumn(first, 'status'))
    expect(added.status, JSON.stringify(added.result?.error)).toBe(302)
    expect(names(await clusterCall<Stored>('GET', viewsPath(view.uuid)))).toContain('status')
    const refused = await post(view.uuid, withoutColumn(second, 'host'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.outputColumns![0]).toMatch(/now “host, status, timestamp”/)
    expect((await post(view.uuid, withField(third, 'description', 'third says'))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', viewsPath(view.uuid))
    expect([after.description, names(after).sort()]).toEqual(['third says', ['host', 'status', 'timestamp']])
  })
})
