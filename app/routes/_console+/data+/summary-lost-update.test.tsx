/**
 * Issue 50 point 5, the Summary Settings tab (decision 097): the SQL saved by one operator meanwhile
 * is not overwritten by another's stale form; a change of the other field merges.
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
import { SummarySettingsForm } from './__summary-editor'
import { action, loader } from './tables.$tableId.edit-summary-settings._index'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_sum' })).uuid
  const parent = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
    name: 'events',
  })
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

type Stored = Record<string, unknown> & { uuid: string; settings: { summary: { sql: string; enabled?: boolean } } }
const tablePath = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/tables/${id ? `${id}/` : ''}`
const url = (tableId: string) => `/data/tables/${tableId}/edit-summary-settings?project=${projectId}`
const SQL = (n: string) => `SELECT timestamp, level, count() AS ${n} FROM lu_sum.events GROUP BY timestamp, level`

async function openForm(tableId: string, lastResult?: FormResult) {
  const page = await loader(args(get(url(tableId), cookie), { tableId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <SummarySettingsForm
        defaults={{ enabled: page.enabled, sql: page.sql, original: page.original }}
        constraint={page.constraint}
        lastResult={lastResult as never}
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'summary-settings', null)
}
const post = (tableId: string, entries: [string, string][]) =>
  answerOf(() => action(args(formPost(url(tableId), entries, cookie, TEST_CONSOLE_URL), { tableId })))

let made = 0
const makeSummary = () =>
  clusterCall<Stored>('POST', tablePath(), {
    name: `lu_summary_${++made}`,
    type: 'summary',
    settings: { summary: { enabled: true, sql: SQL('n') } },
  })

describe('summary settings: no silent lost update (issue 50)', () => {
  it('refuses the SQL changed meanwhile; merges the enabled flag', async () => {
    const table = await makeSummary()
    const [first, second, third] = [await openForm(table.uuid), await openForm(table.uuid), await openForm(table.uuid)]
    expect((await post(table.uuid, withField(first, 'sql', SQL('first')))).status).toBe(302)
    const refused = await post(table.uuid, withField(second, 'sql', SQL('second')))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.sql![0]).toContain('count() AS first')
    expect((await post(table.uuid, withField(third, 'enabled', null))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', tablePath(table.uuid))
    expect([after.settings.summary.sql, after.settings.summary.enabled]).toEqual([SQL('first'), false])
  })
})
