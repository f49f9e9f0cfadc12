import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { getDefaults } from '~/api/defaults.server'
import { replyFromCluster, settle } from '~/api/policies.server'
import { createPool, poolUpdateBody, replacePool, type Pool } from '~/api/pools.server'
import type { Json } from '~/schemas/lossless'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { loadTableTransformPick, tableTransformOption } from '~/api/transforms.server'
import { transformOf } from '~/schemas/job'
import {
  kindNeedsTable,
  parseReplicas,
  parseSize,
  POOL_KINDS,
  POOL_MESSAGES,
  POOL_PLACES,
  poolEditForm,
  PoolFormSchema,
  replicasValue,
  SERVICES,
  type PoolEditForm,
  type PoolKind,
} from '~/schemas/pool'
import { redirectWithToast } from '~/utils/toast.server'
import { DEFAULT_TRANSFORM, defaultTransformOf } from '~/utils/table-transform'

/** A table the pool form offers (`project.table`) with its transforms (`project.table:name`). */

/** The sizes a pool gets when the form leaves them empty (the cluster's `defaults/`, else its documented ones). */
export type PoolSizeDefaults = { replicas: string; cpu: string; memory: string; storage: string }

const FALLBACK_DEFAULTS: PoolSizeDefaults = { replicas: '1', cpu: '0.5', memory: '0.5Gi', storage: '0.5Gi' }

/** Where the cluster's pool errors (as mapFieldErrors flattens them) show on the pool form. */
function poolFields(form: { minReplicas?: number; maxReplicas?: number }): Record<string, string> {
  const isRange = form.minReplicas !== undefined && form.maxReplicas !== undefined
  return {
    name: 'name',
    description: 'description',
    type: 'type',
    'settings.k8s_deployment.service': 'service',
    'settings.k8s_deployment.replicas': isRange ? 'minReplicas' : 'replicas',
    'settings.k8s_deployment.cpu': 'cpu',
    'settings.k8s_deployment.memory': 'memory',
    'settings.k8s_deployment.storage': 'storage',
    'settings.k8s_deployment.shards': 'shards',
    'settings.table': 'table',
    'settings.transform': 'transform',
    'settings.is_default': 'isDefault',
  }
}

/** Returns the pool sizes the cluster fills in; falls back to the documented ones when `defaults/` fails. */
export async function loadPoolDefaults(api: ClusterApi): Promise<PoolSizeDefaults> {
  const loaded = await settle(() => getDefaults(api))
  const k8s = ((loaded.value?.pool as { k8s_deployment?: Record<string, unknown> } | undefined)?.k8s_deployment ??
    {}) as Record<string, unknown>
  const pick = (key: keyof PoolSizeDefaults) =>
    k8s[key] === undefined || k8s[key] === null ? FALLBACK_DEFAULTS[key] : String(k8s[key])
  return { replicas: pick('replicas'), cpu: pick('cpu'), memory: pick('memory'), storage: pick('storage') }
}

/**
 * The create form's data: the kind from `?type=` (ingest otherwise), its service when it has only one, the table from
 * `?table=` with its default transform, the tables with their transforms, the default sizes. Throws ClusterError.
 */
export async function loadCreatePool(api: ClusterApi, url: URL) {
  const wanted = url.searchParams.get('type')
  const type: PoolKind = (POOL_KINDS as readonly string[]).includes(wanted ?? '') ? (wanted as PoolKind) : 'ingest'
  // the tables a search finds, not every table of the org (issue 33)
  // transforms read for the table `?table=` picks only (decision 085): none is picked otherwise
  const [pick, defaults] = await Promise.all([loadTableTransformPick(api, url), loadPoolDefaults(api)])
  // A kind with one service (search: query-peer) has it picked already.
  const services = SERVICES[type]
  // `?table=project.table` (from the ingest tab) picks the table and its default transform.
  const table = pick.chosen ?? undefined
  return {
    type,
    service: services.length === 1 ? services[0]!.value : '',
    table: table?.value ?? '',
    transform: defaultTransformOf(table),
    tables: pick.options,
    search: pick.search,
    defaults,
  }
}

/**
 * The create action: validates the form, checks an ingest pool's table and transform exist, creates
 * the pool and redirects to it with a toast. Validation and the cluster's 400s come back on the
 * form's fields with everything typed kept.
 */
