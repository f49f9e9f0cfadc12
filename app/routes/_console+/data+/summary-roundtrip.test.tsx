/**
 * Issue 32, summary tables: a summary table made by another tool (`summary.enabled` absent, unknown
 * keys in `summary`, SQL with its own spacing), opened in its Summary Settings tab, or in the table
 * page's Summary group (as fields or as JSON), and saved unchanged, stays exactly as the cluster
 * holds it (decision 072). Rendered on the server and posted as a browser without scripts posts it.
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown, unwrap } from '#tests/session'
import { system } from '~/theme'
import { MALFORMED_FORM_MESSAGE } from '~/utils/form-shape'
import { SummaryForm, SummarySettingsForm, tabWithErrors, type NewSummaryTab } from './__summary-editor'
import { action as newAction, loader as newLoader } from './new-summary-table._index'
import { SettingsGroupForm } from './__table-settings'
import { action as settingsAction, loader as settingsLoader } from './tables.$tableId.edit-summary-settings._index'
import { action as pageAction, loader as pageLoader } from './tables.$tableId._index'

// The forms outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
let parentId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_sum' })).uuid
  const parent = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
    name: 'events',
  })
  parentId = parent.uuid
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/${parent.uuid}/transforms/`, {
    name: 'main',
    type: 'json',
    settings: {
      output_columns: [
        { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02' } },
        { name: 'level', datatype: { type: 'string' } },
      ],
    },
  })
})

type Stored = Record<string, unknown> & { uuid: string }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const tablePath = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${id ? `${id}/` : ''}`

async function post(
  url: string,
  run: (a: ReturnType<typeof args>) => Promise<unknown>,
  tableId: string,
  entries: [string, string][],
) {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => run(args(request, { tableId })))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

async function saveSummaryTab(tableId: string) {
  const url = `/data/tables/${tableId}/edit-summary-settings?project=${projectId}`
  const page = await settingsLoader(args(get(url, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SummarySettingsForm
        defaults={{ enabled: page.enabled, sql: page.sql, original: page.original }}
        constraint={page.constraint}
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  return post(url, settingsAction, tableId, formEntries(html, 'summary-settings', null))
}

async function saveSummaryGroup(tableId: string, asJson: boolean) {
  const url = `/data/tables/${tableId}?project=${projectId}&edit=summary${asJson ? '&as=json' : ''}`
  const page = await pageLoader(args(get(url, cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SettingsGroupForm step={page.settingsStep!} cancelTo="/data/tables" />
    </ChakraProvider>,
  )
  return post(url, pageAction, tableId, formEntries(html, `settings-${asJson ? 'json-' : ''}summary`, null))
}

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '"', '<', '&', 'é'), maxLength: 6 })
const json: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  text,
  fc.constant({ a: [1] }),
)
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy'), json, { maxKeys: 2 })
const maybe = <T,>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })

const summaryArb = fc
  .record({
    description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
    enabled: maybe(fc.boolean()),
    sql: fc.constantFrom(
      'SELECT toStartOfHour(timestamp) AS timestamp, level, count() AS n FROM rt_sum.events GROUP BY timestamp, level',
      '  select timestamp, count() as n\nfrom rt_sum.events\n group by timestamp  \n',
      'SELECT timestamp, level FROM `rt_sum`.`events`',
    ),
    summaryUnknown: unknownKeys,
    settingsUnknown: unknownKeys,
  })
  .map(
    ({ description, enabled, sql, summaryUnknown, settingsUnknown }) =>
      JSON.parse(
        JSON.stringify({
          description,
          type: 'summary',
          settings: { ...settingsUnknown, summary: { ...summaryUnknown, enabled, sql } },
        }),
      ) as Record<string, unknown>,
  )

let made = 0
async function createSummary(table: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', tablePath(), { ...table, name: `rt_summary_${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the summary table: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', tablePath(created.uuid))
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 12)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('summary table round trip (issue 32)', () => {
  it('the Summary Settings tab and the Summary group (fields, JSON) saved unchanged keep the table as stored', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(summaryArb, async (table) => {
        cases += 1
        const before = await createSummary(table)
        const again = async () => strip(await clusterCall<Stored>('GET', tablePath(before.uuid)))
        expect(await saveSummaryTab(before.uuid), 'summary settings tab').toBe(302)
        expect(await again(), 'summary settings tab').toEqual(strip(before))
        expect(await saveSummaryGroup(before.uuid, false), 'summary group').toBe(302)
        expect(await again(), 'summary group').toEqual(strip(before))
        expect(await saveSummaryGroup(before.uuid, true), 'summary group as JSON').toBe(302)
        expect(await again(), 'summary group as JSON').toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`summary round trip: ${cases} generated summary tables, 3 forms each`)
  })
})

/** The new summary table form, on tab `tab`, as the loader answers `query` and the server renders it. */
async function newSummaryTab(query: string) {
  const page = await newLoader(args(get(`/data/new-summary-table?${query}`, cookie)))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SummaryForm
        projects={page.projects}
        constraint={page.constraint}
        search={page.search}
        defaults={page.defaults}
        analysisHref="/data/new-summary-table/column-analysis"
        tab={page.tab as NewSummaryTab}
      />
    </ChakraProvider>,
  )
  return { page, entries: formEntries(html, 'summary-form', null) }
}

