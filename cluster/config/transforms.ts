import crypto from 'node:crypto'
import type { ClusterRouter, Ctx } from '../context'
import { json, notFound, nowIso, readJsonObject, validationError } from '../http'
import type { Store } from '../store'
import { authorize } from './access'
import { audit } from './audit'
import { asResource, checkValue, defineResource, extraChildKinds, type Item, type ResourceApi } from './crud'
import { transformDefaults } from './defaults'
import { descriptionField, f, IDENTIFIER_NAME, nameField, type Errors, type Field, type Fields } from './schema'

/** Transforms, views and alias columns of a table. */

export const COLUMN_TYPES = [
  'string',
  'boolean',
  'bool',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float',
  'float32',
  'float64',
  'double',
  'datetime',
  'datetime64',
  'epoch',
  'array',
  'map',
  'json',
  'ip',
  'uuid',
] as const

const TIME_TYPES = ['datetime', 'datetime64', 'epoch']
const EPOCH_FORMATS = ['s', 'ms', 'us', 'ns', 'cs']
// the units spelled out, as Hydrolix's published Kinesis CloudFront transform writes its primary
// (`"format": "seconds"`); the mappers already read them (EPOCH_FACTORS)
const EPOCH_FORMATS_SPELLED = ['seconds', 'milliseconds', 'microseconds', 'nanoseconds']

// A live cluster answers `primary: null` (and null for the other flags it has no value for) on every
// column that is not the primary: null is accepted and kept, and read as absent (issue 50)
const flag = () => f.bool({ nullable: true })

const datatypeFields = (): Fields => ({
  type: f.str({ required: true, choices: COLUMN_TYPES }),
  primary: flag(),
  index: flag(),
  index_options: f.obj({ fulltext: flag() }, { nullable: true }),
  format: f.str({ nullable: true, blank: true, help: 'Go time layout for datetime; s, ms, us, ns or cs for epoch' }),
  // ms or s (spec); the long spellings seen in real transforms are accepted as the same thing
  resolution: f.str({ nullable: true, choices: ['ms', 's', 'milliseconds', 'seconds'], help: 'ms or s' }),
  default: f.json({ nullable: true }),
  script: f.str({ nullable: true, blank: true }),
  source: f.json({ nullable: true }),
  elements: f.list({ type: 'nested object', children: {} }, { nullable: true }),
  ignore: flag(),
  suppress: flag(),
  virtual: flag(),
  catch_all: flag(),
  denullify: flag(),
  limits: f.json({ nullable: true }),
})