export async function createPoolAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PoolFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const form = submission.value
  const needsTable = kindNeedsTable(form.type)
  let transform: string | undefined
  if (needsTable) {
    // The options were right when the page was made; the table or transform may be gone since (the
    // one table chosen is read, not every table of the org).
    let table: Awaited<ReturnType<typeof tableTransformOption>>
    try {
      table = await tableTransformOption(api, form.table ?? '')
    } catch (error) {
      return replyFromCluster(submission, error)
    }
    const fieldErrors: Record<string, string[]> = {}
    // `project.table:*` (a table whose transforms the page did not read): its default, else its first
    const sent =
      table && form.transform === `${table.value}:${DEFAULT_TRANSFORM}` ? defaultTransformOf(table) : form.transform
    if (!table) fieldErrors.table = [`Table ${form.table} does not exist`]
    else if (!sent) fieldErrors.transform = [`${form.table} has no transform`]
    else if (!table.transforms?.some((entry) => entry.value === sent))
      fieldErrors.transform = [POOL_MESSAGES.transformOfTable]
    else transform = transformOf(form.table, sent) ?? undefined
    if (Object.keys(fieldErrors).length) return data({ result: submission.reply({ fieldErrors }) }, { status: 400 })
  }
  try {
    const pool = await createPool(api, {
      name: form.name,
      description: form.description,
      type: form.type,
      service: form.service,
      table: needsTable ? form.table : undefined,
      transform: needsTable ? transform : undefined,
      ...sizesOf(form),
    })
    return redirectWithToast(`/scale/pool/${pool.uuid}`, { title: `Pool ${pool.name} created`, type: 'success' })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: poolFields(form) })
  }
}

/** What the create and edit forms both send: the replicas, sizes, shards and the default flag. */
function sizesOf(form: PoolEditForm) {
  return {
    replicas: replicasValue(form),
    cpu: form.cpu,
    memory: form.memory,
    storage: form.storage,
    shards: form.shards,
    isDefault: form.isDefault,
  }
}

/** A size as the form shows it: the cluster's own words when they have a unit, else the bytes in Gi or Mi. */
function sizeInput(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'string' && /[A-Za-z]$/.test(value.trim())) return value.trim()
  const bytes = parseSize(value)
  if (bytes === null) return String(value)
  const gi = bytes / 2 ** 30
  return Number.isInteger(gi * 1000) ? `${gi}Gi` : `${Math.round(bytes / 2 ** 20)}Mi`
}

/** The edit form's starting values, and the same as `original` (JSON) for a lossless save (decision 072). */
export function poolEditValues(pool: Pool): Record<string, string | boolean | undefined> {
  const rendered = poolFormValues(pool)
  return { ...rendered, original: JSON.stringify(rendered) }
}

/** The edit form's values for `pool`: a fixed count as Replicas, a range as Min and Max. */
function poolFormValues(pool: Pool): Record<string, string | boolean | undefined> {
  const k8s = pool.settings?.k8s_deployment ?? {}
  const replicas = parseReplicas(k8s.replicas)
  const isRange = replicas !== null && replicas.min !== replicas.max
  return {
    description: pool.description ?? '',
    replicas:
      replicas && !isRange
        ? String(replicas.min)
        : k8s.replicas === undefined || replicas
          ? undefined
          : String(k8s.replicas),
    minReplicas: isRange ? String(replicas.min) : undefined,
    maxReplicas: isRange ? String(replicas.max) : undefined,
    cpu: k8s.cpu === undefined || k8s.cpu === null ? undefined : String(k8s.cpu),
    memory: sizeInput(k8s.memory),
    storage: sizeInput(k8s.storage),
    shards: k8s.shards === undefined || k8s.shards === null ? undefined : String(k8s.shards),
    isDefault: Boolean(pool.settings?.is_default),
  }
}

/** The edit fields as a conflict names them. */
const POOL_LABELS: Record<string, string> = {
  description: 'Description',
  replicas: 'Replicas',
  minReplicas: 'Min replicas',
  maxReplicas: 'Max replicas',
  cpu: 'CPU',
  memory: 'Memory',
  storage: 'Storage',
  shards: 'Shards',
  isDefault: 'Default pool',
}

/**
 * The edit action: validates what the operator changed, writes only that onto the stored pool (its
 * name, type, service, table, transform and every other key as stored) and redirects back to it with
 * a toast; errors come back on the fields.
 */
export async function updatePoolAction(api: ClusterApi, pool: Pool, formData: FormData) {
  // the same rule as the browser's check (decision 103)
  const { kept, submission } = parseEdit(formData, poolEditForm, undefined)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const form = submission.value as PoolEditForm
  return saveEdit(api, submission, {
    formData,
    kept,
    // no silent lost update (decision 097): the pool as the page's loader read it
    read: async () => pool,
    rendered: poolFormValues,
    places: POOL_PLACES,
    labels: POOL_LABELS,
    multiline: ['description'],
    onto: (stored): Json => ({
      name: stored.name,
      ...(stored.description !== undefined ? { description: stored.description } : {}),
      ...(stored.type !== undefined ? { type: stored.type } : {}),
      settings: stored.settings ?? {},
    }),
    body: (_value, stored) => poolUpdateBody(stored, { description: form.description, ...sizesOf(form) }),
    write: (body, stored) => replacePool(api, stored.uuid, body),
    done: (saved) =>
      redirectWithToast(`/scale/pool/${saved.uuid}`, { title: `Pool ${saved.name} saved`, type: 'success' }),
    rename: poolFields(form),
  })
}
