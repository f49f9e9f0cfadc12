/**
 * Issue 50 point 2: the console's editors keep what a live cluster answers (null stays null, not
 * false, "" or a dropped key) when a field is left as it was. Tables and transforms are generated in
 * a live cluster's shape (tests/live-cluster-shapes.ts: null primary, format, default and script on
 * every column, resolution "seconds", flattening null on CSV, null strategy parts, null_values null,
 * table_type null, rate_limit null, unknown keys), created on the local cluster, opened by the edit
 * loaders, rendered on the server and posted as a browser without scripts posts them, with nothing
 * changed; the cluster's copy must be what it was (`modified` aside). With scripts the same forms
 * post the same fields (the transform editor's hidden format section posts them as rendered: e2e).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { liveTable, liveTransform, differences, withoutServerKeys } from '#tests/live-cluster-shapes'
import { answerOf, formPost } from '#tests/lost-update'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { RenameTableForm, SettingsGroupForm } from './__table-settings'
import { TransformEditor } from './__transform-editor'
import { action as tableAction, loader as tableLoader } from './tables.$tableId._index'
import { action as transformAction, loader as transformLoader } from './tables.$tableId.transform.edit.$transformId'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'live_shapes' }))
    .uuid
})

type Stored = Record<string, unknown> & { uuid: string }
const tables = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${id ? `${id}/` : ''}`
const transforms = (tableId: string, id = '') => `${tables(tableId)}transforms/${id}`
const ignoring = ['modified']

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 12)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 50)
const GROUPS = ['bucket', 'lifecycle', 'index', 'merge', 'flush', 'stream', 'query'] as const

async function saveGroup(tableId: string, group: string, asJson: boolean) {
  const url = `/data/tables/${tableId}?project=${projectId}&edit=${group}${asJson ? '&as=json' : ''}`
  const page = await tableLoader(args(get(url, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SettingsGroupForm step={page.settingsStep!} cancelTo={`/data/tables/${tableId}`} />
    </ChakraProvider>,
  )
  const entries = formEntries(html, `settings-${asJson ? 'json-' : ''}${group}`, null)
  const post = formPost(`/data/tables/${tableId}?project=${projectId}`, entries, cookie, TEST_CONSOLE_URL)
  return answerOf(() => tableAction(args(post, { tableId })))
}

async function saveRename(tableId: string) {
  const page = await tableLoader(
    args(get(`/data/tables/${tableId}?project=${projectId}&edit=rename`, cookie), { tableId }),
  )
  const html = renderToString(
    <ChakraProvider value={system}>
      <RenameTableForm
        name={page.table.name}
        description={page.table.description}
        original={page.table.original}
        constraint={page.renameConstraint}
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  const entries = formEntries(html, 'rename-table', null)
  const post = formPost(`/data/tables/${tableId}?project=${projectId}`, entries, cookie, TEST_CONSOLE_URL)
  return answerOf(() => tableAction(args(post, { tableId })))
}

async function saveTransform(tableId: string, transformId: string) {
  const url = `/data/tables/${tableId}/transform/edit/${transformId}?project=${projectId}`
  const page = await transformLoader(args(get(url, cookie), { tableId, transformId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <TransformEditor
        tables={page.tables}
        isTableFixed
        defaultValue={page.defaultValue}
        constraint={page.constraint}
        submitLabel="Save transform"
        cancelTo="/data/tables"
        canIngest
      />
    </ChakraProvider>,
  )
  const post = formPost(url, formEntries(html, 'transform-editor'), cookie, TEST_CONSOLE_URL)
  return answerOf(() => transformAction(args(post, { tableId, transformId })))
}

const same = (before: Stored, after: Stored) =>
  differences(withoutServerKeys(before, ignoring), withoutServerKeys(after, ignoring), true)

let made = 0
describe('live-cluster shapes through the editors unchanged (issue 50 point 2)', () => {
  it('a live table: every settings group (fields and JSON) and the rename form saved unchanged keep it as it was', async () => {
    let saves = 0
    await fc.assert(
      fc.asyncProperty(liveTable('x'), async (shape) => {
        made += 1
        const created = await clusterCall<Stored>('POST', tables(), { ...shape, name: `live_t${made}` })
        const before = await clusterCall<Stored>('GET', tables(created.uuid))
        for (const group of GROUPS)
          for (const asJson of [false, true]) {
            const answer = await saveGroup(created.uuid, group, asJson)
            expect(answer.status, `${group}${asJson ? ' as JSON' : ''}: ${JSON.stringify(answer.result)}`).toBe(302)
            saves += 1
          }
        expect((await saveRename(created.uuid)).status).toBe(302)
        saves += 1
        expect(same(before, await clusterCall<Stored>('GET', tables(created.uuid)))).toEqual([])
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`live tables: ${RUNS} tables, ${saves} unchanged saves, no difference`)
  })

  it('a live transform (csv and json, null flags on every column) saved unchanged keeps it as it was', async () => {
    const table = await clusterCall<Stored>('POST', tables(), { name: 'live_transforms' })
    await fc.assert(
      fc.asyncProperty(liveTransform('x', 20), async (shape) => {
        made += 1
        const created = await clusterCall<Stored>('POST', transforms(table.uuid), { ...shape, name: `live_tr${made}` })
        const before = await clusterCall<Stored>('GET', transforms(table.uuid, created.uuid))
        const answer = await saveTransform(table.uuid, created.uuid)
        expect(answer.status, JSON.stringify(answer.result?.error)).toBe(302)
        expect(same(before, await clusterCall<Stored>('GET', transforms(table.uuid, created.uuid)))).toEqual([])
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`live transforms: ${RUNS} transforms of 20 columns saved unchanged, no difference`)
  })
})
