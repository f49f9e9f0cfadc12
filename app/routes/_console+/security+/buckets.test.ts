import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall, makeTable } from '#tests/cluster'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { action as detailAction, loader as detailLoader } from './buckets.$bucketId._index'
import { loader as listLoader } from './buckets._index'
import { action as newAction, loader as newLoader } from './new-bucket'

useTestCluster()

type FormReply = {
  result: {
    status?: string
    error?: Record<string, string[] | null>
    initialValue?: Record<string, unknown>
  }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const createBucket = (form: Record<string, string>) =>
  returnedOrThrown(() => newAction(args(post('/security/new-bucket', form, cookie))))

/** Creates a bucket through the action and returns its id from the redirect. */
async function createBucketOk(form: Record<string, string>) {
  const response = asResponse(await createBucket(form))
  expect(response.status, JSON.stringify(response)).toBe(302)
  return response.headers.get('Location')!.replace('/security/buckets/', '')
}

const detail = (bucketId: string, query = '') =>
  detailLoader(args(get(`/security/buckets/${bucketId}${query}`, cookie), { bucketId }))
const detailPost = (bucketId: string, form: Record<string, string>) =>
  returnedOrThrown(() => detailAction(args(post(`/security/buckets/${bucketId}`, form, cookie), { bucketId })))

describe('/security/buckets on a fresh cluster', () => {
  it("lists the install's default bucket before anyone adds one", async () => {
    const list = await listLoader(args(get('/security/buckets', cookie)))
    expect(list.rows).toMatchObject([
      { name: 'hdx_primary', bucket: expect.stringMatching(/^hdxcli-[0-9a-f]{8}/), cloud: 'local', isDefault: true },
    ])
  })
})

describe('/security/new-bucket', () => {
  it('needs a session', async () => {
    const thrown = await responseFrom(() => newLoader(args(get('/security/new-bucket'))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fsecurity%2Fnew-bucket')
  })

  it('answers the spec messages (Name, Bucket name and Cloud required) with 400 and keeps what was typed', async () => {
    const { data, status } = unwrap<FormReply>(
      await createBucket({
        name: '',
        bucket_name: '',
        cloud: '',
        region: 'eu-west-1',
        description: 'kept',
      }),
    )
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      name: ['Name is required'],
      bucket_name: ['Bucket name is required'],
      cloud: ['Cloud is required'],
    })
    expect(data.result.initialValue).toMatchObject({
      region: 'eu-west-1',
      description: 'kept',
    })
  })

  it('lists the credentials a bucket may use', async () => {
    await clusterCall('POST', '/config/v1/orgs/{org}/credentials/', {
      name: 'aws_keys_for_buckets',
      type: 'aws_access_keys',
      details: { access_key_id: 'AKIA1', secret_access_key: 'super-secret-1' },
    })
    const loaded = await newLoader(args(get('/security/new-bucket', cookie)))
    expect(loaded.credentials.map((credential) => credential.name)).toContain('aws_keys_for_buckets')
    expect(JSON.stringify(loaded)).not.toContain('super-secret-1')
  })

  it("creates a bucket, shows it in the list and puts the cluster's field errors on the form's fields", async () => {
    const id = await createBucketOk({
      name: 'archive',
      bucket_name: 'my-archive',
      cloud: 'aws',
      region: 'us-east-1',
      bucket_path: '/logs',
    })
    const list = await listLoader(args(get('/security/buckets', cookie)))
    expect(list.rows.find((row) => row.uuid === id)).toMatchObject({
      name: 'archive',
      bucket: 'my-archive/logs',
      cloud: 'aws',
      isDefault: false,
    })
    const filtered = await listLoader(args(get('/security/buckets?q=nomatch', cookie)))
    expect(filtered.rows).toEqual([])

    failWith(
      '/config/v1/orgs/:org/storages/',
      400,
      {
        settings: { bucket_name: ['Bucket name is not valid.'] },
        detail: 'No.',
      },
      'post',
    )
    const { data, status } = unwrap<FormReply>(await createBucket({ name: 'bad', bucket_name: 'x', cloud: 'gcp' }))
    expect(status).toBe(400)
    expect(data.result.error).toMatchObject({
      bucket_name: ['Bucket name is not valid.'],
      '': ['No.'],
    })
    expect(data.result.initialValue).toMatchObject({
      name: 'bad',
      cloud: 'gcp',
    })
  })
})

describe('/security/buckets/[bucketId]', () => {
  it('shows the bucket, saves an edit, and a 404 is the catalogue message', async () => {
    const id = await createBucketOk({
      name: 'edit_me',
      bucket_name: 'b1',
      cloud: 'gcp',
    })
    const loaded = await detail(id)
    expect(loaded.bucket).toMatchObject({
      name: 'edit_me',
      cloud: 'gcp',
      isDefault: false,
    })
    expect(loaded.formValues).toMatchObject({
      name: 'edit_me',
      bucket_name: 'b1',
      cloud: 'gcp',
      bucket_path: '/',
    })

    const saved = asResponse(
      await detailPost(id, {
        intent: 'save-bucket',
        name: 'edited',
        bucket_name: 'b2',
        cloud: 'gcp',
        description: 'now described',
      }),
    )
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(`/security/buckets/${id}`)
    expect((await detail(id)).bucket).toMatchObject({
      name: 'edited',
      description: 'now described',
      location: 'b2/',
    })

    // a real cluster lets a storage's cloud change, and so does the local one
    const moved = asResponse(
      await detailPost(id, {
        intent: 'save-bucket',
        name: 'edited',
        bucket_name: 'b2',
        cloud: 'aws',
      }),
    )
    expect(moved.status).toBe(302)
    expect((await detail(id)).bucket).toMatchObject({ cloud: 'aws' })

    const missing = unwrap<{ message: string }>(
      await returnedOrThrown(() => detail('00000000-0000-4000-8000-000000000000')),
    )
    expect(missing.status).toBe(404)
    expect(missing.data.message).toMatch(/^404 Error/)
  })

  it('says which tables use the bucket, and the default bucket cannot be deleted without FORCE', async () => {
    const id = await createBucketOk({
      name: 'the_default',
      bucket_name: 'main',
      cloud: 'aws',
      is_default: 'on',
    })
    const other = await createBucketOk({
      name: 'mapped',
      bucket_name: 'side',
      cloud: 'aws',
    })
    const { projectId, tableId } = await makeTable('bucket_project', 'bucket_table')
    await clusterCall('PATCH', `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}`, {
      settings: { storage_map: { default_storage_id: other } },
    })
    await makeTable('bucket_project', 'plain_table')

    // a new default takes over from the install's bucket: one default per org
    const rows = (await listLoader(args(get('/security/buckets', cookie)))).rows
    expect(rows.filter((row) => row.isDefault).map((row) => row.name)).toEqual(['the_default'])

    const usesDefault = (await detail(id)).uses!
    expect(usesDefault.map((use) => [use.tableName, use.how])).toEqual([['plain_table', 'org default']])
    const usesOther = (await detail(other)).uses!
    expect(usesOther.map((use) => [use.tableName, use.how])).toEqual([['bucket_table', 'table default']])

    expect((await detail(id, `?delete=${id}`)).isConfirmingDelete).toBe(true)
    const noForce = unwrap<{ deleteResult: FormReply['result'] }>(
      await detailPost(id, { intent: 'delete-bucket', confirm: 'force' }),
    )
    expect(noForce.status).toBe(400)
    expect(noForce.data.deleteResult.error).toEqual({
      confirm: ['Type FORCE to confirm'],
    })
    expect((await detail(id)).bucket.name).toBe('the_default')

    const deleted = asResponse(await detailPost(id, { intent: 'delete-bucket', confirm: 'FORCE' }))
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('Location')).toBe('/security/buckets')
    expect(unwrap(await returnedOrThrown(() => detail(id))).status).toBe(404)
  })

  it('deletes an unused bucket on confirmation alone', async () => {
    const id = await createBucketOk({
      name: 'unused',
      bucket_name: 'u',
      cloud: 'aws',
    })
    const deleted = asResponse(await detailPost(id, { intent: 'delete-bucket' }))
    expect(deleted.status).toBe(302)
    const list = await listLoader(args(get('/security/buckets', cookie)))
    expect(list.rows.some((row) => row.uuid === id)).toBe(false)
  })

  it("a 403 from the cluster is the cluster's message inside the page, not a 500", async () => {
    failWith(
      '/config/v1/orgs/:org/storages/',
      403,
      { detail: 'You do not have permission to perform this action.' },
      'get',
    )
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() => listLoader(args(get('/security/buckets', cookie)))),
    )
    expect(thrown.status).toBe(403)
    expect(thrown.data.message).toBe('You do not have permission to perform this action.')
  })
})
