import { getZodConstraint } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { listCredentials } from '~/api/credentials.server'
import { replyFromCluster, settle } from '~/api/policies.server'
import { listAutoBatches, setAutoBatches, type AutoBatch } from '~/api/sources.server'
import { AUTO_BATCH_PLACES, AutoBatchSchema, autoBatchEditForm, type AutoBatchForm } from '~/schemas/source'
import { mergeChanged } from '~/schemas/lossless'
import { parseEdit } from '~/services/edit-save.server'
import { refuseChangedMeanwhile } from '~/utils/edit-conflict.server'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'
import { splitTableValue } from '~/services/table-choices.server'

/** The auto batch form's HTML constraints: its schema loads in the browser after hydration (decision 077). */
export function autoBatchConstraint() {
  return getZodConstraint(AutoBatchSchema)
}

/** The credentials to pick from (names and ids); empty when the user may not list them. */
export async function loadCredentialChoices(api: ClusterApi) {
  const loaded = await settle(() => listCredentials(api))
  return (loaded.value ?? []).map((credential) => ({ value: credential.uuid, label: credential.name }))
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/** A stored auto batch entry as the form's values. */
export function autoBatchFormValue(entry: AutoBatch, table: string): Record<string, unknown> {
  return {
    table,
    queue: str(entry.source),
    region: str(entry.source_region),
    pattern: str(entry.pattern),
    sourceCredential: str(entry.source_credential_id),
    bucketCredential: str(entry.bucket_credential_id),
    dryRun: entry.dry_run ? 'on' : undefined,
    maxMinutes: str(entry.max_minutes_per_partition),
    maxRows: str(entry.max_rows_per_partition),
    maxActive: str(entry.max_active_partitions),
  }
}

/**
 * The edit form's values: the rendered values, and the same as `original` (JSON), so a save writes
 * only the fields the operator changed onto the stored entry (decisions 072 and 073).
 */
export function autoBatchEditValue(entry: AutoBatch, table: string): Record<string, unknown> {
  const rendered = autoBatchFormValue(entry, table)
  return { ...rendered, original: JSON.stringify(rendered) }
}

/** The entry a valid form stores (enabled), on top of what was stored before. */
export function autoBatchEntry(form: AutoBatchForm, previous: AutoBatch = {}): AutoBatch {
  return {
    ...previous,
    enabled: true,
    source: form.queue,
    source_region: form.region ?? '',
    pattern: form.pattern ?? '',
    dry_run: Boolean(form.dryRun),
    source_credential_id: form.sourceCredential || null,
    bucket_credential_id: form.bucketCredential || null,
    ...(form.maxMinutes !== undefined ? { max_minutes_per_partition: form.maxMinutes } : {}),
    ...(form.maxRows !== undefined ? { max_rows_per_partition: form.maxRows } : {}),
    ...(form.maxActive !== undefined ? { max_active_partitions: form.maxActive } : {}),
  }
}

/** The form's fields as a conflict names them. */
const AUTO_BATCH_LABELS: Record<string, string> = {
  queue: 'Queue name',
  region: 'Queue region',
  pattern: 'Regex filter',
  sourceCredential: 'Source credential',
  bucketCredential: 'Bucket credential',
  dryRun: 'Dry run',
  maxMinutes: 'Max minutes per partition',
  maxRows: 'Max rows per partition',
  maxActive: 'Max active partitions',
}

const ENTRY_FIELDS: Record<string, string> = {
  source: 'queue',
  source_region: 'region',
  pattern: 'pattern',
  dry_run: 'dryRun',
  source_credential_id: 'sourceCredential',
  bucket_credential_id: 'bucketCredential',
  max_minutes_per_partition: 'maxMinutes',
  max_rows_per_partition: 'maxRows',
  max_active_partitions: 'maxActive',
}

function renameFor(index: number): Record<string, string> {
  const rename: Record<string, string> = {}
  for (const [key, field] of Object.entries(ENTRY_FIELDS)) {
    rename[`settings.autoingest[${index}].${key}`] = field
    rename[`settings.autoingest.${index}.${key}`] = field
  }
  return rename
}

export function autoBatchUrl(tableId: string, index: number, projectId: string) {
  return `/data/tables/${encodeURIComponent(tableId)}/source/edit/autobatch/${index}?project=${encodeURIComponent(projectId)}`
}

/** Adds (no `index`) or replaces the table's auto batch entry; redirects to its page with a toast. */
export async function autoBatchAction(api: ClusterApi, formData: FormData, options: { index?: number } = {}) {
  // on edit with the rendered values (`original`), only the changed fields are written (decision 073)
  // the same rule as the browser's check (decision 103)
  const { original, kept, submission } = parseEdit(formData, autoBatchEditForm, undefined, {
    isEdit: options.index !== undefined,
    strict: AutoBatchSchema,
  })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { projectId, tableId } = splitTableValue(submission.value.table)
  let index = options.index ?? 0
  try {
    const entries = await listAutoBatches(api, projectId, tableId)
    if (options.index === undefined) {
      // a table's first entry may be the cluster's disabled default: take its place
      index = entries.length === 1 && !entries[0]?.enabled && !entries[0]?.source ? 0 : entries.length
    }
    const next = [...entries]
    const previous = entries[index]
    if (original && previous) {
      // no silent lost update (decision 097); the entry has no time of its own to name
      const refusal = await refuseChangedMeanwhile(api, submission, {
        formData,
        now: autoBatchFormValue(previous, submission.value.table),
        places: AUTO_BATCH_PLACES,
        kept,
        labels: AUTO_BATCH_LABELS,
        current: {},
      })
      if (refusal) return refusal
    }
    // an edit leaves `enabled` as stored (the form does not show it); a new entry is enabled
    next[index] =
      original && previous
        ? mergeChanged(previous, autoBatchEntry(submission.value), AUTO_BATCH_PLACES, kept)
        : autoBatchEntry(submission.value, previous)
    await setAutoBatches(api, projectId, tableId, next)
  } catch (error) {
    return replyFromCluster(submission, error, { rename: renameFor(index) })
  }
  return redirectWithToast(autoBatchUrl(tableId, index, projectId), {
    title: `Auto batch ${options.index === undefined ? 'created' : 'saved'}`,
    type: 'success',
  })
}

/** Removes the table's auto batch entry `index`; redirects to the table. */
export async function deleteAutoBatch(api: ClusterApi, projectId: string, tableId: string, index: number) {
  const entries = await listAutoBatches(api, projectId, tableId)
  await setAutoBatches(
    api,
    projectId,
    tableId,
    entries.filter((_, i) => i !== index),
  )
  return redirectWithToast(tableUrl(tableId, projectId), { title: 'Auto batch deleted', type: 'success' })
}
