import { beforeAll, describe, expect, it } from 'vitest'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as detailAction, loader as detailLoader } from './tables.$tableId._index'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

async function createTableOk(name: string) {
  const response = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: `p_${name}`, name }, cookie)),
      ),
    ),
  )
  expect(response.status).toBe(302)
  const [, tableId, projectId] = response.headers
    .get('Location')!
    .match(/^\/data\/tables\/([\w-]+)\?project=([\w-]+)$/)!
  return { tableId: tableId!, projectId: projectId! }
}

const pageOf = (tableId: string, projectId: string, extra = '') =>
  `/data/tables/${tableId}?project=${projectId}${extra}`

async function load(tableId: string, projectId: string, extra = '') {
  return detailLoader(args(get(pageOf(tableId, projectId, extra), cookie), { tableId }))
}

async function send(tableId: string, projectId: string, form: Record<string, string>) {
  return returnedOrThrown(() => detailAction(args(post(pageOf(tableId, projectId), form, cookie), { tableId })))
}

function overview(data: Awaited<ReturnType<typeof load>>) {
  return Object.fromEntries(
    data.settings.flatMap((group) => group.entries.map((entry) => [`${group.key}/${entry.label}`, entry.value])),
  )
}

const FLUSH_OK = {
  hot_max_active_partitions: '4',
  hot_max_rows_per_partition: '1000',
  hot_max_minutes_per_partition: '2',
  hot_max_open_seconds: '61',
  hot_max_idle_seconds: '31',
  hot_max_age_minutes: '5',
  cold_max_active_partitions: '51',
  cold_max_rows_per_partition: '2000',
  cold_max_minutes_per_partition: '61',
  cold_max_open_seconds: '301',
  cold_max_idle_seconds: '62',
  cold_max_age_days: '100',
}

