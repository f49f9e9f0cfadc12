import { getZodConstraint } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { replyFromCluster } from '~/api/policies.server'
import {
  createSource,
  findSourcePool,
  autoBatchesOf,
  listSources,
  getSource,
  updateSource,
  updateSourcePoolScale,
  type Source,
  type SourceBody,
  type SourceKind,
} from '~/api/sources.server'
import { listTransforms } from '~/api/transforms.server'
import {
  sourceEditForm,
  SOURCE_PLACES,
  SOURCE_SECRETS,
  sourceSchemaFor,
  splitList,
  type KafkaSourceForm,
  type KinesisSourceForm,
  type SiemSourceForm,
} from '~/schemas/source'
import type { Json } from '~/schemas/lossless'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { SourceRow } from './__source-list'
import { splitTableValue } from '~/services/table-choices.server'

/** A source form's HTML constraints: its schema loads in the browser after hydration (decision 077). */
export function sourceConstraint(kind: SourceKind, isEdit: boolean) {
  return getZodConstraint(sourceSchemaFor(kind, isEdit))
}

type AnyForm = Partial<KafkaSourceForm & KinesisSourceForm & SiemSourceForm> &
  Pick<KafkaSourceForm, 'table' | 'name' | 'transform'>

/** The names of a table's transforms, for the Transform select. Throws ClusterError. */
export async function loadTransformNames(api: ClusterApi, table: string): Promise<string[]> {
  const { projectId, tableId } = splitTableValue(table)
  if (!projectId || !tableId) return []
  return (await listTransforms(api, projectId, tableId)).map((transform) => transform.name)
}

/** "10Gi" / "512Mi" / 2 → a number of GiB (NaN when it is not a quantity). */
function gib(value: unknown): string {
  if (value === undefined || value === null || value === '') return ''
  const match = /^\s*([\d.]+)\s*(Gi|G|Mi|M)?\s*$/.exec(String(value))
  if (!match) return ''
  const n = Number(match[1])
  return String(match[2]?.startsWith('M') ? n / 1024 : n)
}

/** The scale a source (or its pool) holds, as the form's fields. */
export function scaleValue(k8s: Record<string, unknown> | undefined) {
  const replicas = String(k8s?.replicas ?? '1')
  const [min = '', max = ''] = replicas.includes('-') ? replicas.split('-').map((part) => part.trim()) : [replicas, '']
  return {
    replicasMin: min,
    replicasMax: max,
    cpu: String(k8s?.cpu ?? ''),
    memory: gib(k8s?.memory),
    storage: gib(k8s?.storage),
  }
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value))

// The stored object is read field by field, whatever another tool put in it.
/* eslint-disable @typescript-eslint/no-explicit-any */
/** A stored source as the form's values; secrets are left out (never sent to the browser). */
export function sourceFormValue(source: Source, kind: SourceKind, table: string): Record<string, unknown> {
  const settings = (source.settings ?? {}) as Record<string, any>
  const base = {
    table,
    name: source.name,
    description: str(source.description),
    transform: str(source.transform),
    ...scaleValue(source.k8s_deployment),
  }
  if (kind === 'kafka') {
    return {
      ...base,
      bootstrapServers: (settings.bootstrap_servers ?? []).join(', '),
      topics: (settings.topics ?? []).join(', '),
      readTimeout: str(settings.read_timeout),
      maxWait: str(settings.max_wait),
      // none stored reads as the cluster's default; any other stored offset (0 included) as it is
      offset:
        settings.offset === undefined || settings.offset === null || settings.offset === ''
          ? 'latest'
          : str(settings.offset),
    }
  }
  if (kind === 'kinesis') {
    return {
      ...base,
      streamName: str(settings.stream_name),
      region: str(settings.region),
      checkpointer: str(settings.checkpointer?.name),
      datastoreProjectId: str(settings.datastore_project_id),
      accessKeyId: str(settings.access_key_id),
      roleArn: str(settings.role_arn),
      hasStoredSecret: settings.secret_access_key ? 'on' : undefined,
    }
  }
  const details = (settings.access_details ?? {}) as Record<string, unknown>
  return { ...base, host: str(details.host), configId: str(details.entity_id) }
}

/**
 * The edit form's values: the rendered values, and the same as `original` (JSON; no secrets), so a
 * save writes only the fields the operator changed onto the stored source (decision 072).
 */
export function sourceEditValue(source: Source, kind: SourceKind, table: string): Record<string, unknown> {
  const rendered = sourceFormValue(source, kind, table)
  return { ...rendered, original: JSON.stringify(rendered) }
}

