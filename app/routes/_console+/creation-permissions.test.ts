import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, loginAsAdmin, post, returnedOrThrown } from '#tests/session'
import { loader as newTableLoader } from './data+/new-table'
import { loader as newTransformLoader } from './data+/new-transform'
import { loader as newFunctionLoader } from './data+/functions.new-custom-function'
import { loader as newFileLoader } from './data+/files.new-file'
import { loader as newDictionaryLoader } from './data+/dictionaries.new-data-dictionary'
import { loader as newPoolLoader } from './scale+/pool.create'
import { loader as newAlterJobLoader } from './jobs+/alter-jobs.create'
import { loader as newBatchJobLoader } from './jobs+/batch-jobs.create'
import { loader as newSummaryLoader } from './data+/new-summary-table._index'
import { loader as newViewLoader } from './data+/new-view'
import { loader as newSourceLoader } from './data+/new-ingest-source'
import { loader as newBucketLoader } from './security+/new-bucket'
import { loader as newCredentialLoader } from './security+/new-credential'

useTestCluster()

/*
 * Issue 36, item 3: a creation form opened by its URL says what the user lacks ("Needs add_table"),
 * as the Invite and New role pages do, instead of a form whose Save the cluster refuses.
 */

const PASSWORD = 'a-long-password-1'
let admin = ''
let reader = ''

beforeAll(async () => {
  admin = await loginAsAdmin()
  await clusterCall('POST', '/config/v1/users/', { email: 'reader@example.com', password: PASSWORD, roles: ['reader'] })
  const { action: login } = await import('~/routes/_auth+/login')
  reader = cookieFrom(
    asResponse(
      await returnedOrThrown(() => login(args(post('/login', { email: 'reader@example.com', password: PASSWORD })))),
    ),
  )
})

const PAGES = [
  ['/data/new-table', newTableLoader, 'Needs add_table'],
  ['/data/new-transform', newTransformLoader, 'Needs add_transform'],
  ['/data/functions/new-custom-function', newFunctionLoader, 'Needs add_function'],
  ['/data/files/new-file', newFileLoader, 'Needs add_dictionaryfile'],
  ['/data/dictionaries/new-data-dictionary', newDictionaryLoader, 'Needs add_dictionary'],
  ['/scale/pool/create', newPoolLoader, 'Needs add_pool'],
  ['/jobs/alter-jobs/create', newAlterJobLoader, 'Needs add_alterjob'],
  ['/jobs/batch-jobs/create', newBatchJobLoader, 'Needs add_batchjob'],
  ['/data/new-summary-table', newSummaryLoader, 'Needs add_table'],
  ['/data/new-view', newViewLoader, 'Needs add_view'],
  [
    '/data/new-ingest-source',
    newSourceLoader,
    'Needs add_kafkasource or add_kinesissource or add_siemsource or change_table',
  ],
  ['/security/new-bucket', newBucketLoader, 'Needs add_hdxstorage'],
  ['/security/new-credential', newCredentialLoader, 'Needs add_credential'],
] as const

describe('creation pages opened by their URL', () => {
  for (const [path, loader, reason] of PAGES) {
    it(`${path}: a Reader is told "${reason}"; the admin gets the form`, async () => {
      const asReader = (await loader(args(get(path, reader)))) as { denied: string | null }
      expect(asReader.denied).toBe(reason)
      const asAdmin = (await loader(args(get(path, admin)))) as { denied: string | null }
      expect(asAdmin.denied).toBeNull()
    })
  }
})
