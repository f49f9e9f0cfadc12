/**
 * Issue 50 point 5, buckets and credentials (decision 097): a field saved by one operator meanwhile
 * is not overwritten by another's stale form (refused at the field with its value now, the typed
 * value kept); a change of another field merges.
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
import { BucketEditor } from './__bucket-editor'
import { action, loader } from './buckets.$bucketId._index'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

type Stored = Record<string, unknown> & { uuid: string; description?: string; settings: Record<string, unknown> }
const STORAGES = '/config/v1/orgs/{org}/storages/'

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const url = (bucketId: string) => `/security/buckets/${bucketId}`
async function openForm(bucketId: string, lastResult?: FormResult) {
  const page = await loader(args(get(url(bucketId), cookie), { bucketId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <BucketEditor
        credentials={page.credentials}
        credentialsError={page.credentialsError}
        constraint={page.constraint}
        defaultValue={page.formValues}
        lastResult={lastResult as never}
        submitLabel="Save bucket"
        submitIntent="save-bucket"
        cancelTo="/security/buckets"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'bucket-editor', null)
}
const post = (bucketId: string, entries: [string, string][]) =>
  answerOf(() => action(args(formPost(url(bucketId), entries, cookie, TEST_CONSOLE_URL), { bucketId })))

let made = 0
const makeBucket = () =>
  clusterCall<Stored>('POST', STORAGES, {
    name: `lu-bucket-${++made}`,
    description: 'as made',
    settings: { bucket_name: 'b', region: 'us-east-1', cloud: 'aws', bucket_path: '/' },
  })

describe('bucket editor: no silent lost update (issue 50)', () => {
  it('refuses the region changed meanwhile, naming it; saved again it replaces it', async () => {
    const bucket = await makeBucket()
    const [first, second] = [await openForm(bucket.uuid), await openForm(bucket.uuid)]
    expect((await post(bucket.uuid, withField(first, 'region', 'eu-west-1'))).status).toBe(302)
    const refused = await post(bucket.uuid, withField(second, 'region', 'ap-south-1'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.region![0]).toMatch(/^Changed by admin@example\.com .* now “eu-west-1”/)
    expect(refused.result!.error![''][0]).toContain('Region is now “eu-west-1”')
    expect((await clusterCall<Stored>('GET', `${STORAGES}${bucket.uuid}`)).settings.region).toBe('eu-west-1')
    expect((await post(bucket.uuid, await openForm(bucket.uuid, refused.result))).status).toBe(302)
    expect((await clusterCall<Stored>('GET', `${STORAGES}${bucket.uuid}`)).settings.region).toBe('ap-south-1')
  })

  it('merges a change of the description', async () => {
    const bucket = await makeBucket()
    const [first, second] = [await openForm(bucket.uuid), await openForm(bucket.uuid)]
    expect((await post(bucket.uuid, withField(first, 'region', 'eu-west-1'))).status).toBe(302)
    expect((await post(bucket.uuid, withField(second, 'description', 'second says'))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', `${STORAGES}${bucket.uuid}`)
    expect([after.settings.region, after.description]).toEqual(['eu-west-1', 'second says'])
  })
})
