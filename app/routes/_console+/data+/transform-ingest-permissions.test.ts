import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as newAction } from './new-transform'
import { action as editAction, loader as editLoader } from './tables.$tableId.transform.edit.$transformId'

useTestCluster()

/* Issue 36, item 2: a Reader is not offered "Ingest the sample", and the cluster's 403 is the page's message, not a 500. */

const PASSWORD = 'a-long-password-1'
let admin = ''
let reader = ''
let tableId = ''
let projectId = ''
let transformId = ''

const form = (table: string, extra: Record<string, string> = {}) => ({
  table,
  name: 'web_json',
  type: 'json',
  'columns[0].name': 'timestamp',
  'columns[0].type': 'datetime',
  'columns[0].format': '2006-01-02T15:04:05Z',
  'columns[0].primary': 'on',
  'columns[1].name': 'status',
  'columns[1].type': 'uint64',
  compression: 'none',
  ...extra,
})

beforeAll(async () => {
  admin = await loginAsAdmin()
  await clusterCall('POST', '/config/v1/users/', { email: 'reader@example.com', password: PASSWORD, roles: ['reader'] })
  const { action: login } = await import('~/routes/_auth+/login')
  reader = cookieFrom(
    asResponse(
      await returnedOrThrown(() => login(args(post('/login', { email: 'reader@example.com', password: PASSWORD })))),
    ),
  )
  const made = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: 'p_ing', name: 'ing' }, admin)),
      ),
    ),
  )
  ;[, tableId, projectId] = made.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)! as unknown as [
    string,
    string,
    string,
  ]
  const published = asResponse(
    await returnedOrThrown(() => newAction(args(post('/data/new-transform', form(`${projectId}/${tableId}`), admin)))),
  )
  expect(published.status).toBe(302)
  const transforms = await clusterCall<{ uuid: string }[] | { results: { uuid: string }[] }>(
    'GET',
    `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`,
  )
  transformId = (Array.isArray(transforms) ? transforms : transforms.results)[0]!.uuid
})

describe('transform page: Ingest the sample as a Reader', () => {
  it('the loader says ingesting needs insert_sql on the table (the control shows disabled)', async () => {
    const loaded = await editLoader(
      args(get(`/data/tables/${tableId}/transform/edit/${transformId}?project=${projectId}`, reader), {
        tableId,
        transformId,
      }),
    )
    expect(loaded.denied.ingest).toBe('Needs insert_sql on table p_ing.ing')
    const asAdmin = await editLoader(
      args(get(`/data/tables/${tableId}/transform/edit/${transformId}?project=${projectId}`, admin), {
        tableId,
        transformId,
      }),
    )
    expect(asAdmin.denied.ingest).toBeNull()
  })

  it("the cluster's 403 from /ingest/event is the catalogue's message at the sample, not a 500", async () => {
    const sample = '{"timestamp":"2024-05-01T10:00:00Z","status":200}'
    const answer = unwrap<{ result: { error?: Record<string, string[]> } }>(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/transform/edit/${transformId}`,
              form(`${projectId}/${tableId}`, { sampleData: sample, intent: 'ingest' }),
              reader,
            ),
            { tableId, transformId },
          ),
        ),
      ),
    )
    expect(answer.status).toBe(403)
    expect(answer.data.result.error?.sampleData?.[0]).toMatch(/You do not have permission/)
  })
})
