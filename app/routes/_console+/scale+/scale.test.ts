import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { POOL_MESSAGES } from '~/schemas/pool'
import { formatSize, rangeText } from './__pool-list'
import { loader as ingestLoader } from './_index'
import { loader as coreLoader } from './core'
import { action as poolAction, loader as poolLoader } from './pool.$poolId'
import { action as createAction, loader as createLoader } from './pool.create'
import { loader as searchLoader } from './search'

useTestCluster()

type FormReply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  await makeTable('weblogs', 'access')
  await makeTable('weblogs', 'errors')
})

const create = (form: Record<string, string>) =>
  returnedOrThrown(() => createAction(args(post('/scale/pool/create', form, cookie))))

/** Creates a pool through the form and returns its id from the redirect. */
async function createOk(form: Record<string, string>) {
  const response = asResponse(await create(form))
  expect(response.status, JSON.stringify(response)).toBe(302)
  const [, poolId] = response.headers.get('Location')!.match(/^\/scale\/pool\/([\w-]{36})$/)!
  return { poolId: poolId!, response }
}

/** The form values a page starts with, as a browser would send them (empty ones left out). */
const typedValues = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string' && value !== '')) as Record<
    string,
    string
  >

const detail = (poolId: string, query = '') =>
  poolLoader(args(get(`/scale/pool/${poolId}${query}`, cookie), { poolId }))
const submit = (poolId: string, form: Record<string, string>) =>
  returnedOrThrown(() => poolAction(args(post(`/scale/pool/${poolId}`, form, cookie), { poolId })))

