import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { action as newSummaryAction, loader as newSummaryLoader } from './new-summary-table._index'
import { action as analysisAction, loader as analysisLoader } from './new-summary-table.column-analysis'
import { loader as detailLoader } from './tables.$tableId._index'
import {
  action as editSettingsAction,
  loader as editSettingsLoader,
} from './tables.$tableId.edit-summary-settings._index'
import { loader as editAnalysisLoader } from './tables.$tableId.edit-summary-settings.column-analysis'

useTestCluster()

type FormReply = {
  result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
  sql?: string | null
}

let cookie: string
let parent: { projectId: string; tableId: string }
beforeAll(async () => {
  cookie = await loginAsAdmin()
  parent = await makeTable('shop', 'events', [
    { timestamp: '2024-05-01T10:00:00Z', level: 'info', message: 'a' },
    { timestamp: '2024-05-01T10:00:30Z', level: 'error', message: 'b' },
  ])
})

const parentValue = () => `${parent.projectId}/${parent.tableId}`

const send = (
  action: (a: ReturnType<typeof args>) => Promise<unknown>,
  path: string,
  form: Record<string, string>,
  params: Record<string, string> = {},
) => returnedOrThrown(() => action(args(post(path, form, cookie), params)))

describe('/data/new-summary-table and its column analysis', () => {
  it('the parent picker lists what its search finds (issue 33); Find keeps what was typed; the parent is found by id', async () => {
    const found = await newSummaryLoader(args(get('/data/new-summary-table?table_q=shop.ev', cookie)))
    expect(found.search.choices.map((choice) => `${choice.project}.${choice.name}`)).toEqual(['shop.events'])
    // the GET search (no scripts) carries the form's fields; they come back as its defaults
    const typed = await newSummaryLoader(
      args(
        get(
          `/data/new-summary-table?name=by_level&description=d&sql=SELECT+1&parent=${parentValue()}&table_q=no_such_parent_q`,
          cookie,
        ),
      ),
    )
    expect(typed.search).toMatchObject({ q: 'no_such_parent_q', choices: [], hasMore: false })
    // the parent chosen is kept (found by id) though the search lists nothing
    expect(typed.search.selected).toMatchObject({ uuid: parent.tableId, project: 'shop', name: 'events' })
    expect(typed.defaults).toMatchObject({
      name: 'by_level',
      description: 'd',
      sql: 'SELECT 1',
      parent: parentValue(),
      project: parent.projectId,
    })
    const analysis = await analysisLoader(
      args(get('/data/new-summary-table/column-analysis?table_q=no_such_parent_q', cookie)),
    )
    expect(analysis).toMatchObject({ parent: '', columns: [], search: { choices: [] } })
    // the picker's own value (`<projectId>/<tableId>`, what the GET form sends) picks the parent
    const picked = await analysisLoader(
      args(get(`/data/new-summary-table/column-analysis?parent=${parentValue()}&table_q=shop`, cookie)),
    )
    expect(picked.parent).toBe(parentValue())
    expect(picked.columns.map((column) => column.name)).toEqual(['timestamp', 'level', 'message'])
  })

  it("the org summary counts the rows of the org's tables (one grouped read of system.parts)", async () => {
    const summary = await clusterCall<{ total_rows: number; total_partitions: number }>(
      'GET',
      '/config/v1/orgs/{org}/summary?meta=1',
    )
    expect(summary.total_rows).toBeGreaterThanOrEqual(2)
    expect(summary.total_partitions).toBeGreaterThanOrEqual(1)
  })

  it('column analysis: the rules and the Illegal Aggregation message at their fields', async () => {
    const loaded = await analysisLoader(
      args(get(`/data/new-summary-table/column-analysis?parent=${parent.tableId}`, cookie)),
    )
    expect(loaded.parent).toBe(parentValue())
    expect(loaded.columns.map((column) => column.name)).toEqual(['timestamp', 'level', 'message'])

    const bad = unwrap<FormReply>(
      await send(analysisAction, '/data/new-summary-table/column-analysis', {
        parent: parentValue(),
        timestampColumn: 'timestamp',
        timestampValue: '0',
        timestampUnit: 'minute',
        timeframeValue: '-1',
        'columns[0].name': 'level',
        'columns[0].aggregation': 'skip',
      }),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toMatchObject({
      timestampValue: ['Timestamp value must be greater than 0'],
      timeframeValue: ['Timeframe value must be greater than 0'],
      columns: ['At least one column must be selected'],
    })
    const missing = unwrap<FormReply>(
      await send(analysisAction, '/x', {
        parent: parentValue(),
        timestampColumn: 'timestamp',
        timestampUnit: 'minute',
        'columns[0].name': 'level',
        'columns[0].aggregation': 'group',
      }),
    )
    expect(missing.data.result.error).toMatchObject({ timestampValue: ['Timestamp value is required'] })

    const illegal = unwrap<FormReply>(
      await send(analysisAction, '/x', {
        parent: parentValue(),
        timestampColumn: 'timestamp',
        timestampValue: '1',
        timestampUnit: 'minute',
        where: "message != ''",
        'columns[0].name': 'message',
        'columns[0].aggregation': 'uniq',
      }),
    )
    expect(illegal.data.result.error).toMatchObject({
      where: ['Illegal Aggregation. Column cannot be aggregated if used in WHERE clause.'],
    })
  })

  it('builds the SQL, which the Summary Form takes; the form checks it on the cluster, then creates the table', async () => {
    const built = (await send(analysisAction, '/x', {
      parent: parentValue(),
      timestampColumn: 'timestamp',
      timestampValue: '5',
      timestampUnit: 'minute',
      where: "level != 'debug'",
      'columns[0].name': 'level',
      'columns[0].aggregation': 'group',
      'columns[1].name': 'message',
      'columns[1].aggregation': 'count',
    })) as { sql: string }
    expect(built.sql).toBe(
      'SELECT toStartOfInterval(timestamp, INTERVAL 5 MINUTE) AS time_bucket, level, count() AS ' +
        "count_message\nFROM shop.events\nWHERE (level != 'debug')\nGROUP BY time_bucket, " +
        "level\nSETTINGS hdx_primary_key='time_bucket'",
    )

    const form = await newSummaryLoader(
      args(get(`/data/new-summary-table?parent=${parentValue()}&sql=${encodeURIComponent(built.sql)}`, cookie)),
    )
    expect(form.defaults).toEqual({ parent: parentValue(), project: parent.projectId, sql: built.sql, enabled: 'on' })

    const required = unwrap<FormReply>(
      await send(newSummaryAction, '/data/new-summary-table', { project: parent.projectId, name: 'by_level' }),
    )
    expect(required.data.result.error).toEqual({
      parent: ['Parent table is required'],
      sql: ['Summary SQL is required'],
    })

    const wrongParent = unwrap<FormReply>(
      await send(newSummaryAction, '/data/new-summary-table', {
        project: parent.projectId,
        name: 'by_level',
        parent: parentValue(),
        sql: 'SELECT 1 FROM shop.other',
      }),
    )
    expect(wrongParent.data.result.error).toEqual({
      sql: ['The summary SQL must read FROM the parent table shop.events'],
    })

    const refused = unwrap<FormReply>(
      await send(newSummaryAction, '/data/new-summary-table', {
        project: parent.projectId,
        name: 'by_level',
        parent: parentValue(),
        sql: 'SELECT nosuchcolumn FROM shop.events GROUP BY nosuchcolumn',
      }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.sql?.[0]).toMatch(/^The cluster refused the SQL: /)
    expect(refused.data.result.initialValue).toMatchObject({ name: 'by_level' })

    const created = asResponse(
      await send(newSummaryAction, '/data/new-summary-table', {
        project: parent.projectId,
        name: 'by_level',
        description: 'Per level',
        parent: parentValue(),
        sql: built.sql,
      }),
    )
    expect(created.status).toBe(302)
    const [, tableId] = created.headers.get('Location')!.match(/tables\/([\w-]+)\?/)!

    // The parent's page lists it; its own page has the Summary group.
    const parentPage = await detailLoader(
      args(get(`/data/tables/${parent.tableId}?project=${parent.projectId}`, cookie), { tableId: parent.tableId }),
    )
    expect(parentPage.related.summaries.value).toEqual([
      { uuid: tableId, name: 'shop.by_level', projectId: parent.projectId },
    ])
    const own = await detailLoader(
      args(get(`/data/tables/${tableId}?project=${parent.projectId}`, cookie), { tableId: tableId! }),
    )
    expect(own.settings.map((group) => group.key)).toContain('summary')

    // Summary Settings tab.
    const settingsUrl = `/data/tables/${tableId}/edit-summary-settings?project=${parent.projectId}`
    const settings = await editSettingsLoader(args(get(settingsUrl, cookie), { tableId: tableId! }))
    expect(settings).toMatchObject({
      sql: built.sql,
      enabled: true,
      parent: { value: parentValue(), label: 'shop.events' },
    })
    const analysis = await editAnalysisLoader(
      args(get(`/data/tables/${tableId}/edit-summary-settings/column-analysis?project=${parent.projectId}`, cookie), {
        tableId: tableId!,
      }),
    )
    expect(analysis.columns.map((column) => column.name)).toEqual(['timestamp', 'level', 'message'])

    const badSql = unwrap<FormReply>(
      await returnedOrThrown(() =>
        editSettingsAction(
          args(post(settingsUrl, { enabled: 'on', sql: 'SELECT nope FROM shop.events' }, cookie), {
            tableId: tableId!,
          }),
        ),
      ),
    )
    expect(badSql.data.result.error?.sql?.[0]).toMatch(/^The cluster refused the SQL: /)
    const newSql = 'SELECT toStartOfHour(timestamp) AS hour, count() AS n FROM shop.events GROUP BY hour'
    const saved = asResponse(
      await returnedOrThrown(() =>
        editSettingsAction(args(post(settingsUrl, { sql: newSql }, cookie), { tableId: tableId! })),
      ),
    )
    expect(saved.status).toBe(302)
    expect(await editSettingsLoader(args(get(settingsUrl, cookie), { tableId: tableId! }))).toMatchObject({
      sql: newSql,
      enabled: false,
    })
  })

  it('a turbine table has no summary settings: 404, never a 500', async () => {
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() =>
        editSettingsLoader(
          args(get(`/data/tables/${parent.tableId}/edit-summary-settings?project=${parent.projectId}`, cookie), {
            tableId: parent.tableId,
          }),
        ),
      ),
    )
    expect(thrown.status).toBe(404)
  })
})
