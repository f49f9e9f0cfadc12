import type { ClusterRouter } from '../context'
import { HttpError, json } from '../http'
import { requireUser } from './access'
import { defineResource, type Item, type ResourceApi } from './crud'
import { descriptionField, f, REQUIRED } from './schema'

/** Storages (buckets) and credentials: `orgs/{org}/storages/`, `orgs/{org}/credentials/` (+ `types/`). */

export const CLOUDS = ['aws', 'gcp', 'azure', 'linode', 'akamai', 'oci', 'minio', 'local'] as const

export function registerStorages(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'storage',
    resource: 'hdxstorage',
    label: 'storage',
    level: 'org',
    path: 'storages',
    description:
      'Buckets that hold table data. DELETE needs ?force_operation=true when the storage is in use or the default.',
    fields: {
      description: descriptionField(),
      settings: f.obj(
        {
          bucket_name: f.str({ required: true, blank: false }),
          bucket_path: f.str({ blank: true }),
          region: f.str({ blank: true, nullable: true }),
          cloud: f.str({ required: true, choices: CLOUDS }),
          endpoint: f.str({ nullable: true, blank: true }),
          credential_id: f.uuid({ nullable: true }),
          account_name: f.str({ nullable: true, blank: true }),
          is_default: f.bool(),
          io_perf_mode: f.str({ choices: ['aggressive', 'moderate', 'relaxed'] }),
        },
        { required: true },
      ),
    },
    settingsDefaults: () => ({
      bucket_path: '/',
      region: '',
      endpoint: null,
      credential_id: null,
      account_name: null,
      is_default: false,
      io_perf_mode: 'moderate',
    }),
    // settings.cloud can be changed, as on a real cluster (hdxcli `storage settings settings.cloud ...`)
    // a credential is checked when it is named, not on every later change: a bucket whose credential
    // was deleted since keeps naming it and can still be changed otherwise (issue 32)
    prepare({ ctx, data, previous, errors }) {
      const s = data.settings as Record<string, unknown>
      const named = s.credential_id !== (previous?.settings as Record<string, unknown> | undefined)?.credential_id
      if (named && s.credential_id && !ctx.cluster.store.get('credential', String(s.credential_id))) {
        errors.settings = { credential_id: [`Credential "${s.credential_id}" does not exist.`] }
      }
    },
    serialize: () => ({ publish_task_id: null }),
    serializeReads: [],
    afterSave({ ctx, item }) {
      if (!item.settings.is_default) return
      for (const other of ctx.cluster.store.filter<Item>(
        'storage',
        (s) => s._org === item._org && s.uuid !== item.uuid && s.settings?.is_default,
      )) {
        ctx.cluster.store.put('storage', other.uuid, { ...other, settings: { ...other.settings, is_default: false } })
      }
    },
    beforeDelete({ ctx, item }) {
      if (ctx.url.searchParams.get('force_operation') === 'true') return
      const users = ctx.cluster.store.filter<Item>(
        'table',
        (t) => t.settings?.storage_map?.default_storage_id === item.uuid,
      )
      if (item.settings?.is_default || users.length) {
        const why = item.settings?.is_default
          ? 'it is the default storage'
          : `tables use it (${users.map((t) => t.name).join(', ')})`
        throw new HttpError(400, {
          detail: `The storage cannot be deleted because ${why}. Repeat with ?force_operation=true.`,
        })
      }
    },
  })
}

interface CredentialType {
  cloud: string
  description: string
  fields: Record<string, { required: boolean; secret?: boolean; label: string; type?: string }>
}

export const CREDENTIAL_TYPES: Record<string, CredentialType> = {
  aws_access_keys: {
    cloud: 'aws',
    description: 'AWS access key id and secret access key',
    fields: {
      access_key_id: { required: true, label: 'Access key id' },
      secret_access_key: { required: true, secret: true, label: 'Secret access key' },
      session_token: { required: false, secret: true, label: 'Session token' },
    },
  },
  aws_role: {
    cloud: 'aws',
    description: 'An AWS IAM role to assume',
    fields: { role_arn: { required: true, label: 'Role ARN' }, external_id: { required: false, label: 'External id' } },
  },
  gcp_service_account_keys: {
    cloud: 'gcp',
    description: 'A GCP service account key (the JSON key file)',
    fields: {
      type: { required: false, label: 'Type' },
      project_id: { required: true, label: 'Project id' },
      private_key_id: { required: true, label: 'Private key id' },
      private_key: { required: true, secret: true, label: 'Private key' },
      client_email: { required: true, label: 'Client email' },
      client_id: { required: false, label: 'Client id' },
      token_uri: { required: false, label: 'Token URI' },
    },
  },
  azure_account_key: {
    cloud: 'azure',
    description: 'An Azure storage account name and key',
    fields: {
      account_name: { required: true, label: 'Account name' },
      account_key: { required: true, secret: true, label: 'Account key' },
    },
  },
  azure_sas_token: {
    cloud: 'azure',
    description: 'An Azure shared access signature',
    fields: {
      account_name: { required: true, label: 'Account name' },
      sas_token: { required: true, secret: true, label: 'SAS token' },
    },
  },
  linode_access_keys: {
    cloud: 'linode',
    description: 'Linode (Akamai) object storage keys',
    fields: {
      access_key_id: { required: true, label: 'Access key' },
      secret_access_key: { required: true, secret: true, label: 'Secret key' },
    },
  },
}

export const SECRET_MASK = '********'

export function registerCredentials(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'credential',
    resource: 'credential',
    label: 'credential',
    level: 'org',
    path: 'credentials',
    description: 'Cloud credentials used by storages, batch jobs and autoingest. Secrets are never answered.',
    fields: {
      description: descriptionField(),
      type: f.str({ required: true, choices: Object.keys(CREDENTIAL_TYPES) }),
      cloud: f.str({ readOnly: true }),
      details: f.obj({}, { required: true }),
    },
    routes(router, api) {
      router.get(`${api.collectionPattern}/types`, (ctx) => {
        requireUser(ctx)
        api.parents(ctx)
        return json(CREDENTIAL_TYPES)
      })
    },
    prepare({ data, previous, errors }) {
      const type = CREDENTIAL_TYPES[String(data.type)]
      const details = data.details as Record<string, unknown>
      const e: Record<string, string[]> = {}
      for (const [key, spec] of Object.entries(type.fields)) {
        // a masked secret sent back unchanged keeps the stored one
        if (spec.secret && details[key] === SECRET_MASK && previous?.type === data.type)
          details[key] = previous?.details?.[key]
        const v = details[key]
        if (spec.required && (v === undefined || v === null || v === '')) e[key] = [REQUIRED]
        else if (v !== undefined && v !== null && typeof v !== 'string') e[key] = ['Not a valid string.']
      }
      if (Object.keys(e).length) errors.details = e
      data.cloud = type.cloud
    },
    serialize(item) {
      const type = CREDENTIAL_TYPES[item.type]
      const details = { ...(item.details ?? {}) }
      for (const [key, spec] of Object.entries(type?.fields ?? {}))
        if (spec.secret && details[key]) details[key] = SECRET_MASK
      return { details }
    },
    serializeReads: [],
  })
}