describe('/data/tables/$tableId settings forms (?edit=<group>)', () => {
  it('opens one group at a time with the current values, defaults as placeholders; an unknown group opens nothing', async () => {
    const { tableId, projectId } = await createTableOk('open_group')
    const data = await load(tableId, projectId, '&edit=flush')
    expect(data.settingsStep?.key).toBe('flush')
    expect(data.settingsStep?.values.hot_max_age_minutes).toBe('3')
    expect(data.settingsStep?.fields.find((field) => field.name === 'cold_max_age_days')).toMatchObject({
      required: true,
      placeholder: 'Default: 3650',
    })
    expect(data.settingsStep?.isBuiltInDefaults).toBe(false)
    expect((await load(tableId, projectId, '&edit=nope')).settingsStep).toBeNull()
    // A turbine table has no Summary group.
    expect((await load(tableId, projectId, '&edit=summary')).settingsStep).toBeNull()
    expect(data.settings.map((group) => group.key)).toEqual([
      'bucket',
      'lifecycle',
      'index',
      'merge',
      'flush',
      'stream',
      'query',
    ])
  })

  it('uses the spec built-in defaults when the defaults call fails', async () => {
    const { tableId, projectId } = await createTableOk('builtin_defaults')
    failWith('/config/v1/defaults/', 503, { detail: 'down' }, 'get')
    failWith('/config/v1/defaults', 503, { detail: 'down' }, 'get')
    const data = await load(tableId, projectId, '&edit=lifecycle')
    expect(data.settingsStep?.isBuiltInDefaults).toBe(true)
    expect(data.settingsStep?.fields.find((field) => field.name === 'reaper_max_age_days')?.placeholder).toBe(
      'Default: 1',
    )
  })

  it('flush: every field required, the messages at the fields, everything typed kept; then saves with a diff toast', async () => {
    const { tableId, projectId } = await createTableOk('flush_rules')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'flush',
        ...FLUSH_OK,
        hot_max_age_minutes: '',
        cold_max_idle_seconds: '1.5',
      }),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toEqual({
      hot_max_age_minutes: ['Hot: max age (minutes) is required'],
      cold_max_idle_seconds: ['Cold: max idle seconds must be an integer'],
    })
    expect(bad.data.result.initialValue).toMatchObject({
      cold_max_idle_seconds: '1.5',
      hot_max_rows_per_partition: '1000',
    })

    const saved = asResponse(await send(tableId, projectId, { intent: 'save-settings', group: 'flush', ...FLUSH_OK }))
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(`${pageOf(tableId, projectId)}#settings`)
    const after = overview(await load(tableId, projectId))
    expect(after['flush/Hot: max age (minutes)']).toBe('5')
    expect(after['flush/Cold: max rows per partition']).toBe('2000')
    // Other groups untouched.
    expect(after['stream/Max queue rows']).toBe('0')
  })

  it('lifecycle: empty fields take the defaults; a non-integer max age gets the spec message; cluster errors on the field', async () => {
    const { tableId, projectId } = await createTableOk('lifecycle')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'lifecycle', max_age_days: 'ten' }),
    )
    expect(bad.data.result.error).toEqual({ max_age_days: ['Max age must be an integer'] })

    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'lifecycle',
        max_age_days: '30',
        reaper_max_age_days: '',
        max_future_days: '2',
      }),
    )
    let after = overview(await load(tableId, projectId))
    expect(after['lifecycle/Max age (days)']).toBe('30')
    expect(after['lifecycle/Delay before permanent deletion (days)']).toBe('1')
    expect(after['lifecycle/Max future days']).toBe('2')

    // A negative number passes the form (an integer) and the cluster's 400 comes back at the field.
    const refused = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'lifecycle', max_age_days: '-1' }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.max_age_days?.[0]).toMatch(/greater than or equal to 0/)
    after = overview(await load(tableId, projectId))
    expect(after['lifecycle/Max age (days)']).toBe('30')
  })

  it('index: sort keys must be JSON; the shard key is read-only once set, and a sent one is ignored', async () => {
    const { tableId, projectId } = await createTableOk('index_rules')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'index', sort_keys: '[oops', shard_key: '   ' }),
    )
    expect(bad.data.result.error).toEqual({
      sort_keys: ['Sort keys must be JSON'],
      shard_key: ['Shard key must not be blank'],
    })
    // sort keys left blank are refused with the spec's message (`[]` says none); an empty shard key
    // is "not set" (a shard key cannot be changed once set, so the form never forces one)
    const blank = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'index', sort_keys: '', shard_key: '' }),
    )
    expect(blank.data.result.error).toEqual({ sort_keys: ['Sort keys must not be blank'] })

    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'index',
        sort_keys: '["host"]',
        shard_key: 'host',
      }),
    )
    const step = (await load(tableId, projectId, '&edit=index')).settingsStep!
    expect(step.values).toEqual({ sort_keys: '["host"]', shard_key: 'host' })
    expect(step.fields.find((field) => field.name === 'shard_key')?.lockedBecause).toBe(
      'The shard key cannot be changed once set.',
    )

    asResponse(
      await send(tableId, projectId, { intent: 'save-settings', group: 'index', sort_keys: '[]', shard_key: 'other' }),
    )
    const after = overview(await load(tableId, projectId))
    expect(after['index/Shard key']).toBe('host')
    expect(after['index/Sort keys (JSON)']).toBe('[]')
  })

  it('index: a table made elsewhere (no sort keys given) saves its index group unchanged, as it was', async () => {
    const { projectId } = await createTableOk('index_other_tool')
    const { clusterCall } = await import('#tests/cluster')
    const made = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'made_elsewhere',
      settings: { shard_key: null },
    })
    const path = `/config/v1/orgs/{org}/projects/${projectId}/tables/${made.uuid}/`
    const before = await clusterCall<{ settings: Record<string, unknown> }>('GET', path)
    const step = (await load(made.uuid, projectId, '&edit=index')).settingsStep!
    const form = Object.fromEntries(Object.entries(step.values).filter(([, value]) => value !== undefined))
    asResponse(await send(made.uuid, projectId, { intent: 'save-settings', group: 'index', ...form }))
    const after = await clusterCall<{ settings: Record<string, unknown> }>('GET', path)
    expect(after.settings.sort_keys).toEqual(before.settings.sort_keys)
    expect(after.settings.shard_key).toBeNull()
  })

  it('merge: disable, memory coefficient positive, pools', async () => {
    const { tableId, projectId } = await createTableOk('merge_rules')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'merge', memory_coefficient: '-2' }),
    )
    expect(bad.data.result.error).toEqual({ memory_coefficient: ['Memory coefficient must be a positive number'] })
    // zero is not positive (the spec's rule; it was accepted before)
    const zero = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'merge', memory_coefficient: '0' }),
    )
    expect(zero.data.result.error).toEqual({ memory_coefficient: ['Memory coefficient must be a positive number'] })
    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'merge',
        disable: 'on',
        memory_coefficient: '0.5',
        pool_small: 'merge-s',
      }),
    )
    const after = overview(await load(tableId, projectId))
    expect(after['merge/Disable merge']).toBe('Yes')
    expect(after['merge/Memory coefficient']).toBe('0.5')
    expect(after['merge/Small pool']).toBe('merge-s')
  })

  it('stream: token list one per line (counted, never listed on the page), max queue rows required', async () => {
    const { tableId, projectId } = await createTableOk('stream_rules')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'stream', token_list: 'a' }),
    )
    expect(bad.data.result.error).toEqual({ message_queue_max_rows: ['Max queue rows is required'] })
    const saved = asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'stream',
        token_auth_enabled: 'on',
        token_list: 'tok1\ntok2\n',
        message_queue_max_rows: '500',
      }),
    )
    expect(saved.status).toBe(302)
    const data = await load(tableId, projectId)
    const after = overview(data)
    expect(after['stream/Tokens']).toBe('2 tokens')
    expect(after['stream/Token authentication enabled']).toBe('Yes')
    expect(JSON.stringify(data.settings)).not.toContain('tok1')
  })

  it('query options: an empty field unsets the option; a cluster error lands on its field', async () => {
    const { tableId, projectId } = await createTableOk('query_opts')
    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'query',
        hdx_query_max_rows: '100',
        hdx_query_debug: 'on',
      }),
    )
    let after = overview(await load(tableId, projectId))
    expect(after['query/Max rows']).toBe('100')
    expect(after['query/Debug']).toBe('Yes')
    asResponse(await send(tableId, projectId, { intent: 'save-settings', group: 'query', hdx_query_max_rows: '' }))
    after = overview(await load(tableId, projectId))
    expect(after['query/Max rows']).toBeUndefined()
    const refused = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'query', hdx_query_max_result_bytes: '5' }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.hdx_query_max_result_bytes?.[0]).toBeTruthy()
  })

  it('bucket settings: column name and default storage ID required; a storage that does not exist comes back at its field', async () => {
    const { tableId, projectId } = await createTableOk('bucket_rules')
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'bucket', column_value_mapping: '{"x": 1}' }),
    )
    expect(bad.data.result.error).toEqual({
      column_name: ['Column name is required'],
      default_storage_id: ['Default storage ID is required'],
      column_value_mapping: ['Value lists must map each storage ID to a list of values'],
    })
    const refused = unwrap<FormReply>(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'bucket',
        column_name: 'region',
        default_storage_id: '00000000-0000-4000-8000-000000000000',
      }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.default_storage_id?.[0]).toMatch(/does not exist/)
    expect(refused.data.result.initialValue).toMatchObject({ column_name: 'region' })
  })

  it('rename: the name rules, a taken name at the field, then the new name', async () => {
    const { tableId, projectId } = await createTableOk('rename_me')
    expect((await load(tableId, projectId, '&edit=rename')).isRenaming).toBe(true)
    const bad = unwrap<FormReply>(await send(tableId, projectId, { intent: 'rename-table', name: '' }))
    expect(bad.data.result.error).toEqual({ name: ['Name is required'] })
    const saved = asResponse(
      await send(tableId, projectId, { intent: 'rename-table', name: 'renamed_table', description: 'now described' }),
    )
    expect(saved.status).toBe(302)
    const data = await load(tableId, projectId)
    expect(data.table).toMatchObject({ name: 'renamed_table', description: 'now described' })
  })

  it('truncate: FORCE required, then the rows go and the table stays', async () => {
    const { tableId, projectId } = await createTableOk('truncate_me')
    expect((await load(tableId, projectId, `&truncate=${tableId}`)).isConfirmingTruncate).toBe(true)
    const bad = unwrap<{ truncateResult: { error?: Record<string, string[]> } }>(
      await send(tableId, projectId, { intent: 'truncate-table', confirm: 'force' }),
    )
    expect(bad.status).toBe(400)
    expect(bad.data.truncateResult.error).toEqual({ confirm: ['Type FORCE to confirm'] })
    const done = asResponse(await send(tableId, projectId, { intent: 'truncate-table', confirm: 'FORCE' }))
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe(pageOf(tableId, projectId))
    expect((await load(tableId, projectId)).table.uuid).toBe(tableId)
  })

  it('lifecycle: a max age that removes stored rows says what goes and needs "Remove the older data"', async () => {
    const { tableId, projectId } = await createTableOk('drop_preview')
    failWith(
      '/config/v1/orgs/:org/projects/:project/tables/:table/stats',
      200,
      {
        total_rows: 1234,
        compressed_data_size: 2048,
        oldest_timestamp: '2020-01-01T00:00:00Z',
      },
      'get',
    )
    const warned = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'lifecycle', max_age_days: '7' }),
    )
    expect(warned.status).toBe(400)
    expect(warned.data.result.error?.['']?.[0]).toMatch(
      new RegExp(
        /^A max age of 7 days removes every row older than \d{4}-\d{2}-\d{2}; /.source +
          /the oldest row is from 2020-01-01\. The table holds 1,234 rows \(2(\.0)? KB stored\)\./.source,
      ),
    )
    expect(warned.data.result.initialValue).toMatchObject({ max_age_days: '7' })
    expect(overview(await load(tableId, projectId))['lifecycle/Max age (days)']).toBe('0')

    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'lifecycle',
        max_age_days: '7',
        confirmDrop: 'on',
      }),
    )
    expect(overview(await load(tableId, projectId))['lifecycle/Max age (days)']).toBe('7')
  })

  it('summary group: the SQL is run on the cluster before it is saved', async () => {
    const { tableId: parentId, projectId } = await createTableOk('summary_parent')
    const parentPage = await load(parentId, projectId)
    const { clusterCall } = await import('#tests/cluster')
    const summary = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${projectId}/tables/`, {
      name: 'summary_child',
      type: 'summary',
      settings: { summary: { sql: `SELECT count() AS n FROM p_summary_parent.${parentPage.table.name}` } },
    })
    expect((await load(summary.uuid, projectId, '&edit=summary')).settingsStep?.values.summary_sql).toMatch(
      /^SELECT count/,
    )
    const refused = unwrap<FormReply>(
      await send(summary.uuid, projectId, {
        intent: 'save-settings',
        group: 'summary',
        summary_enabled: 'on',
        summary_sql: 'SELECT nope FROM p_summary_parent.summary_parent',
      }),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.summary_sql?.[0]).toMatch(/^The cluster refused the SQL: /)
  })

  it('a group edited as JSON: the same rules (named by their keys), the same save', async () => {
    const { tableId, projectId } = await createTableOk('as_json')
    const step = (await load(tableId, projectId, '&edit=flush&as=json')).settingsStep!
    expect(step.asJson).toBe(true)
    const current = JSON.parse(step.json) as { stream: Record<string, number> }
    expect(current.stream.hot_data_max_age_minutes).toBe(3)
    expect(current.stream.message_queue_max_rows).toBeUndefined()

    const notJson = unwrap<FormReply>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'flush', format: 'json', json: '{oops' }),
    )
    expect(notJson.data.result.error).toEqual({ json: ['Settings are not valid JSON: it breaks at line 1, column 2'] })
    expect(notJson.data.result.initialValue).toMatchObject({ json: '{oops' })

    const broken = { stream: { ...current.stream, hot_data_max_age_minutes: 1.5 } }
    delete (broken.stream as Partial<Record<string, number>>).cold_data_max_idle_seconds
    const bad = unwrap<FormReply>(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'flush',
        format: 'json',
        json: JSON.stringify(broken),
      }),
    )
    expect(bad.data.result.error?.json).toEqual([
      'stream.hot_data_max_age_minutes: Hot: max age (minutes) must be an integer',
      'stream.cold_data_max_idle_seconds: Cold: max idle seconds is required',
    ])

    const good = { stream: { ...current.stream, hot_data_max_age_minutes: 9 } }
    asResponse(
      await send(tableId, projectId, {
        intent: 'save-settings',
        group: 'flush',
        format: 'json',
        json: JSON.stringify(good),
      }),
    )
    expect(overview(await load(tableId, projectId))['flush/Hot: max age (minutes)']).toBe('9')
  })

  it('an unknown group is a 400, never a 500', async () => {
    const { tableId, projectId } = await createTableOk('unknown_group')
    const thrown = unwrap<{ message: string }>(
      await send(tableId, projectId, { intent: 'save-settings', group: 'nope' }),
    )
    expect(thrown.status).toBe(400)
  })
})
