import { getZodConstraint } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { listCredentials } from '~/api/credentials.server'
import { replyFromCluster, settle } from '~/api/policies.server'
import { createStorage, getStorage, updateStorage, type Storage, type StorageInput } from '~/api/storages.server'
import { BUCKET_PLACES, bucketEditForm, BucketFormSchema, type BucketForm } from '~/schemas/bucket'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Where the cluster's storage fields (as mapFieldErrors flattens them) show on the bucket form. */
const BUCKET_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  settings: 'bucket_name',
  'settings.bucket_name': 'bucket_name',
  'settings.cloud': 'cloud',
  'settings.region': 'region',
  'settings.bucket_path': 'bucket_path',
  'settings.endpoint': 'endpoint',
  'settings.credential_id': 'credential_id',
  'settings.io_perf_mode': 'io_perf_mode',
  'settings.is_default': 'is_default',
}

/** The credentials a bucket may use, for the form's select; a user who may not list them gets none and a note. */
/** The editor's lists and its HTML constraints (`getZodConstraint`: the schema loads in the browser after hydration, decision 032). */
export async function loadBucketEditor(api: ClusterApi) {
  const credentials = await settle(() => listCredentials(api))
  return {
    credentials: (credentials.value ?? []).map((credential) => ({
      uuid: credential.uuid,
      name: credential.name,
      cloud: credential.cloud ?? '',
    })),
    credentialsError: credentials.error,
    constraint: getZodConstraint(BucketFormSchema),
  }
}

const isObjectEmpty = (value: unknown) => typeof value === 'object' && value !== null && Object.keys(value).length === 0

/** The form's values as the cluster's storage body. */
function storageBody(form: BucketForm): StorageInput {
  return {
    name: form.name,
    description: form.description ?? '',
    settings: {
      bucket_name: form.bucket_name,
      bucket_path: form.bucket_path || '/',
      region: form.region ?? '',
      cloud: form.cloud,
      endpoint: form.endpoint || null,
      credential_id: form.credential_id || null,
      is_default: Boolean(form.is_default),
      ...(form.io_perf_mode ? { io_perf_mode: form.io_perf_mode } : {}),
    },
  }
}

/** A storage as the form's default values. */
export function bucketFormValues(storage: Storage): Record<string, string> {
  const settings = storage.settings ?? ({} as Storage['settings'])
  return {
    name: storage.name,
    description: storage.description ?? '',
    bucket_name: settings.bucket_name ?? '',
    cloud: settings.cloud ?? '',
    region: settings.region ?? '',
    bucket_path: settings.bucket_path ?? '',
    endpoint: settings.endpoint ?? '',
    credential_id: settings.credential_id ?? '',
    io_perf_mode: settings.io_perf_mode ?? '',
    is_default: settings.is_default ? 'on' : '',
  }
}

/** The edit form's starting values, and the same as `original` (JSON) for a lossless save (decision 074). */
export function bucketEditValues(storage: Storage): Record<string, string> {
  const rendered = bucketFormValues(storage)
  return { ...rendered, original: JSON.stringify(rendered) }
}

/** The bucket fields as a conflict names them. */
const BUCKET_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  bucket_name: 'Bucket name',
  cloud: 'Cloud',
  region: 'Region',
  bucket_path: 'Bucket path',
  endpoint: 'Endpoint',
  credential_id: 'Credential',
  io_perf_mode: 'I/O mode',
  is_default: 'Default bucket',
}

/**
 * Creates a bucket from the form, or changes `storageId`; redirects to the bucket with a toast.
 * An edit with its `original` sends only the fields the operator changed (PATCH; nothing when
 * none did), so every other stored value stays as the cluster holds it (decision 074).
 * Validation and the cluster's 400s come back on the form's fields with everything typed kept.
 */
export async function saveBucketAction(api: ClusterApi, formData: FormData, storageId?: string) {
  // the same rule as the browser's check (decision 103)
  const { kept, submission } = parseEdit(formData, bucketEditForm, undefined, {
    isEdit: Boolean(storageId),
    strict: BucketFormSchema,
  })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const done = (saved: Storage) =>
    redirectWithToast(`/security/buckets/${saved.uuid}`, {
      title: `Bucket ${saved.name} ${storageId ? 'saved' : 'created'}`,
      type: 'success',
    })
  if (!storageId) {
    try {
      return await done(await createStorage(api, storageBody(submission.value)))
    } catch (error) {
      return replyFromCluster(submission, error, { rename: BUCKET_FIELDS })
    }
  }
  return saveEdit(api, submission, {
    formData,
    kept,
    // no silent lost update (decision 097)
    read: () => getStorage(api, storageId),
    rendered: bucketFormValues,
    places: BUCKET_PLACES,
    labels: BUCKET_LABELS,
    multiline: ['description'],
    onto: () => ({}),
    body: storageBody,
    write: async (changes) => {
      if (isObjectEmpty(changes.settings)) delete changes.settings
      return Object.keys(changes).length ? updateStorage(api, storageId, changes) : getStorage(api, storageId)
    },
    done,
    rename: BUCKET_FIELDS,
  })
}