const SCALE_FIELDS = ['replicasMin', 'replicasMax', 'cpu', 'memory', 'storage']

/** The stored source's writable keys: what an edit's changed fields are written onto. */
function writableSource(stored: Source): Json {
  return {
    name: stored.name,
    ...(stored.description !== undefined ? { description: stored.description } : {}),
    transform: stored.transform,
    settings: stored.settings ?? {},
    k8s_deployment: stored.k8s_deployment ?? {},
  }
}

/** The request body for a valid form; `stored` supplies secrets left blank on edit. */
export function sourceBody(kind: SourceKind, form: AnyForm, stored?: Source): SourceBody {
  const storedSettings = (stored?.settings ?? {}) as Record<string, any>
  const replicas = form.replicasMax !== undefined ? `${form.replicasMin}-${form.replicasMax}` : form.replicasMin
  const k8s_deployment = { replicas, cpu: form.cpu, memory: `${form.memory}Gi`, storage: `${form.storage}Gi` }
  let settings: Record<string, unknown>
  if (kind === 'kafka') {
    settings = {
      bootstrap_servers: splitList(form.bootstrapServers ?? ''),
      topics: splitList(form.topics ?? ''),
      offset: form.offset ?? 'latest',
      ...(form.readTimeout !== undefined ? { read_timeout: form.readTimeout } : {}),
      ...(form.maxWait !== undefined ? { max_wait: form.maxWait } : {}),
    }
  } else if (kind === 'kinesis') {
    const secret = form.secretAccessKey || (form.accessKeyId ? storedSettings.secret_access_key : undefined)
    settings = {
      stream_name: form.streamName,
      region: form.region,
      checkpointer: { name: form.checkpointer },
      datastore_project_id: form.datastoreProjectId || null,
      access_key_id: form.accessKeyId || null,
      secret_access_key: secret || null,
      role_arn: form.roleArn || null,
    }
  } else {
    const details = (storedSettings.access_details ?? {}) as Record<string, unknown>
    settings = {
      access_details: {
        host: form.host,
        entity_id: form.configId,
        client_secret: form.clientSecret || details.client_secret,
        client_token: form.clientToken || details.client_token,
        access_token: form.accessToken || details.access_token,
      },
    }
  }
  return {
    name: form.name,
    ...(form.description ? { description: form.description } : {}),
    transform: form.transform,
    settings,
    k8s_deployment,
  }
}

/** The form's fields as a conflict names them. */
const SOURCE_LABELS: Record<string, string> = {
  name: 'Source name',
  description: 'Description',
  transform: 'Transform',
  replicasMin: 'Min replicas',
  replicasMax: 'Max replicas',
  cpu: 'CPU',
  memory: 'Memory (GiB)',
  storage: 'Storage (GiB)',
  bootstrapServers: 'Bootstrap servers',
  topics: 'Topics',
  readTimeout: 'Read timeout (seconds)',
  maxWait: 'Max wait (milliseconds)',
  offset: 'Offset',
  streamName: 'Stream name',
  region: 'Region',
  checkpointer: 'Checkpointer',
  datastoreProjectId: 'Datastore project ID',
  accessKeyId: 'Cloud access key',
  secretAccessKey: 'Cloud secret',
  roleArn: 'Cloud role',
  host: 'Host',
  configId: 'Configuration ID',
  clientSecret: 'Client secret',
  clientToken: 'Client token',
  accessToken: 'Access token',
}

/** Where the cluster's source fields show on the form. */
export const SOURCE_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  transform: 'transform',
  'settings.bootstrap_servers': 'bootstrapServers',
  'settings.topics': 'topics',
  'settings.offset': 'offset',
  'settings.read_timeout': 'readTimeout',
  'settings.max_wait': 'maxWait',
  'settings.stream_name': 'streamName',
  'settings.region': 'region',
  'settings.checkpointer': 'checkpointer',
  'settings.checkpointer.name': 'checkpointer',
  'settings.datastore_project_id': 'datastoreProjectId',
  'settings.access_key_id': 'accessKeyId',
  'settings.secret_access_key': 'secretAccessKey',
  'settings.role_arn': 'roleArn',
  'settings.access_details.host': 'host',
  'settings.access_details.entity_id': 'configId',
  'settings.access_details.client_secret': 'clientSecret',
  'settings.access_details.client_token': 'clientToken',
  'settings.access_details.access_token': 'accessToken',
  'k8s_deployment.replicas': 'replicasMin',
  'k8s_deployment.cpu': 'cpu',
  'k8s_deployment.memory': 'memory',
  'k8s_deployment.storage': 'storage',
}

