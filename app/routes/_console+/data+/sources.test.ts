import { beforeAll, describe, expect, it } from 'vitest'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as newTransformAction } from './new-transform'
import { action as newAction, loader as newLoader } from './new-ingest-source'
import { action as editAction, loader as editLoader } from './tables.$tableId.source.edit.$type.$sourceId'
import { loader as tableLoader } from './tables.$tableId._index'

useTestCluster()

type Reply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

/** A table with one transform (`logs_json`); returns its ids. */
async function tableWithTransform(name: string) {
  const response = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: `p_${name}`, name }, cookie)),
      ),
    ),
  )
  const [, tableId, projectId] = response.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)!
  const table = `${projectId}/${tableId}`
  const made = asResponse(
    await returnedOrThrown(() =>
      newTransformAction(
        args(
          post(
            '/data/new-transform',
            {
              table,
              name: 'logs_json',
              type: 'json',
              'columns[0].name': 'timestamp',
              'columns[0].type': 'datetime',
              'columns[0].format': '2006-01-02T15:04:05Z',
              'columns[0].primary': 'on',
              compression: 'none',
            },
            cookie,
          ),
        ),
      ),
    ),
  )
  expect(made.status).toBe(302)
  return { tableId: tableId!, projectId: projectId!, table }
}

/** The pull-source page's data (not an auto batch's). */
function sourcePage<T extends { mode: string }>(loaded: T): Extract<T, { mode: 'source' }> {
  if (loaded.mode !== 'source') throw new Error(`Expected a source page, got ${loaded.mode}`)
  return loaded as Extract<T, { mode: 'source' }>
}

const scale = { replicasMin: '1', replicasMax: '3', cpu: '0.5', memory: '2', storage: '10' }
const create = (type: string, form: Record<string, string>) =>
  returnedOrThrown(() => newAction(args(post(`/data/new-ingest-source?type=${type}`, form, cookie))))

