import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { z } from 'zod'
import type { ClusterApi } from '~/api/client.server'
import { getDefaults } from '~/api/defaults.server'
import { loadFromCluster, replyFromCluster, settle } from '~/api/policies.server'
import {
  getTableStats,
  patchTable,
  replaceTable,
  truncateTable,
  type Table,
  type TableSettings,
} from '~/api/tables.server'
import { formatBytes, formatNumber } from '~/utils/format-number'
import { checkSummarySql } from './__summary.server'
import type { Project } from '~/api/projects.server'
import { ForceConfirmSchema } from '~/schemas/confirm'
import {
  fromFormText,
  isTextareaField,
  JsonSettingsSchema,
  keptSettingFields,
  RenameTableSchema,
  SETTINGS_GROUPS,
  SETTINGS_MESSAGES,
  settingsGroup,
  settingsSchema,
  toFormText,
  valueAt,
  type SettingField,
  type SettingsGroupDef,
} from '~/schemas/table-settings'
import type { FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { isTextChanged, parseOriginal } from '~/schemas/lossless'
import { redirectWithToast } from '~/utils/toast.server'
import { conflictsOf, refuseConflicts, seenAgain, type FieldConflict } from '~/utils/edit-conflict.server'
import { mergeDeep } from '~/utils/merge-deep'
import { tableUrl } from './__table-url'

export { RENAME_INTENT, SETTINGS_INTENT, TRUNCATE_INTENT } from './__table-intents'

/**
 * The table defaults the spec gives (section 9), used when `GET /config/v1/defaults/` fails or
 * lacks a value. Shaped like a table's `settings`.
 */
export const BUILT_IN_TABLE_DEFAULTS: TableSettings = {
  stream: {
    token_auth_enabled: false,
    token_list: [],
    hot_data_max_age_minutes: 3,
    hot_data_max_active_partitions: 3,
    hot_data_max_rows_per_partition: 12288000,
    hot_data_max_minutes_per_partition: 1,
    hot_data_max_open_seconds: 60,
    hot_data_max_idle_seconds: 30,
    cold_data_max_age_days: 3650,
    cold_data_max_active_partitions: 50,
    cold_data_max_rows_per_partition: 12288000,
    cold_data_max_minutes_per_partition: 60,
    cold_data_max_open_seconds: 300,
    cold_data_max_idle_seconds: 60,
    message_queue_max_rows: 0,
  },
  age: { max_age_days: 0 },
  reaper: { max_age_days: 1 },
  merge: {
    enabled: true,
    partition_duration_minutes: 60,
    input_aggregation: 20000000000,
    max_candidates: 20,
    max_rows: 10000000,
    max_partitions_per_candidate: 100,
    min_age_mins: 1,
    max_age_mins: 10080,
    memory_coefficient: 0,
    pools: { small: '', medium: '', large: '' },
  },
  autoingest: [
    {
      enabled: false,
      pattern: '',
      max_rows_per_partition: 12288000,
      destination: '/tmp/scratch',
      max_minutes_per_partition: 60,
      max_active_partitions: 50,
      input_aggregation: 1073741824,
      dry_run: false,
    },
  ],
  sort_keys: [],
  shard_key: null,
  max_future_days: 0,
}

/** The table defaults: the cluster's (`defaults.table`), each missing value from the spec's. */
export async function loadTableDefaults(api: ClusterApi): Promise<{ defaults: TableSettings; isBuiltIn: boolean }> {
  const answer = await settle(() => getDefaults(api))
  const fromCluster = answer.value?.table
  if (!fromCluster || typeof fromCluster !== 'object') return { defaults: BUILT_IN_TABLE_DEFAULTS, isBuiltIn: true }
  return { defaults: mergeDeep(BUILT_IN_TABLE_DEFAULTS, fromCluster as Record<string, unknown>), isBuiltIn: false }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value)
}