describe('a new summary table: its Summary Settings tab (issue 35)', () => {
  const sql =
    'SELECT toStartOfHour(timestamp) AS timestamp, level, count() AS n FROM rt_sum.events GROUP BY timestamp, level'
  const typed = (name: string) =>
    new URLSearchParams({ project: projectId, name, description: 'd', parent: `${projectId}/${parentId}`, sql })

  it("the Settings tab carries the Form tab's fields hidden; unticked, the table is created disabled", async () => {
    const { page, entries } = await newSummaryTab(`${typed('new_off')}&tab=settings`)
    expect(page.tab).toBe('settings')
    const posted = Object.fromEntries(entries)
    expect(posted).toMatchObject({
      project: projectId,
      name: 'new_off',
      description: 'd',
      parent: `${projectId}/${parentId}`,
      settingsShown: 'on',
      enabled: 'on',
    })
    expect(posted.sql?.replace(/\r\n/g, '\n')).toBe(sql)
    // the operator unticks Enabled and creates from the Settings tab
    const status = await post(
      '/data/new-summary-table?tab=settings',
      newAction,
      '',
      entries.filter(([name]) => name !== 'enabled'),
    )
    expect(status).toBe(302)
    const tables = await clusterCall<{ results?: Stored[] } | Stored[]>('GET', tablePath())
    const list = Array.isArray(tables) ? tables : (tables.results ?? [])
    const made = list.find((table) => table.name === 'new_off')!
    expect((made.settings as { summary: { enabled: boolean } }).summary.enabled).toBe(false)
  })

  it('back on the Form tab the setting travels hidden; a table whose Settings tab was never shown is enabled', async () => {
    // the Settings tab sent as a GET (its tab button) with Enabled unticked, then the Form tab
    const { page, entries } = await newSummaryTab(`${typed('new_back')}&settingsShown=on&tab=form`)
    expect(page.tab).toBe('form')
    expect(page.defaults.enabled).toBeUndefined()
    expect(Object.fromEntries(entries)).toMatchObject({ settingsShown: 'on', name: 'new_back' })
    expect(entries.some(([name]) => name === 'enabled')).toBe(false)
    const never = await newSummaryTab(typed('new_on').toString())
    expect(never.page.defaults.enabled).toBe('on')
    expect(Object.fromEntries(never.entries)).toMatchObject({ enabled: 'on' })
    expect(never.entries.some(([name]) => name === 'settingsShown')).toBe(false)
  })

  it('a create with a field the page sets itself sent twice says so at the top of the form, on either tab, all typed kept', async () => {
    // found by `npm run fuzz` (issue 37): `enabled` twice was an error on a field hidden on the Form tab, a 400 showing none
    for (const [field, tab] of [
      ['enabled', 'form'],
      ['settingsShown', 'form'],
      ['enabled', 'settings'],
    ] as const) {
      const body = new FormData()
      for (const [name, value] of [
        [field, ''],
        ['project', projectId],
        ['name', 'twice_sent'],
        ['description', 'typed description'],
        ['parent', `${projectId}/${parentId}`],
        ['table_q', 'typed search'],
        ['sql', sql],
        [field, 'NaN'],
      ])
        body.append(name!, value!)
      const url = `/data/new-summary-table${tab === 'settings' ? '?tab=settings' : ''}`
      const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
      const { data, status } = unwrap<{ result: Parameters<typeof tabWithErrors>[1] }>(
        await returnedOrThrown(() => newAction(args(request))),
      )
      expect(status, field).toBe(400)
      const page = await newLoader(args(get(url, cookie)))
      const html = renderToString(
        <ChakraProvider value={system}>
          <SummaryForm
            projects={page.projects}
            constraint={page.constraint}
            search={page.search}
            defaults={page.defaults}
            lastResult={data.result}
            analysisHref="/data/new-summary-table/column-analysis"
            tab={tabWithErrors(page.tab as NewSummaryTab, data.result)}
          />
        </ChakraProvider>,
      )
      expect(html, `${field} on the ${tab} tab`).toContain('role="alert"')
      expect(html).toContain(MALFORMED_FORM_MESSAGE)
      if (tab === 'form')
        for (const typed of ['twice_sent', 'typed description', 'typed search']) expect(html).toContain(typed)
    }
  })

  it('a create refused for a field of the Form tab shows the Form tab', async () => {
    const { tabWithErrors } = await import('./__summary-editor')
    expect(tabWithErrors('settings', { status: 'error', error: { name: ['Name is required'] } })).toBe('form')
    expect(tabWithErrors('settings', { status: 'error', error: { sql: ['The cluster refused the SQL: x'] } })).toBe(
      'settings',
    )
    expect(tabWithErrors('settings', undefined)).toBe('settings')
  })
})
