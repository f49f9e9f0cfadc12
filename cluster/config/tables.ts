import type { ClusterRouter } from '../context'
import { json } from '../http'
import { authorize } from './access'
import { audit } from './audit'
import { asResource, defineResource, objectOf, type Item, type ResourceApi } from './crud'
import { AUTOINGEST_DEFAULTS, queryOptionsField, tableDefaults } from './defaults'
import { activity } from './projects'
import { descriptionField, f, IDENTIFIER_NAME, REQUIRED, type Errors, type Fields } from './schema'

/** Tables: `projects/{p}/tables/` with settings over the defaults, truncate, stats, activity. */

const count = (o: { min?: number; help?: string } = {}) => f.int({ min: 0, ...o })

const streamFields: Fields = {
  token_auth_enabled: f.bool(),
  token_list: f.list(f.str({ blank: false })),
  hot_data_max_age_minutes: count({ min: 1 }),
  hot_data_max_active_partitions: count({ min: 1 }),
  hot_data_max_rows_per_partition: count({ min: 1 }),
  hot_data_max_minutes_per_partition: count({ min: 1 }),
  hot_data_max_open_seconds: count({ min: 1 }),
  hot_data_max_idle_seconds: count({ min: 1 }),
  cold_data_max_age_days: count({ min: 1 }),
  cold_data_max_active_partitions: count({ min: 1 }),
  cold_data_max_rows_per_partition: count({ min: 1 }),
  cold_data_max_minutes_per_partition: count({ min: 1 }),
  cold_data_max_open_seconds: count({ min: 1 }),
  cold_data_max_idle_seconds: count({ min: 1 }),
  message_queue_max_rows: count(),
}

const autoingestFields: Fields = {
  enabled: f.bool(),
  source: f.str({ blank: true, help: 'Queue URL or notification source' }),
  source_region: f.str({ blank: true }),
  pattern: f.str({ blank: true, help: 'Regular expression the object paths must match' }),
  dry_run: f.bool(),
  destination: f.str({ blank: true }),
  max_rows_per_partition: count({ min: 1 }),
  max_minutes_per_partition: count({ min: 1 }),
  max_active_partitions: count({ min: 1 }),
  input_aggregation: count(),
  source_credential_id: f.uuid({ nullable: true }),
  bucket_credential_id: f.uuid({ nullable: true }),
}

export const tableSettingsFields: Fields = {
  stream: f.obj(streamFields, { label: 'Stream' }),
  age: f.obj({ max_age_days: count({ help: '0 keeps data forever' }) }, { label: 'Age' }),
  reaper: f.obj({ max_age_days: count() }, { label: 'Reaper' }),
  merge: f.obj(
    {
      enabled: f.bool(),
      partition_duration_minutes: count({ min: 1 }),
      input_aggregation: count(),
      max_candidates: count({ min: 1 }),
      max_rows: count({ min: 1 }),
      max_partitions_per_candidate: count({ min: 1 }),
      min_age_mins: count(),
      max_age_mins: count(),
      memory_coefficient: f.float({ min: 0 }),
      pools: f.obj(
        {
          small: f.str({ blank: true, nullable: true }),
          medium: f.str({ blank: true, nullable: true }),
          large: f.str({ blank: true, nullable: true }),
        },
        { nullable: true },
      ),
      sql: f.str({ nullable: true, blank: true }),
    },
    { label: 'Merge' },
  ),
  autoingest: f.list(f.obj(autoingestFields), { label: 'Autoingest' }),
  sort_keys: f.list(f.str({ blank: false }), { help: 'Columns the table is sorted by' }),
  shard_key: f.str({ nullable: true, blank: false, help: 'Cannot be changed once set' }),
  max_future_days: count(),
  max_request_bytes: count(),
  rate_limit: f.json({ nullable: true }),
  default_query_options: queryOptionsField(),
  storage_map: f.obj(
    {
      default_storage_id: f.uuid({ nullable: true }),
      column_name: f.str({ blank: false, nullable: true }),
      column_value_mapping: f.json({ nullable: true }),
    },
    { nullable: true },
  ),
  summary: f.obj(
    {
      enabled: f.bool(),
      sql: f.str({ blank: false }),
      parents: f.json({ readOnly: true }),
      summary_sql: f.json({ readOnly: true }),
    },
    { nullable: true },
  ),
}

