/**
 * Issue 32, views: a view made by another tool (its own column shapes, unknown keys, null, "",
 * absent description, columns in its own order or not all in one parent), opened in its edit page
 * and saved unchanged, stays exactly as the cluster holds it; a description change writes only the
 * description. Views are generated, created on the local cluster, loaded by the edit loader,
 * rendered on the server and posted as a browser without scripts posts the form (decision 072).
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
import { ViewEditor } from './__view-editor'
import { action, loader } from './tables.$tableId.view.edit.$viewId'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

const COLUMNS = ['timestamp', 'host', 'status', 'bytes', 'path']
let cookie: string
let projectId: string
let tableId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_views' }))
    .uuid
  tableId = (
    await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'logs',
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
        { name: 'bytes', datatype: { type: 'uint64' } },
        { name: 'path', datatype: { type: 'string' } },
      ],
    },
  })
})

type Stored = Record<string, unknown> & { uuid: string }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const viewsPath = () => `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/views/`

async function save(viewId: string, change = (e: [string, string][]) => e) {
  const params = { tableId, viewId }
  const url = `/data/tables/${tableId}/view/edit/${viewId}?project=${projectId}`
  const page = await loader(args(get(url, cookie), params))
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
        submitLabel="Save view"
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'view-editor', null))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, params)))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é'), maxLength: 6 })
const json: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  text,
  fc.constant({ a: [1] }),
)
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy'), json, { maxKeys: 2 })
const maybe = <T,>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })

const TYPES: Record<string, Record<string, unknown>> = {
  timestamp: { type: 'datetime', primary: true, format: '2006-01-02' },
  host: { type: 'string' },
  status: { type: 'uint32' },
  bytes: { type: 'uint64' },
  path: { type: 'string' },
}

const viewArb = fc
  .record({
    description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
    // a subset of the table's columns in any order, each with its own extra keys
    columns: fc
      .shuffledSubarray(COLUMNS.slice(1), { minLength: 1 })
      .chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), unknownKeys, unknownKeys)))),
    withTimestamp: fc.boolean(),
    settingsUnknown: unknownKeys,
    isDefault: maybe(fc.constant(false)),
  })
  .map(({ description, columns, withTimestamp, settingsUnknown, isDefault }) => {
    const output = columns.map(([name, extra, dtExtra]) => ({
      ...extra,
      name,
      datatype: { ...dtExtra, ...TYPES[name] },
    }))
    if (withTimestamp) output.unshift({ name: 'timestamp', datatype: { ...TYPES.timestamp! } })
    return JSON.parse(
      JSON.stringify({ description, settings: { ...settingsUnknown, is_default: isDefault, output_columns: output } }),
    ) as Record<string, unknown>
  })

let made = 0
async function createView(view: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', viewsPath(), { ...view, name: `rt_view_${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the view: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', `${viewsPath()}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 30)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('view editor round trip (issue 32)', () => {
  it('keeps every generated view exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(viewArb, async (view) => {
        cases += 1
        const before = await createView(view)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${viewsPath()}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`view round trip: ${cases} generated views saved unchanged`)
  })

  it('a view with columns from more than one view keeps those its form does not show when its columns change', async () => {
    // two views holding a column auto_view lacks (made by another tool)
    const timestamp = { name: 'timestamp', datatype: { ...TYPES.timestamp! } }
    await clusterCall('POST', viewsPath(), {
      name: 'rt_with_region',
      settings: {
        output_columns: [
          timestamp,
          { name: 'host', datatype: { type: 'string' } },
          { name: 'region', datatype: { type: 'string' } },
        ],
      },
    })
    await clusterCall('POST', viewsPath(), {
      name: 'rt_with_tenant',
      settings: { output_columns: [timestamp, { name: 'tenant', datatype: { type: 'string', x_extra: 1 } }] },
    })
    const OWN: Record<string, Record<string, unknown>> = {
      ...TYPES,
      region: { type: 'string' },
      tenant: { type: 'string', x_extra: 1 },
    }
    const arb = fc
      .tuple(
        fc.shuffledSubarray(COLUMNS.slice(1), { minLength: 2 }),
        fc.shuffledSubarray(['region', 'tenant'], { minLength: 1 }),
        fc.nat(),
      )
      .chain(([shown, hidden, at]) =>
        fc
          .shuffledSubarray([...shown, ...hidden], { minLength: shown.length + hidden.length })
          .map((order) => ({ order, untick: shown[at % shown.length]! })),
      )
    await fc.assert(
      fc.asyncProperty(arb, unknownKeys, async ({ order, untick }, extra) => {
        const before = await createView({
          settings: {
            output_columns: [timestamp, ...order.map((name) => ({ ...extra, name, datatype: { ...OWN[name] } }))],
          },
        })
        const status = await save(before.uuid, (entries) =>
          entries.filter(([key, value]) => !(key === 'outputColumns' && value === untick)),
        )
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${viewsPath()}${before.uuid}`)
        const settings = before.settings as { output_columns: { name: string }[] }
        expect(strip(after)).toEqual({
          ...strip(before),
          settings: { ...settings, output_columns: settings.output_columns.filter((column) => column.name !== untick) },
        })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(viewArb, async (view) => {
        const before = await createView(view)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'description'),
          ['description', 'Changed here'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${viewsPath()}${before.uuid}`)
        expect(strip(after)).toEqual({ ...strip(before), description: 'Changed here' })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