const COLUMN_NAME = /^[^\s`'"\\]+$/

/** Transform names: a letter first, then letters, digits, underscores and hyphens. */
const TRANSFORM_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/

export const columnField = (): Field =>
  f.obj({
    name: f.str({
      required: true,
      blank: false,
      maxLength: 255,
      pattern: COLUMN_NAME,
      patternMessage: 'Column names cannot contain spaces or quotes.',
    }),
    datatype: f.obj(datatypeFields(), { required: true }),
  })

// each part may be null as a live cluster answers it (CSV transforms answer `flattening: null`, a
// strategy `right: null`); null reads as absent, so the defaults of the readers apply
const strategy = () =>
  f.obj(
    { left: f.str({ blank: true, nullable: true }), right: f.str({ blank: true, nullable: true }) },
    { nullable: true },
  )

const formatDetailsFields: Fields = {
  // kept as given: a tab (or any whitespace) is a delimiter, so only the empty string is blank
  delimiter: f.str({
    blank: true,
    nullable: true,
    check: ((v: string) => (v === '' ? 'This field may not be blank.' : undefined)) as never,
  }),
  skip_head: f.int({ min: 0, nullable: true }),
  quote: f.str({ blank: true, nullable: true }),
  comment: f.str({ blank: true, nullable: true }),
  skip_comments: flag(),
  escape: f.str({ blank: true, nullable: true }),
  windows_ending: flag(),
  buffer_size: f.int({ min: 1, nullable: true }),
  flattening: f.obj(
    {
      active: flag(),
      depth: f.int({ min: 0, nullable: true }),
      map_flattening_strategy: strategy(),
      slice_flattening_strategy: strategy(),
    },
    { nullable: true },
  ),
}

export const transformSettingsFields: Fields = {
  is_default: flag(),
  output_columns: f.list(columnField(), { required: true, minItems: 1 }),
  compression: f.str({
    blank: true,
    nullable: true,
    help: 'none, gzip, zip, zlib, bzip2 (comma-separated chains allowed)',
  }),
  null_values: f.list(f.str({ blank: true }), { nullable: true }),
  sql_transform: f.str({ nullable: true, blank: true }),
  sample_data: f.json({ nullable: true }),
  format_details: f.obj(formatDetailsFields, { nullable: true }),
  rate_limit: f.json({ nullable: true }),
  shadow_table: f.json({ nullable: true }),
  wurfl: f.json({ nullable: true }),
}

const COMPRESSIONS = ['none', '', 'gzip', 'zip', 'zlib', 'bzip2', 'deflate', 'snappy', 'lz4', 'zstd', 'xz']

type Column = { name: string; datatype: Record<string, unknown> }

const NO_INDEX_TYPES = ['double', 'float', 'float32', 'float64']

/** The spec's column rules; returns DRF errors for one datatype (elements checked recursively). */
function datatypeErrors(dt: Record<string, unknown>, nested: boolean): Errors {
  const e: Errors = {}
  const type = String(dt.type)
  const isTime = TIME_TYPES.includes(type)
  if (isTime && !dt.format && !dt.virtual) e.format = ['A format is required for datetime and epoch columns.']
  if (type === 'epoch' && dt.format && ![...EPOCH_FORMATS, ...EPOCH_FORMATS_SPELLED].includes(String(dt.format)))
    e.format = [`Epoch formats are ${EPOCH_FORMATS.join(', ')} (or ${EPOCH_FORMATS_SPELLED.join(', ')}).`]
  if (dt.primary && !isTime) e.primary = ['Only a datetime or epoch column can be primary.']
  if (dt.primary && nested) e.primary = ['An element cannot be primary.']
  if (dt.primary && dt.ignore) e.ignore = ['A primary column cannot be ignored.']
  // `index: true` on a double is the console form's rule (spec 5), not the API's: a real cluster holds it
  const fulltext = (dt.index_options as { fulltext?: boolean } | null)?.fulltext
  if (fulltext && dt.index === false) e.index_options = { fulltext: ['Full-text search needs the index enabled.'] }
  if (fulltext && type !== 'string') e.index_options = { fulltext: ['Full-text search is for string columns.'] }
  const elements = dt.elements as { type?: unknown }[] | null | undefined
  if (elements && elements.length && !['array', 'map'].includes(type))
    e.elements = ['Elements are only for array or map columns.']
  else if (type === 'array' && (!elements || elements.length !== 1))
    e.elements = ['An array column needs exactly one element type.']
  else if (type === 'map' && (!elements || elements.length !== 2))
    e.elements = ['A map column needs two element types (key and value).']
  else if (elements && elements.length) {
    const inner = elements.map((el) => {
      const dtEl = ((el as { datatype?: unknown }).datatype ?? el) as Record<string, unknown>
      if (typeof dtEl.type !== 'string' || !(COLUMN_TYPES as readonly string[]).includes(dtEl.type))
        return { type: [`"${String(dtEl.type)}" is not a valid choice.`] }
      return datatypeErrors(dtEl, true)
    })
    if (inner.some((x) => Object.keys(x).length)) e.elements = inner
  }
  return e
}

/**
 * Fills what a stored column always answers: `datatype.index` (true, false for doubles, which cannot
 * be indexed). Clients read it as a required boolean (hydrolix_helpers' `DataType.index: bool`).
 */
export function withColumnDefaults(columns: Column[]): Column[] {
  // an `index: null` sent is kept as sent (a live cluster's value), only an absent one is filled
  return columns.map((c) =>
    c.datatype.index !== undefined
      ? c
      : { ...c, datatype: { ...c.datatype, index: !NO_INDEX_TYPES.includes(String(c.datatype.type)) } },
  )
}

/** Checks the output columns: each column's rules, unique names, and exactly one primary (if `needPrimary`). */
export function columnsErrors(columns: Column[], needPrimary: boolean): unknown {
  const perColumn: Errors[] = columns.map((c) => {
    const e = datatypeErrors(c.datatype, false)
    return Object.keys(e).length ? { datatype: e } : {}
  })
  const seen = new Set<string>()
  columns.forEach((c, i) => {
    if (seen.has(c.name)) perColumn[i] = { ...perColumn[i], name: [`Column "${c.name}" appears more than once.`] }
    seen.add(c.name)
  })
  if (perColumn.some((e) => Object.keys(e).length)) return perColumn
  if (needPrimary) {
    const primaries = columns.filter((c) => c.datatype.primary)
    if (primaries.length !== 1) {
      return [
        primaries.length
          ? `Exactly one primary column is allowed; found ${primaries.length}.`
          : 'A primary column (datetime or epoch) is required.',
      ]
    }
  }
  return undefined
}

export function registerTransforms(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'transform',
    resource: 'transform',
    label: 'transform',
    level: 'table',
    path: 'transforms',
    description: 'Transforms map incoming data onto the table columns.',
    fields: {
      // hyphens too: real clusters hold transform names such as `cloudfront-standard` (the console's
      // form keeps the spec's stricter rule for names an operator types)
      name: nameField(63, { pattern: TRANSFORM_NAME, patternMessage: IDENTIFIER_NAME.message }),
      description: descriptionField(),
      type: f.str({ required: true, choices: ['csv', 'json', 'hdx'] }),
      settings: f.obj(transformSettingsFields, { required: true }),
    },
    settingsDefaults: () => transformDefaults(),
    keepUnknownKeys: { except: [] },
    prepare({ data, body, errors }) {
      const settings = data.settings as Record<string, unknown>
      // a transform sent with `is_default: false` stays so, even as the table's first
      data._notDefault = (body.settings as Record<string, unknown> | undefined)?.is_default === false
      const settingErrors: Errors = {}
      const colErrors = columnsErrors(settings.output_columns as Column[], true)
      if (colErrors) settingErrors.output_columns = colErrors
      const compression = String(settings.compression ?? 'none')
      const bad = compression
        .split(',')
        .map((c) => c.trim())
        .filter((c) => !COMPRESSIONS.includes(c))
      if (bad.length) settingErrors.compression = [`Unknown compression: ${bad.join(', ')}.`]
      if (data.type === 'csv') {
        const fd = settings.format_details as Record<string, unknown> | null
        if (typeof fd?.delimiter === 'string' && fd.delimiter.length > 1 && fd.delimiter !== '\\t') {
          settingErrors.format_details = { delimiter: ['The delimiter must be one character.'] }
        }
      }
      if (Object.keys(settingErrors).length) errors.settings = settingErrors
      else settings.output_columns = withColumnDefaults(settings.output_columns as Column[])
    },
    async afterSave({ ctx, item, parents }) {
      const { store } = ctx.cluster
      const siblings = store.filter<Item>('transform', (t) => t._table === item._table && t.uuid !== item.uuid)
      let saved = item
      if (!item.settings.is_default && !item._notDefault && !siblings.some((t) => t.settings?.is_default)) {
        // the first transform of a table is its default, unless it was sent with `is_default: false`
        saved = { ...item, settings: { ...item.settings, is_default: true } }
        store.put('transform', item.uuid, saved)
      }
      await ctx.cluster.data.hooks.transformSaved({
        project: asResource(parents.project!),
        table: asResource(parents.table!),
        transform: asResource(saved),
      })
      if (saved.settings.is_default) {
        for (const t of siblings)
          if (t.settings?.is_default)
            store.put('transform', t.uuid, { ...t, settings: { ...t.settings, is_default: false } })
      }
      ensureAutoView(store, saved)
    },
    afterDelete({ ctx, item }) {
      if (!item.settings?.is_default) return
      const next = ctx.cluster.store.find<Item>('transform', (t) => t._table === item._table)
      if (next)
        ctx.cluster.store.put('transform', next.uuid, { ...next, settings: { ...next.settings, is_default: true } })
    },
  })
}

/** The view every table with a transform has on a real cluster: all its transforms' columns (ignored ones left out). */
export const AUTO_VIEW = 'auto_view'

/** Creates the table's auto_view, or adds the transform's new columns to it. */
function ensureAutoView(store: Store, transform: Item) {
  const columns = ((transform.settings?.output_columns ?? []) as Column[]).filter((c) => c?.name && !c.datatype?.ignore)
  const existing = store.find<Item>('view', (v) => v._table === transform._table && v.name === AUTO_VIEW)
  const now = nowIso()
  if (existing) {
    const have = new Set(((existing.settings?.output_columns ?? []) as Column[]).map((c) => c.name))
    const added = columns.filter((c) => !have.has(c.name))
    if (!added.length) return
    store.put('view', existing.uuid, {
      ...existing,
      settings: { ...existing.settings, output_columns: [...existing.settings.output_columns, ...added] },
      modified: now,
    })
    return
  }
  const uuid = crypto.randomUUID()
  store.put('view', uuid, {
    uuid,
    name: AUTO_VIEW,
    description: 'Every column of the table, kept up to date as transforms are published.',
    settings: { is_default: false, output_columns: structuredClone(columns) },
    table: transform._table,
    created: now,
    modified: now,
    _org: transform._org,
    _project: transform._project,
    _table: transform._table,
  })
}

export function registerViews(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'view',
    resource: 'view',
    label: 'view',
    level: 'table',
    path: 'views',
    description: 'Views select and rename columns of a table; query them as project.`table#view`.',
    fields: {
      description: descriptionField(),
      settings: f.obj(
        {
          is_default: f.bool(),
          output_columns: f.list(columnField(), { required: true, minItems: 1 }),
        },
        { required: true },
      ),
    },
    settingsDefaults: () => ({ is_default: false }),
    prepare({ data, errors }) {
      const settings = data.settings as Record<string, unknown>
      const colErrors = columnsErrors(settings.output_columns as Column[], false)
      if (colErrors) errors.settings = { output_columns: colErrors }
      else settings.output_columns = withColumnDefaults(settings.output_columns as Column[])
    },
    afterSave({ ctx, item }) {
      if (!item.settings.is_default) return
      for (const v of ctx.cluster.store.filter<Item>(
        'view',
        (x) => x._table === item._table && x.uuid !== item.uuid && x.settings?.is_default,
      )) {
        ctx.cluster.store.put('view', v.uuid, { ...v, settings: { ...v.settings, is_default: false } })
      }
    },
  })
}