const SUMMARY_FROM = /\bFROM\s+`?"?([A-Za-z0-9_-]+)`?"?\s*\.\s*`?"?([A-Za-z0-9_#-]+)`?"?/i

export function registerTables(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'table',
    resource: 'table',
    label: 'table',
    level: 'project',
    path: 'tables',
    itemParam: 'table',
    namePattern: IDENTIFIER_NAME,
    description: 'Tables hold data; settings not given are filled from the defaults.',
    fields: {
      description: descriptionField(),
      type: f.str({ choices: ['turbine', 'summary'], help: 'turbine (default) or summary' }),
      settings: f.obj(tableSettingsFields),
    },
    settingsDefaults: () => tableDefaults(),
    // a live table's keys that are not fields here (`table_type: null`) are kept as sent
    keepUnknownKeys: { except: ['primary_key'] },
    // `?type=summary`: the summary tables of a project (a table page asks which ones its table feeds)
    listFilter: (items, ctx) => {
      const type = ctx.url.searchParams.get('type')
      return type ? items.filter((item) => (item.type ?? 'turbine') === type) : items
    },
    immutable: [
      { path: ['settings', 'shard_key'], onceSet: true, message: 'The shard key cannot be changed once set.' },
      { path: ['type'], message: 'The table type cannot be changed.' },
    ],
    prepare({ ctx, data, errors }) {
      data.type ??= 'turbine'
      const settings = data.settings as Record<string, unknown>
      // every autoingest entry is filled from the defaults, like the other groups
      settings.autoingest = (settings.autoingest as Record<string, unknown>[]).map((a) => ({
        ...AUTOINGEST_DEFAULTS,
        ...a,
      }))
      const settingErrors: Errors = {}
      const aiErrors = (settings.autoingest as Record<string, unknown>[]).map((a) => {
        const e: Errors = {}
        if (a.enabled && !a.source) e.source = ['A queue (source) is required when autoingest is enabled.']
        for (const key of ['source_credential_id', 'bucket_credential_id']) {
          if (a[key] && !ctx.cluster.store.get('credential', String(a[key])))
            e[key] = [`Credential "${a[key]}" does not exist.`]
        }
        return e
      })
      if (aiErrors.some((e) => Object.keys(e).length)) settingErrors.autoingest = aiErrors
      const map = settings.storage_map as Record<string, unknown> | null
      if (map?.default_storage_id && !ctx.cluster.store.get('storage', String(map.default_storage_id))) {
        settingErrors.storage_map = { default_storage_id: [`Storage "${map.default_storage_id}" does not exist.`] }
      }
      if (data.type === 'summary') {
        const summary = (settings.summary ?? {}) as Record<string, unknown>
        if (typeof summary.sql !== 'string' || !summary.sql.trim()) {
          settingErrors.summary = { sql: [REQUIRED] }
        } else {
          const m = SUMMARY_FROM.exec(summary.sql)
          const parent = m && findTable(ctx.cluster.store, m[1], m[2].split('#')[0])
          if (!parent)
            settingErrors.summary = {
              sql: [
                m
                  ? `The parent table ${m[1]}.${m[2]} does not exist.`
                  : 'The SQL must select FROM a parent table (project.table).',
              ],
            }
          else settings.summary = { enabled: true, ...summary, parents: [`${m![1]}.${m![2].split('#')[0]}`] }
        }
      }
      if (Object.keys(settingErrors).length) errors.settings = settingErrors
    },
    serialize(item, ctx) {
      return { primary_key: primaryKeyOf(ctx.cluster.store, item) }
    },
    serializeReads: ['transform'],
    async afterSave({ ctx, item, previous, parents }) {
      if (previous && previous.name !== item.name) {
        await ctx.cluster.data.hooks.tableRenamed({
          project: asResource(parents.project!),
          table: asResource(item),
          previousName: previous.name,
        })
      }
    },
    async beforeDelete({ ctx, item, parents }) {
      await ctx.cluster.data.hooks.tableDeleted({ project: asResource(parents.project!), table: asResource(item) })
    },
    routes(router, api) {
      router.post(`${api.itemPattern}/truncate`, async (ctx) => {
        const { item, parents } = api.load(ctx)
        const user = authorize(ctx, 'truncate_table', api.scopeOf(item, parents))
        await ctx.cluster.data.hooks.tableTruncated({ project: asResource(parents.project!), table: asResource(item) })
        audit(ctx.cluster, user, 'truncate_table', `Truncated table "${parents.project!.name}.${item.name}"`, {
          kind: 'table',
          id: item.uuid,
          project: parents.project!.uuid,
          table: item.uuid,
          object: objectOf(item),
        })
        return json({ detail: `Table ${parents.project!.name}.${item.name} truncated.` })
      })
      router.get(`${api.itemPattern}/activity`, (ctx) => {
        const { item, parents } = api.load(ctx)
        authorize(ctx, 'activity_table', api.scopeOf(item, parents))
        return activity(ctx, (e) => e.table === item.uuid)
      })
      router.get(`${api.itemPattern}/stats`, async (ctx) => {
        const { item, parents } = api.load(ctx)
        authorize(ctx, 'stats_table', api.scopeOf(item, parents))
        const figures = await ctx.cluster.data.hooks.tableStats({
          project: asResource(parents.project!),
          table: asResource(item),
        })
        return json({
          total_rows: 0,
          total_partitions: 0,
          raw_data_size: 0,
          compressed_data_size: 0,
          compressed_index_size: 0,
          compression_ratio: 0,
          oldest_timestamp: null,
          latest_timestamp: null,
          current_ingest_latency: null,
          ...figures,
        })
      })
    },
  })
}

type StoreLike = {
  find<T>(kind: string, p: (v: T) => boolean): T | undefined
  values<T>(kind: string): IterableIterator<Readonly<T>>
  children<T>(kind: string, field: '_org' | '_project' | '_table', parentId: string): IterableIterator<Readonly<T>>
  copy<T>(value: unknown): T
}

export function findTable(store: StoreLike, projectName: string, tableName: string): Item | undefined {
  const project = store.find<Item>('project', (p) => p.name === projectName)
  if (!project) return undefined
  for (const table of store.children<Item>('table', '_project', project.uuid))
    if (table.name === tableName) return store.copy<Item>(table)
  return undefined
}

/** The table's primary key: the primary column of its default transform ('' before one exists). */
export function primaryKeyOf(store: StoreLike, table: Item): string {
  // read in place: every serialized table asks, and copying its transforms (wide ones have
  // hundreds of columns) was most of a table list's cost
  let first: Readonly<Item> | undefined
  let transform: Readonly<Item> | undefined
  for (const t of store.children<Item>('transform', '_table', table.uuid)) {
    first ??= t
    if (t.settings?.is_default) {
      transform = t
      break
    }
  }
  transform ??= first
  const columns = (transform?.settings?.output_columns ?? []) as { name: string; datatype?: { primary?: boolean } }[]
  return columns.find((c) => c.datatype?.primary)?.name ?? ''
}