describe('/data/new-ingest-source', () => {
  it('takes the table from the table page link and lists its transforms', async () => {
    const { tableId, projectId, table } = await tableWithTransform('src_pick')
    const loaded = await newLoader(
      args(get(`/data/new-ingest-source?project=${projectId}&table=${tableId}&type=kafka`, cookie)),
    )
    expect(loaded.table?.value).toBe(table)
    expect(loaded.kind).toBe('kafka')
    expect(loaded.transforms).toEqual(['logs_json'])
    expect(loaded.defaultValue.transform).toBe('logs_json')
    const bare = await newLoader(args(get('/data/new-ingest-source?type=nope', cookie)))
    expect(bare.table).toBeNull()
    expect(bare.kind).toBeNull()
  })

  it('answers the spec rules of each kind and of scale at their fields', async () => {
    const { table } = await tableWithTransform('src_rules')
    const kafka = unwrap<Reply>(
      await create('kafka', {
        table,
        name: 'x'.repeat(28),
        transform: '',
        replicasMin: '3',
        replicasMax: '2',
        cpu: '0',
        memory: '',
        storage: '-1',
      }),
    )
    expect(kafka.status).toBe(400)
    expect(kafka.data.result.error).toMatchObject({
      name: ['Name must be at most 27 symbols'],
      transform: ['Transform is required'],
      replicasMin: ['Min replicas must be below max'],
      cpu: ['CPU must be greater than 0'],
      memory: ['Memory is required'],
      storage: ['Storage must be greater than 0'],
      bootstrapServers: ['Bootstrap servers are required'],
      topics: ['Topics are required'],
    })
    expect(kafka.data.result.initialValue).toMatchObject({ name: 'x'.repeat(28), replicasMin: '3' })

    const kinesis = unwrap<Reply>(
      await create('kinesis', { table, name: 'k', transform: 'logs_json', ...scale, accessKeyId: 'AKIA' }),
    )
    expect(kinesis.data.result.error).toMatchObject({
      streamName: ['Stream name is required'],
      region: ['Region is required'],
      checkpointer: ['Checkpointer is required'],
      secretAccessKey: ['Cloud secret is required when the access key is filled'],
    })
    const secretOnly = unwrap<Reply>(
      await create('kinesis', {
        table,
        name: 'k',
        transform: 'logs_json',
        ...scale,
        streamName: 's',
        region: 'r',
        checkpointer: 'c',
        secretAccessKey: 'shh',
      }),
    )
    expect(secretOnly.data.result.error).toEqual({
      accessKeyId: ['Cloud access key is required when the secret is filled'],
    })
    // the secret typed is not sent back to the page
    expect(secretOnly.data.result.initialValue?.secretAccessKey).toBeUndefined()

    const siem = unwrap<Reply>(await create('siem', { table, name: 's', transform: 'logs_json', ...scale }))
    expect(siem.data.result.error).toMatchObject({
      host: ['Host is required'],
      configId: ['Configuration ID is required'],
      clientSecret: ['Client secret is required'],
      clientToken: ['Client token is required'],
      accessToken: ['Access token is required'],
    })
  })

  it("puts the cluster's errors on the fields (a bad host:port)", async () => {
    const { table } = await tableWithTransform('src_cluster')
    const { data, status } = unwrap<Reply>(
      await create('kafka', {
        table,
        name: 'kf',
        transform: 'logs_json',
        ...scale,
        bootstrapServers: 'no-port',
        topics: 't',
      }),
    )
    expect(status).toBe(400)
    expect(data.result.error?.bootstrapServers?.[0]).toMatch(/host:port/)
    failWith(
      '/config/v1/orgs/:org/projects/:project/tables/:table/sources/kafka/',
      400,
      { k8s_deployment: { memory: ['Too big.'] } },
      'post',
    )
    const mapped = unwrap<Reply>(
      await create('kafka', {
        table,
        name: 'kf',
        transform: 'logs_json',
        ...scale,
        bootstrapServers: 'b:9092',
        topics: 't',
      }),
    )
    expect(mapped.data.result.error?.memory).toEqual(['Too big.'])
  })

  it('creates a kafka source with its pool; the table lists it; its page shows the pool; edit scales it; delete removes it', async () => {
    const { table, tableId, projectId } = await tableWithTransform('src_kafka')
    const created = asResponse(
      await create('kafka', {
        table,
        name: 'orders_kafka',
        transform: 'logs_json',
        ...scale,
        bootstrapServers: 'k1:9092, k2:9092',
        topics: 'orders',
        readTimeout: '5',
        maxWait: '250',
        offset: 'earliest',
      }),
    )
    expect(created.status).toBe(302)
    const [, sourceId] = created.headers.get('Location')!.match(/source\/edit\/kafka\/([\w-]+)\?project=/)!
    const detail = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(detail.sources.value).toEqual([
      { uuid: sourceId, name: 'orders_kafka', kind: 'kafka', transform: 'logs_json', pool: 'orders_kafka' },
    ])

    const params = { tableId, type: 'kafka', sourceId: sourceId! }
    const page = sourcePage(
      await editLoader(
        args(get(`/data/tables/${tableId}/source/edit/kafka/${sourceId}?project=${projectId}`, cookie), params),
      ),
    )
    expect(page.pool).toMatchObject({
      name: 'orders_kafka',
      replicasMin: '1',
      replicasMax: '3',
      cpu: '0.5',
      memory: '2',
      storage: '10',
    })
    expect(page.defaultValue).toMatchObject({
      name: 'orders_kafka',
      bootstrapServers: 'k1:9092, k2:9092',
      topics: 'orders',
      readTimeout: '5',
      maxWait: '250',
      offset: 'earliest',
    })

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/source/edit/kafka/${sourceId}`,
              {
                table,
                name: 'orders_kafka',
                transform: 'logs_json',
                ...scale,
                replicasMax: '',
                cpu: '2',
                bootstrapServers: 'k1:9092',
                topics: 'orders, refunds',
              },
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const after = sourcePage(
      await editLoader(
        args(get(`/data/tables/${tableId}/source/edit/kafka/${sourceId}?project=${projectId}`, cookie), params),
      ),
    )
    expect(after.pool).toMatchObject({ replicasMin: '1', replicasMax: '', cpu: '2' })
    expect(after.defaultValue.topics).toBe('orders, refunds')

    const deleted = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/source/edit/kafka/${sourceId}`,
              { intent: 'delete-source', project: projectId },
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(deleted.status).toBe(302)
    const gone = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(gone.sources.value).toEqual([])
  })

  it('never sends a stored secret to the browser, and a blank secret on edit keeps it', async () => {
    const { table, tableId, projectId } = await tableWithTransform('src_siem')
    const created = asResponse(
      await create('siem', {
        table,
        name: 'feed',
        transform: 'logs_json',
        ...scale,
        host: 'akab.example.net',
        configId: '1234',
        clientSecret: 'cs-secret',
        clientToken: 'ct-secret',
        accessToken: 'at-secret',
      }),
    )
    const [, sourceId] = created.headers.get('Location')!.match(/source\/edit\/siem\/([\w-]+)\?project=/)!
    const params = { tableId, type: 'siem', sourceId: sourceId! }
    const page = await editLoader(
      args(get(`/data/tables/${tableId}/source/edit/siem/${sourceId}?project=${projectId}`, cookie), params),
    )
    expect(JSON.stringify(page)).not.toMatch(/cs-secret|ct-secret|at-secret/)
    expect(page.defaultValue).toMatchObject({ host: 'akab.example.net', configId: '1234' })

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/source/edit/siem/${sourceId}`,
              { table, name: 'feed', transform: 'logs_json', ...scale, host: 'akab2.example.net', configId: '1234' },
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const { getSource } = await import('~/api/sources.server')
    const { createClusterApi } = await import('~/api/client.server')
    const { requireSession } = await import('~/utils/session.server')
    const session = await requireSession(get('/', cookie))
    const stored = await getSource(createClusterApi(session), projectId, tableId, 'siem', sourceId!)
    expect(stored.settings).toMatchObject({
      access_details: {
        host: 'akab2.example.net',
        client_secret: 'cs-secret',
        client_token: 'ct-secret',
        access_token: 'at-secret',
      },
    })
  })

  it('auto batch: the queue needs its address; stored in the table settings, listed, edited and deleted', async () => {
    const { table, tableId, projectId } = await tableWithTransform('src_batch')
    const bad = unwrap<Reply>(await create('autobatch', { table, queue: 'new-files', pattern: '([', maxRows: '0' }))
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toEqual({
      queue: ['Queue name must be prefixed with its address, e.g. https://sqs.us-east-1.amazonaws.com/123456789012/'],
      pattern: ['Regex filter must be a valid regular expression'],
      maxRows: ['Must be a whole number greater than 0'],
    })
    const empty = unwrap<Reply>(await create('autobatch', { table }))
    expect(empty.data.result.error?.queue).toEqual(['Queue name is required'])

    const queue = 'https://sqs.us-east-1.amazonaws.com/123456789012/new-files'
    const created = asResponse(
      await create('autobatch', {
        table,
        queue,
        region: 'us-east-1',
        pattern: '.*\\.gz$',
        dryRun: 'on',
        maxRows: '1000',
      }),
    )
    expect(created.headers.get('Location')).toBe(`/data/tables/${tableId}/source/edit/autobatch/0?project=${projectId}`)
    const detail = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(detail.sources.value).toContainEqual({
      uuid: '0',
      name: queue,
      kind: 'autobatch',
      transform: 'default transform',
      pool: '',
    })

    const params = { tableId, type: 'autobatch', sourceId: '0' }
    const page = await editLoader(
      args(get(`/data/tables/${tableId}/source/edit/autobatch/0?project=${projectId}`, cookie), params),
    )
    if (page.mode !== 'autobatch') throw new Error('expected the auto batch page')
    expect(page.state).toBe('Enabled (dry run: nothing is stored)')
    expect(page.defaultValue).toMatchObject({
      queue,
      region: 'us-east-1',
      pattern: '.*\\.gz$',
      dryRun: 'on',
      maxRows: '1000',
    })

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(`/data/tables/${tableId}/source/edit/autobatch/0`, { table, queue, maxRows: '2000' }, cookie),
            params,
          ),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const again = await editLoader(
      args(get(`/data/tables/${tableId}/source/edit/autobatch/0?project=${projectId}`, cookie), params),
    )
    if (again.mode !== 'autobatch') throw new Error('expected the auto batch page')
    expect(again.state).toBe('Enabled')
    expect(again.defaultValue).toMatchObject({ maxRows: '2000', pattern: '' })

    const deleted = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/source/edit/autobatch/0`,
              { intent: 'delete-source', project: projectId },
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(deleted.status).toBe(302)
    const gone = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(gone.sources.value).toEqual([])
    const missing = await returnedOrThrown(() =>
      editLoader(args(get(`/data/tables/${tableId}/source/edit/autobatch/0?project=${projectId}`, cookie), params)),
    )
    expect(unwrap<unknown>(missing).status).toBe(404)
  })
})