/** Extra names given to a table's columns (`columns/{id}/add_name/`); stored, not applied by the engine. */
const COLUMN_NAME_KIND = 'columnname'
extraChildKinds.add(COLUMN_NAME_KIND)

/** A stable id for a transform column: the table's uuid and the column name, hashed into uuid form. */
function derivedColumnId(tableId: string, name: string): string {
  const h = crypto.createHash('sha1').update(`${tableId}/${name}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * The table's columns as `columns/` lists them: every output column of its transforms (the default
 * transform first; ignored columns left out), answered like stored items with a derived id, then the
 * stored alias columns. Each answers `current_name` and its extra `names`.
 */
function tableColumns(store: Store, table: Item): Item[] {
  const extra = (column: string) =>
    store
      .filter<Item>(COLUMN_NAME_KIND, (n) => n._table === table.uuid && n.column === column)
      .map((n) => n.name as string)
  const transforms = store
    .filter<Item>('transform', (t) => t._table === table.uuid)
    .sort((a, b) => Number(!!b.settings?.is_default) - Number(!!a.settings?.is_default))
  const seen = new Set<string>()
  const out: Item[] = []
  for (const t of transforms) {
    for (const c of (t.settings?.output_columns ?? []) as Column[]) {
      if (!c?.name || seen.has(c.name) || c.datatype?.ignore) continue
      seen.add(c.name)
      out.push({
        uuid: derivedColumnId(table.uuid, c.name),
        name: c.name,
        current_name: c.name,
        names: [c.name, ...extra(c.name)],
        type: c.datatype?.type ?? null,
        primary: !!c.datatype?.primary,
        alias: false,
        expression: null,
        description: '',
        table: table.uuid,
        created: t.created,
        modified: t.modified,
        _org: table._org,
        _project: table._project,
        _table: table.uuid,
      } as Item)
    }
  }
  for (const a of store.filter<Item>('column', (x) => x._table === table.uuid)) {
    out.push({ ...a, current_name: a.name, names: [a.name, ...extra(a.name)], alias: true })
  }
  return out
}

export function registerColumns(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'column',
    resource: 'column',
    label: 'column',
    level: 'table',
    path: 'columns',
    description:
      "The table's columns: its transforms' output columns (read only) and alias columns (a name for an SQL expression).",
    fields: {
      name: nameField(255, { pattern: COLUMN_NAME, patternMessage: 'Column names cannot contain spaces or quotes.' }),
      description: descriptionField(),
      expression: f.str({ required: true, blank: false }),
    },
    serialize: (item) => ({ id: item.uuid }),
    serializeReads: [],
    // the stored alias columns are replaced by the whole column list of the table (same permission scope)
    listFilter: (items, ctx) => {
      const table = ctx.cluster.store.get<Item>('table', ctx.params.table)
      if (!table) return items
      const name = ctx.url.searchParams.get('name')
      const visible = new Set(items.map((i) => i.uuid))
      return tableColumns(ctx.cluster.store, table).filter(
        (c) => (c.alias ? visible.has(c.uuid) : true) && (name === null || c.name === name),
      )
    },
    routes(router, api) {
      const find = (ctx: Ctx) => {
        const parents = api.parents(ctx)
        const column = tableColumns(ctx.cluster.store, parents.table!).find((c) => c.uuid === ctx.params.id)
        if (!column) throw notFound()
        return { column, parents }
      }
      router.get(api.itemPattern, (ctx) => {
        const { column, parents } = find(ctx)
        authorize(ctx, 'view_column', api.scopeOf(column, parents))
        return json(api.serialize(column, ctx))
      })
      // hdxcli `column add-name`: {"new_name"} -> the column can be referenced by another name
      router.post(`${api.itemPattern}/add_name`, async (ctx) => {
        const { column, parents } = find(ctx)
        const user = authorize(ctx, 'change_column', api.scopeOf(column, parents))
        const body = await readJsonObject(ctx.request)
        const newName = checkValue(
          ['new_name'],
          {
            ...nameField(255, {
              pattern: COLUMN_NAME,
              patternMessage: 'Column names cannot contain spaces or quotes.',
            }),
          },
          body.new_name,
        ) as string
        const taken = tableColumns(ctx.cluster.store, parents.table!).some((c) =>
          (c.names as string[]).some((n) => n.toLowerCase() === newName.toLowerCase()),
        )
        if (taken) throw validationError({ new_name: [`A column of this table is already named "${newName}".`] })
        const id = crypto.randomUUID()
        const now = nowIso()
        ctx.cluster.store.put(COLUMN_NAME_KIND, id, {
          uuid: id,
          name: newName,
          column: column.name,
          created: now,
          modified: now,
          _org: parents.org.uuid,
          _project: parents.project!.uuid,
          _table: parents.table!.uuid,
        })
        audit(
          ctx.cluster,
          user,
          'change_column',
          `Added the name "${newName}" to column "${column.name}" in table "${parents.project!.name}.${parents.table!.name}"`,
          { kind: 'column', id: column.uuid, project: parents.project!.uuid, table: parents.table!.uuid },
        )
        const updated = tableColumns(ctx.cluster.store, parents.table!).find((c) => c.uuid === column.uuid)!
        return json(api.serialize(updated, ctx), 201)
      })
    },
  })
}

/** Row policies (stored; the local engine does not apply them): `{name, filter, restrictive, roles[]}`. */
export function registerRowPolicies(router: ClusterRouter): ResourceApi {
  const knownRoles = (store: { find<T>(k: string, p: (v: T) => boolean): T | undefined }, names: string[]) =>
    names.filter((n) => !store.find<{ name: string }>('role', (r) => r.name === n))
  return defineResource(router, {
    kind: 'rowpolicy',
    resource: 'rowpolicy',
    label: 'row policy',
    level: 'table',
    path: 'rowpolicies',
    description:
      'Row policies: a filter applied to the rows the given roles can read (stored only on a local cluster).',
    fields: {
      description: descriptionField(),
      filter: f.str({ required: true, blank: false, help: "SQL condition, e.g. region = 'EU'" }),
      restrictive: f.bool(),
      roles: f.list(f.str({ blank: false })),
    },
    prepare({ ctx, data, errors }) {
      data.restrictive ??= false
      data.roles ??= []
      const unknown = knownRoles(ctx.cluster.store, data.roles as string[])
      if (unknown.length) errors.roles = unknown.map((n) => `Role "${n}" does not exist.`)
    },
    routes(router, api) {
      for (const verb of ['add', 'remove'] as const) {
        router.post(`${api.itemPattern}/${verb}_roles`, async (ctx) => {
          const { item, parents } = api.load(ctx)
          const user = authorize(ctx, 'change_rowpolicy', api.scopeOf(item, parents))
          const body = await readJsonObject(ctx.request)
          if (!Array.isArray(body.roles) || body.roles.some((r) => typeof r !== 'string'))
            throw validationError({ roles: ['Expected a list of role names.'] })
          const unknown = knownRoles(ctx.cluster.store, body.roles as string[])
          if (unknown.length) throw validationError({ roles: unknown.map((n) => `Role "${n}" does not exist.`) })
          const roles =
            verb === 'add'
              ? [...new Set([...item.roles, ...(body.roles as string[])])]
              : item.roles.filter((r: string) => !(body.roles as string[]).includes(r))
          const saved = { ...item, roles, modified: nowIso() }
          ctx.cluster.store.put('rowpolicy', item.uuid, saved)
          audit(
            ctx.cluster,
            user,
            'change_rowpolicy',
            `${verb === 'add' ? 'Added' : 'Removed'} roles ${(body.roles as string[]).join(', ')} on row policy "${item.name}"`,
            {
              kind: 'rowpolicy',
              id: item.uuid,
              project: parents.project!.uuid,
              table: parents.table!.uuid,
            },
          )
          return json(api.serialize(saved, ctx))
        })
      }
    },
  })
}