describe('/scale/pool/create', () => {
  it('needs a session: without one it redirects to login with prevUrl', async () => {
    const thrown = await responseFrom(() => createLoader(args(get('/scale/pool/create?type=core'))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fscale%2Fpool%2Fcreate%3Ftype%3Dcore')
  })

  it('preselects the type from ?type= (ingest otherwise) and offers every table with its transforms', async () => {
    const core = await createLoader(args(get('/scale/pool/create?type=core', cookie)))
    expect(core).toMatchObject({ type: 'core', service: '' })
    expect(await createLoader(args(get('/scale/pool/create?type=search', cookie)))).toMatchObject({
      type: 'search',
      service: 'query-peer',
    })
    expect((await createLoader(args(get('/scale/pool/create?type=nonsense', cookie)))).type).toBe('ingest')
    expect(core.tables).toEqual([
      {
        value: 'weblogs.access',
        transforms: [{ value: 'weblogs.access:access_json', name: 'access_json', type: 'json', isDefault: true }],
      },
      {
        value: 'weblogs.errors',
        transforms: [{ value: 'weblogs.errors:errors_json', name: 'errors_json', type: 'json', isDefault: true }],
      },
    ])
    expect(core.defaults).toEqual({ replicas: '1', cpu: '0.5', memory: '0.5Gi', storage: '0.5Gi' })
  })

  it('answers the spec messages at their fields with status 400 and keeps what was typed', async () => {
    const empty = unwrap<FormReply>(await create({}))
    expect(empty.status).toBe(400)
    expect(empty.data.result.error).toMatchObject({
      type: [POOL_MESSAGES.typeRequired],
      service: [POOL_MESSAGES.serviceRequired],
      name: [POOL_MESSAGES.nameRequired],
    })

    const ingest = unwrap<FormReply>(await create({ type: 'ingest', service: 'intake-head', name: 'x'.repeat(64) }))
    expect(ingest.data.result.error).toEqual({
      name: [POOL_MESSAGES.nameTooLong],
      table: [POOL_MESSAGES.tableRequired],
      transform: [POOL_MESSAGES.transformRequired],
    })

    const typed = {
      type: 'search',
      service: 'merge-peer',
      name: 'Bad_Name',
      minReplicas: '5',
      maxReplicas: '2',
      cpu: '0',
      memory: '2',
      storage: '0Gi',
      shards: '0',
      description: 'kept',
    }
    const bad = unwrap<FormReply>(await create(typed))
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toEqual({
      service: [POOL_MESSAGES.serviceOfType],
      name: [POOL_MESSAGES.nameCharacters],
      minReplicas: [POOL_MESSAGES.minBelowMax],
      cpu: [POOL_MESSAGES.cpuPositive],
      memory: [POOL_MESSAGES.memoryPositive],
      storage: [POOL_MESSAGES.storagePositive],
      shards: [POOL_MESSAGES.shardsWhole],
    })
    expect(bad.data.result.initialValue).toMatchObject(typed)
  })

  it('needs min and max replicas together, and a fixed count only without them', async () => {
    const base = { type: 'search', service: 'query-peer', name: 'rules-pool' }
    expect(unwrap<FormReply>(await create({ ...base, minReplicas: '1' })).data.result.error).toEqual({
      maxReplicas: [POOL_MESSAGES.maxRequired],
    })
    expect(unwrap<FormReply>(await create({ ...base, maxReplicas: '4' })).data.result.error).toEqual({
      minReplicas: [POOL_MESSAGES.minRequired],
    })
    expect(unwrap<FormReply>(await create({ ...base, minReplicas: '3', maxReplicas: '3' })).data.result.error).toEqual({
      minReplicas: [POOL_MESSAGES.minBelowMax],
    })
    expect(
      unwrap<FormReply>(await create({ ...base, replicas: '2', minReplicas: '1', maxReplicas: '3' })).data.result.error,
    ).toEqual({
      replicas: [POOL_MESSAGES.fixedOrRange],
    })
    expect(unwrap<FormReply>(await create({ ...base, replicas: '1.5' })).data.result.error).toEqual({
      replicas: [POOL_MESSAGES.replicasWhole],
    })
  })

  it('refuses a transform of another table, and a table that is not there', async () => {
    const base = { type: 'ingest', service: 'kafka-peer', name: 'mixed-up' }
    const other = unwrap<FormReply>(
      await create({ ...base, table: 'weblogs.access', transform: 'weblogs.errors:errors_json' }),
    )
    expect(other.data.result.error).toEqual({ transform: [POOL_MESSAGES.transformOfTable] })
    const gone = unwrap<FormReply>(
      await create({ ...base, table: 'weblogs.gone', transform: 'weblogs.gone:gone_json' }),
    )
    expect(gone.status).toBe(400)
    expect(gone.data.result.error).toEqual({ table: ['Table weblogs.gone does not exist'] })
  })

  it('creates a search pool with a replica range and redirects to it with a toast', async () => {
    const { poolId, response } = await createOk({
      type: 'search',
      service: 'query-peer',
      name: 'query-pool',
      minReplicas: '2',
      maxReplicas: '6',
      cpu: '2',
      memory: '8Gi',
      storage: '10Gi',
      isDefault: 'on',
      description: 'Dashboards',
    })
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    const stored = await clusterCall('GET', `/config/v1/pools/${poolId}`)
    expect(stored).toMatchObject({
      name: 'query-pool',
      type: 'search',
      description: 'Dashboards',
      settings: {
        is_default: true,
        k8s_deployment: { service: 'query-peer', replicas: '2-6', cpu: '2', memory: '8Gi', storage: '10Gi' },
      },
    })
    const page = await detail(poolId)
    expect(page.pool).toMatchObject({
      name: 'query-pool',
      kind: 'search',
      service: 'query-peer',
      isDefault: true,
      replicas: { min: 2, max: 6 },
      ingestPath: null,
    })
    expect(page.totals.cpu).toEqual({ min: 4, max: 12 })
    expect(page.editValues).toMatchObject({
      minReplicas: '2',
      maxReplicas: '6',
      replicas: undefined,
      cpu: '2',
      memory: '8Gi',
      isDefault: true,
    })
    expect(page.isConfirmingDelete).toBe(false)
  })

  it('creates an ingest pool writing into a table through its transform; sizes left empty take the defaults', async () => {
    const { poolId } = await createOk({
      type: 'ingest',
      service: 'intake-head',
      name: 'access-intake',
      table: 'weblogs.access',
      transform: 'weblogs.access:access_json',
    })
    const stored = await clusterCall('GET', `/config/v1/pools/${poolId}`)
    expect(stored).toMatchObject({
      type: 'ingest',
      settings: {
        table: 'weblogs.access',
        transform: 'access_json',
        is_default: false,
        k8s_deployment: { service: 'intake-head', replicas: '1', cpu: '0.5', memory: '0.5Gi' },
      },
    })
    const page = await detail(poolId)
    expect(page.pool).toMatchObject({
      kind: 'ingest',
      table: 'weblogs.access',
      transform: 'access_json',
      ingestPath: '/pool/access-intake/ingest/event',
    })
  })

  it("puts the cluster's field errors on the form's fields: a taken name lands on Name", async () => {
    await createOk({ type: 'core', service: 'merge-peer', name: 'merge-small' })
    const taken = unwrap<FormReply>(
      await create({ type: 'core', service: 'merge-peer', name: 'merge-small', cpu: '3' }),
    )
    expect(taken.status).toBe(400)
    expect(taken.data.result.error?.name?.[0]).toMatch(/already exists/)
    expect(taken.data.result.initialValue).toMatchObject({ name: 'merge-small', cpu: '3' })

    failWith(
      '/config/v1/pools/',
      400,
      { settings: { k8s_deployment: { replicas: ['Too many.'], memory: ['No room.'] }, other: ['Odd.'] } },
      'post',
    )
    const nested = unwrap<FormReply>(
      await create({
        type: 'core',
        service: 'reaper',
        name: 'reaper-pool',
        minReplicas: '1',
        maxReplicas: '90',
        memory: '1Ti',
      }),
    )
    expect(nested.data.result.error).toEqual({
      minReplicas: ['Too many.'],
      memory: ['No room.'],
      '': ['settings.other: Odd.'],
    })
  })

  it('answers other cluster failures with the form as typed and the catalogue message as its error (issue 37)', async () => {
    failWith('/config/v1/pools/', 503, undefined, 'post')
    const reply = unwrap<{ result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }>(
      await create({ type: 'core', service: 'decay', name: 'decay-pool' }),
    )
    expect(reply.status).toBe(503)
    expect(reply.data.result.error?.['']?.[0]).toMatch(/Service Unavailable/)
    expect(reply.data.result.initialValue).toMatchObject({ name: 'decay-pool' })
  })
})

describe('the Scale tabs', () => {
  it('list each kind with its pools and totals; a pool with no type goes by its service', async () => {
    await clusterCall('POST', '/config/v1/pools/', {
      name: 'untyped-merge',
      settings: { k8s_deployment: { service: 'merge-peer', replicas: '3', cpu: '1', memory: '1Gi', storage: '1Gi' } },
    })
    // Besides the pools made here, the install's own (cluster/config/install.ts): query-peer (1 × 2 cores,
    // 8Gi), merge-peer, merge-peer-ii and merge-peer-iii (1, 1 and 2 cores) and intake-head (no table).
    const search = await searchLoader(args(get('/scale/search', cookie)))
    expect(search.rows.map((row) => row.name)).toEqual(['query-peer', 'query-pool'])
    // query-pool: 2 to 6 × 2 cores and 8Gi; query-peer: 1 × 2 cores and 8Gi.
    expect(search.totals).toMatchObject({
      pools: 2,
      replicas: { min: 3, max: 7 },
      cpu: { min: 6, max: 14 },
      memory: { min: 24 * 2 ** 30, max: 56 * 2 ** 30 },
    })
    expect(search.rows.find((row) => row.name === 'query-pool')!.cpuShare).toBeCloseTo(12 / 14)
    expect(search.rows.find((row) => row.name === 'query-peer')!.cpuShare).toBeCloseTo(2 / 14)

    const core = await coreLoader(args(get('/scale/core', cookie)))
    expect(core.rows.map((row) => row.name)).toEqual([
      'merge-peer',
      'merge-peer-ii',
      'merge-peer-iii',
      'merge-small',
      'untyped-merge',
    ])
    // merge-peer, -ii, -iii: 1 + 1 + 2 cores; merge-small: 1 × 0.5 cores; untyped-merge: 3 × 1 core.
    expect(core.totals.cpu).toEqual({ min: 7.5, max: 7.5 })
    expect(core.rows.find((row) => row.name === 'untyped-merge')!.cpuShare).toBeCloseTo(3 / 7.5)

    const ingest = await ingestLoader(args(get('/scale', cookie)))
    expect(ingest.rows).toMatchObject([
      { name: 'access-intake', service: 'intake-head', table: 'weblogs.access', transform: 'access_json' },
      { name: 'intake-head', service: 'intake-head', table: '', isDefault: true },
    ])
    expect(search.tables).toBeNull()
  })

  it('the ingest tab lists every table with the pools that write into it, tables with pools first', async () => {
    const ingest = await ingestLoader(args(get('/scale', cookie)))
    expect(ingest.tables?.error).toBeNull()
    expect(ingest.tables?.value).toMatchObject([
      {
        name: 'weblogs.access',
        pools: [{ name: 'access-intake', service: 'intake-head' }],
        replicas: { min: 1, max: 1 },
        cpu: { min: 0.5, max: 0.5 },
      },
      { name: 'weblogs.errors', pools: [], replicas: { min: 0, max: 0 } },
    ])
    // "add a pool" on a table without one opens the form with the table and its default transform picked.
    const form = await createLoader(args(get('/scale/pool/create?type=ingest&table=weblogs.errors', cookie)))
    expect(form).toMatchObject({ type: 'ingest', table: 'weblogs.errors', transform: 'weblogs.errors:errors_json' })
    expect(await createLoader(args(get('/scale/pool/create?table=nope.nope', cookie)))).toMatchObject({
      table: '',
      transform: '',
    })

    // The tables are a bonus: when they cannot be read, the pools still show.
    failWith('/config/v1/orgs/:org/projects/', 500, { detail: 'boom' }, 'get')
    const degraded = await ingestLoader(args(get('/scale', cookie)))
    expect(degraded.rows.map((row) => row.name)).toEqual(['access-intake', 'intake-head'])
    expect(degraded.tables?.error).toMatch(/^Internal server error/)
  })

  it('filters by name, service or table in the URL', async () => {
    const byService = await coreLoader(args(get('/scale/core?q=MERGE-PEER', cookie)))
    expect(byService.total).toBe(5) // the install's three merge pools, merge-small and untyped-merge
    const byName = await coreLoader(args(get('/scale/core?q=untyped', cookie)))
    expect(byName.rows.map((row) => row.name)).toEqual(['untyped-merge'])
    expect(byName.totals.pools).toBe(5) // the totals are the kind's, not the filter's
    const byTable = await ingestLoader(args(get('/scale?q=weblogs.access', cookie)))
    expect(byTable.total).toBe(1)
    const none = await ingestLoader(args(get('/scale?q=nothing-here', cookie)))
    expect(none).toMatchObject({ rows: [], total: 0 })
  })

  it('ends the session on a 401 from the cluster', async () => {
    failWith('/config/v1/pools/', 401, { detail: 'Token expired.' }, 'get')
    const thrown = await responseFrom(() => searchLoader(args(get('/scale/search', cookie))))
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fscale%2Fsearch')
  })
})

describe('/scale/pool/$poolId', () => {
  it('saves new sizes: a range becomes a fixed count, shards are set then cleared', async () => {
    const { poolId } = await createOk({
      type: 'search',
      service: 'query-peer',
      name: 'resize-me',
      minReplicas: '1',
      maxReplicas: '4',
    })
    const saved = asResponse(
      await submit(poolId, {
        intent: 'update-pool',
        replicas: '3',
        cpu: '1.5',
        memory: '3Gi',
        storage: '4Gi',
        shards: '2',
        description: 'Bigger',
      }),
    )
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(`/scale/pool/${poolId}`)
    expect(await clusterCall('GET', `/config/v1/pools/${poolId}`)).toMatchObject({
      name: 'resize-me',
      type: 'search',
      description: 'Bigger',
      settings: {
        k8s_deployment: { service: 'query-peer', replicas: '3', cpu: '1.5', memory: '3Gi', storage: '4Gi', shards: 2 },
      },
    })
    const page = await detail(poolId)
    expect(page.editValues).toMatchObject({ replicas: '3', minReplicas: undefined, shards: '2', description: 'Bigger' })

    asResponse(
      await submit(poolId, { intent: 'update-pool', replicas: '3', cpu: '1.5', memory: '3Gi', storage: '4Gi' }),
    )
    const cleared = await clusterCall('GET', `/config/v1/pools/${poolId}`)
    expect(cleared.settings.k8s_deployment.shards).toBeUndefined()
    expect(cleared.description).toBe('')
  })

  it('answers a bad size at its field, keeping what was typed', async () => {
    const { poolId } = await createOk({ type: 'core', service: 'alter-peer', name: 'alter-pool' })
    const typed = { intent: 'update-pool', minReplicas: '4', memory: 'lots', cpu: '2' }
    const bad = unwrap<FormReply>(await submit(poolId, typed))
    expect(bad.status).toBe(400)
    expect(bad.data.result.error).toEqual({
      maxReplicas: [POOL_MESSAGES.maxRequired],
      memory: [POOL_MESSAGES.memoryPositive],
    })
    expect(bad.data.result.initialValue).toMatchObject({ minReplicas: '4', memory: 'lots', cpu: '2' })
  })

  it('reads sizes the cluster keeps as plain numbers, keeps them as numbers when unchanged, keeps the table of a pool', async () => {
    const pool = await clusterCall('POST', '/config/v1/pools/', {
      name: 'numbers',
      type: 'ingest',
      settings: {
        table: 'weblogs.errors',
        transform: 'errors_json',
        k8s_deployment: { service: 'kafka-peer', replicas: 2, cpu: 1, memory: 2 * 2 ** 30, storage: 512 * 2 ** 20 },
      },
    })
    const page = await detail(pool.uuid)
    expect(page.editValues).toMatchObject({ replicas: '2', cpu: '1', memory: '2Gi', storage: '0.5Gi' })
    expect(page.totals.memory).toEqual({ min: 4 * 2 ** 30, max: 4 * 2 ** 30 })
    asResponse(await submit(pool.uuid, { intent: 'update-pool', ...typedValues(page.editValues), isDefault: 'on' }))
    expect(await clusterCall('GET', `/config/v1/pools/${pool.uuid}`)).toMatchObject({
      settings: {
        table: 'weblogs.errors',
        transform: 'errors_json',
        is_default: true,
        // unchanged sizes stay as stored (issue 32, decision 072)
        k8s_deployment: { service: 'kafka-peer', replicas: 2, memory: 2 * 2 ** 30 },
      },
    })
  })

  it('asks before deleting (?delete=), then deletes and goes back to the kind’s list with a toast', async () => {
    const { poolId } = await createOk({ type: 'core', service: 'decay', name: 'short-lived' })
    expect((await detail(poolId, `?delete=${poolId}`)).isConfirmingDelete).toBe(true)
    expect((await detail(poolId, '?delete=someone-else')).isConfirmingDelete).toBe(false)

    const unknown = unwrap<{ message: string }>(await submit(poolId, { intent: 'explode' }))
    expect(unknown.status).toBe(400)

    const deleted = asResponse(await submit(poolId, { intent: 'delete-pool' }))
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('Location')).toBe('/scale/core')
    expect(deleted.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    const gone = unwrap<{ message: string }>(await returnedOrThrown(() => detail(poolId)))
    expect(gone.status).toBe(404)
    expect(gone.data.message).toMatch(/^404 Error/)
    const notAnId = unwrap<{ message: string }>(await returnedOrThrown(() => detail('not-a-pool')))
    expect([400, 404]).toContain(notAnId.status)
  })
})

describe('sizes as the tabs show them', () => {
  it('writes totals in the binary units pools are sized in, and ranges with a dash', () => {
    expect(formatSize(136 * 2 ** 30)).toBe('136Gi')
    expect(formatSize(512 * 2 ** 20)).toBe('512Mi')
    expect(formatSize(1.5 * 2 ** 40)).toBe('1.5Ti')
    expect(formatSize(100)).toBe('100 B')
    expect(rangeText({ min: 2, max: 2 })).toBe('2')
    expect(rangeText({ min: 4, max: 12 }, formatSize)).toBe('4 B–12 B')
    expect(rangeText(null)).toBe('—')
  })
})

describe('/scale/pool/create at size (decision 085)', () => {
  it('reads no transforms unless a table is picked; a table sent with its default option gets its default transform', async () => {
    for (const name of ['p1', 'p2', 'p3']) await makeTable('weblogs_q', name)
    const data = await createLoader(args(get('/scale/pool/create?type=ingest', cookie)))
    expect(data.tables.length).toBeGreaterThan(3)
    expect(data.tables.every((entry) => entry.transforms === null)).toBe(true)
    expect(data).toMatchObject({ table: '', transform: '' })
    // the ingest tab's link picks a table: its transforms are read, the others' are not
    const linked = await createLoader(args(get('/scale/pool/create?type=ingest&table=weblogs_q.p2', cookie)))
    expect(linked).toMatchObject({ table: 'weblogs_q.p2', transform: 'weblogs_q.p2:p2_json' })
    expect(linked.tables.filter((entry) => entry.transforms !== null).map((entry) => entry.value)).toEqual([
      'weblogs_q.p2',
    ])
    // a search that finds a few tables reads each one's transforms; one that finds nothing offers none
    const found = await createLoader(args(get('/scale/pool/create?type=ingest&table_q=weblogs_q.p3', cookie)))
    expect(found.tables).toEqual([
      {
        value: 'weblogs_q.p3',
        transforms: [{ value: 'weblogs_q.p3:p3_json', name: 'p3_json', type: 'json', isDefault: true }],
      },
    ])
    const none = await createLoader(args(get('/scale/pool/create?type=ingest&table_q=no_such_table', cookie)))
    expect(none.tables).toEqual([])
    expect(none.search).toMatchObject({ q: 'no_such_table', choices: [] })

    const { poolId } = await createOk({
      type: 'ingest',
      service: 'intake-head',
      name: 'p3-intake',
      table: 'weblogs_q.p3',
      transform: 'weblogs_q.p3:*',
    })
    const stored = await clusterCall('GET', `/config/v1/pools/${poolId}`)
    expect(stored.settings).toMatchObject({ table: 'weblogs_q.p3', transform: 'p3_json' })
  })
})