function setAt(record: Record<string, unknown>, path: string[], value: unknown) {
  let node = record
  for (const key of path.slice(0, -1)) {
    if (!isRecord(node[key])) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[path[path.length - 1]!] = value
}

function deleteAt(record: Record<string, unknown>, path: string[]) {
  const parent = valueAt(record, path.slice(0, -1))
  if (isRecord(parent)) delete parent[path[path.length - 1]!]
}

/** Why a field cannot be edited on this table, if it cannot. */
function lockReason(field: SettingField, table: Table): string | undefined {
  if (field.name === 'shard_key' && table.settings?.shard_key) return SETTINGS_MESSAGES.shardKeyImmutable
  return undefined
}

/** The groups this table has: Summary only on a summary table. */
export function groupsOf(table: Pick<Table, 'type'>): SettingsGroupDef[] {
  return SETTINGS_GROUPS.filter((group) => group.key !== 'summary' || table.type === 'summary')
}

export type SettingsFieldView = {
  name: string
  label: string
  kind: SettingField['kind']
  required: boolean
  help?: string
  rows?: number
  /** The default shown as the placeholder ("empty takes the default"). */
  placeholder?: string
  /** Read-only, and why. */
  lockedBecause?: string
}

export type SettingsStep = {
  key: string
  title: string
  description: string
  fields: SettingsFieldView[]
  /** The form's starting values: the table's current settings, as text. */
  values: Record<string, string>
  /** True when the defaults call failed and the spec's built-in values stand in. */
  isBuiltInDefaults: boolean
  /** The group's current settings as JSON (the "Edit as JSON" form). */
  json: string
  /** Show the JSON form (`&as=json`) instead of the fields. */
  asJson: boolean
  /** The group's stored values (JSON, null and absent as stored): a save writes only what differs from them. */
  original: string
  /**
   * The form's HTML constraints, from the schema the browser loads after hydration (decision 077):
   * the JSON form's, or the fields' with the locked ones free and a blank stored field allowed blank.
   */
  constraint: FormConstraint
}

/** One group's form data for `?edit=<group>`; null when the table has no such group. */
export async function loadSettingsStep(
  api: ClusterApi,
  table: Table,
  groupKey: string | null,
  options: { asJson?: boolean } = {},
): Promise<SettingsStep | null> {
  const group = groupsOf(table).find((candidate) => candidate.key === groupKey)
  if (!group) return null
  const { defaults, isBuiltIn } = await loadTableDefaults(api)
  const values: Record<string, string> = {}
  const fields = group.fields.map((field): SettingsFieldView => {
    const text = toFormText(field, valueAt(table.settings, field.path))
    if (text !== undefined) values[field.name] = text
    const fallback =
      field.kind === 'bool' || field.unsetWhenEmpty ? undefined : toFormText(field, valueAt(defaults, field.path))
    return {
      name: field.name,
      label: field.label,
      kind: field.kind,
      required: Boolean(field.required),
      help: field.help,
      rows: field.rows,
      placeholder: fallback ? `Default: ${fallback}` : undefined,
      lockedBecause: lockReason(field, table),
    }
  })
  const json: Record<string, unknown> = {}
  for (const field of group.fields) {
    const value = valueAt(table.settings, field.path)
    if (value !== undefined) setAt(json, field.path, value)
  }
  return {
    key: group.key,
    title: group.title,
    description: group.description,
    fields,
    values,
    isBuiltInDefaults: isBuiltIn,
    json: JSON.stringify(json, null, 2),
    asJson: Boolean(options.asJson),
    original: JSON.stringify(json),
    constraint: getZodConstraint(
      options.asJson
        ? JsonSettingsSchema
        : settingsSchema(group, {
            lockedFields: fields.filter((field) => field.lockedBecause).map((field) => field.name),
            unsetFields: group.fields.filter((field) => values[field.name] === undefined).map((field) => field.name),
          }),
    ),
  }
}

/** Where a group's fields show the cluster's flattened errors (`settings.stream.hot_data_max_age_minutes`). */
function renameMap(group: SettingsGroupDef): Record<string, string> {
  const map: Record<string, string> = {}
  for (const field of group.fields) {
    map[['settings', ...field.path].join('.')] = field.name
    // An error on a whole nested object (`settings.storage_map`) goes to its first field.
    const parent = ['settings', ...field.path.slice(0, -1)].join('.')
    if (field.path.length > 1) map[parent] ??= field.name
  }
  return map
}

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—'
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** The keys a save changes, `old → new` (secrets, the stream tokens, counted only). */
export function settingsDiff(group: SettingsGroupDef, before: unknown, after: unknown): string[] {
  const lines: string[] = []
  for (const field of group.fields) {
    const old = valueAt(before, field.path)
    const next = valueAt(after, field.path)
    if (JSON.stringify(old ?? null) === JSON.stringify(next ?? null)) continue
    const key = field.path.join('.')
    if (field.name === 'token_list') {
      lines.push(`${key}: ${Array.isArray(old) ? old.length : 0} → ${Array.isArray(next) ? next.length : 0} tokens`)
    } else {
      lines.push(`${key}: ${show(old)} → ${show(next)}`)
    }
  }
  return lines
}

const DAY_MS = 86_400_000

/**
 * A lifecycle change that would remove rows already stored, said with what goes (from the table's
 * statistics: rows, bytes, the oldest row); null when nothing stored is older than the new max age.
 */
async function dropWarning(
  api: ClusterApi,
  projectId: string,
  table: Table,
  settings: Record<string, unknown>,
): Promise<string | null> {
  const next = Number(valueAt(settings, ['age', 'max_age_days']) ?? 0)
  const previous = Number(valueAt(table.settings, ['age', 'max_age_days']) ?? 0)
  if (!(next > 0) || (previous > 0 && next >= previous)) return null
  const stats = (await settle(() => getTableStats(api, projectId, table.uuid))).value
  const oldest = stats?.oldest_timestamp ? Date.parse(stats.oldest_timestamp) : NaN
  const cutoff = Date.now() - next * DAY_MS
  if (!Number.isFinite(oldest) || oldest >= cutoff) return null
  const held =
    stats?.total_rows !== undefined
      ? ` The table holds ${formatNumber(stats.total_rows)} ` +
        `rows${stats.compressed_data_size !== undefined ? ` (${formatBytes(stats.compressed_data_size)} stored)` : ''}.`
      : ''
  return (
    `A max age of ${next} days removes every row older ` +
    `than ${new Date(cutoff).toISOString().slice(0, 10)}; the oldest row is ` +
    `from ${new Date(oldest).toISOString().slice(0, 10)}.${held} Tick “Remove the older data” ` +
    `and save again to go ahead.`
  )
}

type TableRef = { table: Table; project: Pick<Project, 'uuid' | 'name'> }

/**
 * The group's fields a save writes (not `unwritten`) whose value on the table is no longer the one
 * the form was rendered from (its `original`) and differs from what was posted: fields as text, as
 * the form shows them; the group edited as JSON (`posted`), value by value.
 */
export function settingConflicts(
  group: SettingsGroupDef,
  formData: FormData,
  posted: unknown,
  table: Pick<Table, 'settings'>,
  unwritten: readonly string[],
): FieldConflict[] {
  const seen = parseOriginal(formData.get('original'))
  if (!seen) return []
  const asJson = (value: unknown) => (value === undefined ? '' : JSON.stringify(value))
  return conflictsOf(
    group.fields
      .filter((field) => !unwritten.includes(field.name))
      .map((field) =>
        posted === undefined
          ? {
              field: field.name,
              label: field.label,
              seen: toFormText(field, valueAt(seen, field.path)),
              now: toFormText(field, valueAt(table.settings, field.path)),
              posted: formData.get(field.name),
              isMultiline: isTextareaField(field),
            }
          : {
              field: field.name,
              label: field.path.join('.'),
              seen: asJson(valueAt(seen, field.path)),
              now: asJson(valueAt(table.settings, field.path)),
              posted: asJson(valueAt(posted, field.path)),
            },
      ),
  )
}

/**
 * Saves one group of settings: validated by the group's schema (the spec's messages at the fields),
 * empty values take the defaults (or are unset, for query options), a locked shard key is kept as
 * it is; the cluster's 400 comes back on the group's fields. Redirects to the table with a toast
 * naming what changed.
 */
export async function saveSettingsAction(api: ClusterApi, formData: FormData, { table, project }: TableRef) {
  const group = groupsOf(table).find((candidate) => candidate.key === formData.get('group'))
  if (!group) throw data({ message: 'Unknown settings group' }, { status: 400 })
  const locked = group.fields.filter((field) => lockReason(field, table)).map((field) => field.name)
  const isJson = formData.get('format') === 'json'
  const jsonSubmission = parseWithZod(formData, { schema: JsonSettingsSchema })
  if (isJson && jsonSubmission.status !== 'success') return data({ result: jsonSubmission.reply() }, { status: 400 })
  const posted = isJson && jsonSubmission.status === 'success' ? jsonSubmission.value.json : undefined
  // Lossless (decision 072): a field posted as the form rendered it from the stored value keeps the
  // stored value and is not checked again (the browser's check skips the same fields).
  const kept = keptSettingFields(group, formData, posted)
  const unset = group.fields
    .filter((field) => valueAt(table.settings ?? {}, field.path) == null)
    .map((field) => field.name)
  const schema = settingsSchema(group, { lockedFields: [...locked, ...kept], unsetFields: unset })
  let submission: { reply: (typeof jsonSubmission)['reply'] }
  const parseFields = (source: FormData) => parseWithZod(source, { schema })
  let parsed: ReturnType<typeof parseFields>
  let rename = renameMap(group)
  let onField = (name: string, messages: string[]) => ({ [name]: messages })
  if (posted) {
    // The same group edited as JSON: read into the form's fields, then the same schema and save.
    const fields = new FormData()
    for (const field of group.fields) {
      const text = toFormText(field, valueAt(posted, field.path))
      if (text !== undefined) fields.set(field.name, text)
    }
    parsed = parseFields(fields)
    submission = jsonSubmission
    const labelOf = (name: string) => group.fields.find((field) => field.name === name)?.path.join('.') ?? name
    onField = (name, messages) => ({ json: messages.map((message) => `${labelOf(name)}: ${message}`) })
    rename = Object.fromEntries(Object.keys(rename).map((key) => [key, 'json']))
    if (parsed.status !== 'success') {
      const errors = Object.entries(parsed.error ?? {}).flatMap(
        ([name, messages]) => (onField(name, messages ?? []) as { json?: string[] }).json ?? [],
      )
      return data({ result: jsonSubmission.reply({ fieldErrors: { json: errors } }) }, { status: 400 })
    }
  } else {
    parsed = parseFields(formData)
    submission = parsed
    if (parsed.status !== 'success') return data({ result: parsed.reply() }, { status: 400 })
  }

  // no silent lost update (decision 097): a field changed here that the cluster changed meanwhile
  const conflicts = settingConflicts(group, formData, posted, table, [...locked, ...kept])
  if (conflicts.length) {
    const seen = parseOriginal(formData.get('original'))!
    for (const conflict of conflicts) {
      const path = group.fields.find((field) => field.name === conflict.field)!.path
      const now = valueAt(table.settings, path)
      if (now === undefined) deleteAt(seen, path)
      else setAt(seen, path, structuredClone(now))
    }
    return refuseConflicts(api, submission as unknown as Parameters<typeof refuseConflicts>[1], conflicts, {
      current: table,
      original: JSON.stringify(seen),
      placeOf: posted ? () => 'json' : undefined,
    })
  }

  const { defaults } = await loadTableDefaults(api)
  const settings = structuredClone(table.settings ?? {}) as Record<string, unknown>
  const values = parsed.value as Record<string, string | undefined>
  for (const field of group.fields) {
    if (locked.includes(field.name) || kept.includes(field.name)) continue
    const value = fromFormText(field, values[field.name])
    if (value !== undefined) setAt(settings, field.path, value)
    else if (field.unsetWhenEmpty) deleteAt(settings, field.path)
    else setAt(settings, field.path, structuredClone(valueAt(defaults, field.path) ?? null))
  }
  // A shard key nobody set stays null (the cluster's "not set"), never an empty string.
  if (group.key === 'index' && settings.shard_key === undefined && !kept.includes('shard_key'))
    settings.shard_key = null
  if (group.key === 'lifecycle' && formData.get('confirmDrop') !== 'on') {
    const warning = await dropWarning(api, project.uuid, table, settings)
    if (warning) return data({ result: submission.reply({ formErrors: [warning] }) }, { status: 400 })
  }
  if (group.key === 'summary') {
    const refusal = await loadFromCluster(() =>
      checkSummarySql(api, String(valueAt(settings, ['summary', 'sql']) ?? '')),
    )
    if (refusal)
      return data({ result: submission.reply({ fieldErrors: onField('summary_sql', [refusal]) }) }, { status: 400 })
  }

  let saved: Table
  try {
    saved = await replaceTable(api, project.uuid, table.uuid, { ...table, settings })
  } catch (error) {
    return replyFromCluster(submission, error, { rename })
  }
  const changes = settingsDiff(group, table.settings, saved.settings)
  return redirectWithToast(`${tableUrl(table.uuid, project.uuid)}#settings`, {
    title: changes.length ? `${group.title} saved` : `${group.title}: nothing changed`,
    description: changes.length ? changes.join('; ') : undefined,
    type: 'success',
  })
}

/**
 * Renames (and re-describes) the table, writing only what differs from the stored values the form
 * was rendered from (a stored name the form's rules refuse stays when unchanged); the cluster's 400
 * at the fields. Redirects to the table with a toast.
 */
export async function renameTableAction(api: ClusterApi, formData: FormData, { table, project }: TableRef) {
  const original = parseOriginal(formData.get('original'))
  const isKept = (field: 'name' | 'description') =>
    original !== undefined && !isTextChanged(formData.get(field), original[field])
  const schema = isKept('name') ? RenameTableSchema.extend({ name: z.string().optional() }) : RenameTableSchema
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  if (original) {
    const now = { name: table.name, description: table.description }
    const conflicts = conflictsOf(
      (['name', 'description'] as const)
        .filter((field) => !isKept(field))
        .map((field) => ({
          field,
          label: field === 'name' ? 'Table name' : 'Description',
          seen: original[field],
          now: now[field],
          posted: formData.get(field),
        })),
    )
    if (conflicts.length)
      return refuseConflicts(api, submission, conflicts, {
        current: table,
        original: JSON.stringify(seenAgain(original, now, conflicts)),
      })
  }
  const changes: Record<string, unknown> = {}
  if (!isKept('name')) changes.name = submission.value.name
  if (!isKept('description')) changes.description = submission.value.description ?? ''
  const name = typeof changes.name === 'string' ? changes.name : table.name
  if (Object.keys(changes).length) {
    try {
      await patchTable(api, project.uuid, table.uuid, changes)
    } catch (error) {
      return replyFromCluster(submission, error, { rename: { name: 'name', description: 'description' } })
    }
  }
  const renamed = name !== table.name
  return redirectWithToast(tableUrl(table.uuid, project.uuid), {
    title: renamed ? `Table ${table.name} renamed to ${name}` : `Table ${table.name} saved`,
    type: 'success',
  })
}

/** Truncates the table after FORCE was typed; without it the confirmation comes back with the field's error. */
export async function truncateTableAction(api: ClusterApi, formData: FormData, { table, project }: TableRef) {
  const confirmation = parseWithZod(formData, { schema: ForceConfirmSchema })
  if (confirmation.status !== 'success') return data({ truncateResult: confirmation.reply() }, { status: 400 })
  await loadFromCluster(() => truncateTable(api, project.uuid, table.uuid))
  return redirectWithToast(tableUrl(table.uuid, project.uuid), {
    title: `Table ${table.name} truncated`,
    type: 'success',
  })
}

export { settingsGroup }

export type SettingsOverviewGroup = { key: string; title: string; entries: { label: string; value: string }[] }

/** Every group of the table with its current values, for the page's Settings panel (tokens counted). */
export function settingsOverview(table: Table): SettingsOverviewGroup[] {
  return groupsOf(table).map((group) => ({
    key: group.key,
    title: group.title,
    entries: group.fields
      .map((field) => {
        const value = valueAt(table.settings, field.path)
        if (field.name === 'token_list') {
          const count = Array.isArray(value) ? value.length : 0
          return {
            label: field.label.replace(' (one per line)', ''),
            value: `${count} ${count === 1 ? 'token' : 'tokens'}`,
          }
        }
        if (field.kind === 'bool')
          return { label: field.label, value: value === undefined ? '—' : toFormText(field, value) ? 'Yes' : 'No' }
        return { label: field.label, value: show(value) }
      })
      // Query options: only the ones set.
      .filter((entry, index) => !group.fields[index]!.unsetWhenEmpty || entry.value !== '—' || group.key !== 'query'),
  }))
}