/** The rename map for one cluster error: a list item's key (`settings.topics.0`, `[0]`) goes to its list's field. */
function renameFor(error: unknown): Record<string, string> {
  if (!(error instanceof ClusterError) || error.status !== 400) return SOURCE_FIELDS
  const rename: Record<string, string> = { ...SOURCE_FIELDS }
  for (const key of Object.keys(error.mapped.fieldErrors)) {
    const field = SOURCE_FIELDS[key.replace(/(\.\d+|\[\d+\])+$/, '')]
    if (field) rename[key] = field
  }
  return rename
}

/** The source page's URL. */
export function sourceUrl(tableId: string, kind: SourceKind, sourceId: string, projectId: string): string {
  const page = `/data/tables/${encodeURIComponent(tableId)}/source/edit/${kind}/${encodeURIComponent(sourceId)}`
  return `${page}?project=${encodeURIComponent(projectId)}`
}

/**
 * Creates (no `sourceId`) or updates a source of `kind` from the form. A 400 (the form's rules or the
 * cluster's) comes back on the fields with everything typed kept except secrets; success redirects
 * to the source's page with a toast. On update the source's pool takes the new scale.
 */
export async function sourceEditorAction(
  api: ClusterApi,
  kind: SourceKind,
  formData: FormData,
  options: { sourceId?: string } = {},
) {
  // the same rule as the browser's check (decision 103)
  const { kept, submission } = parseEdit(formData, sourceEditForm, kind, {
    isEdit: Boolean(options.sourceId),
    strict: sourceSchemaFor(kind, Boolean(options.sourceId)),
  })
  const hideFields = [...SOURCE_SECRETS]
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
  const form = submission.value as AnyForm
  const { projectId, tableId } = splitTableValue(form.table)
  const done = (saved: Source) =>
    redirectWithToast(sourceUrl(tableId, kind, saved.uuid, projectId), {
      title: `Source ${saved.name} ${options.sourceId ? 'saved' : 'created'}`,
      type: 'success',
    })
  const sourceId = options.sourceId
  if (!sourceId) {
    try {
      return await done(await createSource(api, projectId, tableId, kind, sourceBody(kind, form)))
    } catch (error) {
      return replyFromCluster(submission, error, { rename: renameFor(error), hideFields })
    }
  }
  return saveEdit(api, submission, {
    formData,
    kept,
    // no silent lost update (decision 097): a field changed here and, meanwhile, on the cluster
    read: () => getSource(api, projectId, tableId, kind, sourceId),
    rendered: (stored) => sourceFormValue(stored, kind, form.table),
    places: SOURCE_PLACES,
    labels: SOURCE_LABELS,
    multiline: ['description'],
    onto: writableSource,
    // a description cleared is written as "" (the body leaves a blank one out)
    body: (_value, stored) => {
      const body = sourceBody(kind, form, stored)
      return { ...body, description: body.description ?? '' }
    },
    write: async (merged, stored) => {
      const body = merged as SourceBody
      const saved = await updateSource(api, projectId, tableId, kind, sourceId, body)
      // the source's pool takes the new scale
      const pool = SCALE_FIELDS.every((field) => kept.includes(field))
        ? null
        : await findSourcePool(api, saved.pool_name ?? stored.pool_name)
      if (pool)
        await updateSourcePoolScale(api, pool.uuid, {
          ...(pool.settings?.k8s_deployment ?? {}),
          ...body.k8s_deployment,
        })
      return saved
    },
    done,
    rename: renameFor,
    hideFields,
  })
}

/**
 * The table page's source rows (every kind), plain objects only. Throws ClusterError. `table`: the
 * table as the page already read it, whose settings hold the auto batch entries.
 */
export async function loadSourceRows(
  api: ClusterApi,
  projectId: string,
  table: { uuid: string; settings?: Record<string, unknown> },
): Promise<SourceRow[]> {
  const sources = await listSources(api, projectId, table.uuid)
  const batches = autoBatchesOf(table)
  return [
    ...sources.map((source) => ({
      uuid: source.uuid,
      name: source.name,
      kind: source.subtype,
      transform: source.transform ?? '',
      pool: source.pool_name ?? '',
    })),
    // auto batch entries (the table's settings.autoingest) that were set up; the id is the index
    ...batches.flatMap((batch, index) =>
      batch.enabled || batch.source
        ? [
            {
              uuid: String(index),
              name: String(batch.source || `Auto batch ${index + 1}`),
              kind: 'autobatch' as const,
              transform: 'default transform',
              pool: '',
            },
          ]
        : [],
    ),
  ]
}
