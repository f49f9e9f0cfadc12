import crypto from 'node:crypto'
import type { ClusterRouter, ClusterState, Ctx } from '../context'
import type { Resource } from '../hooks'
import {
  CONFIG_GENERATION_HEADER,
  configStamp,
  HttpError,
  json,
  listResponse,
  noContent,
  notFound,
  nowIso,
  readJsonObject,
  validationError,
  withHeader,
} from '../http'
import { ACTIVITY_KINDS } from '../store'
import { authorize, can, canSomewhere, requireUser, type Scope, type User } from './access'
import { audit } from './audit'
import {
  describe,
  getPath,
  nameField,
  nestError,
  validateObject,
  validateValue,
  type Errors,
  type Fields,
} from './schema'
import { deepMerge, getOrg, isPlainObject, nextSeq, origin, primaryOrg, type Org } from './util'

/**
 * The shared CRUD machinery: a resource is declared once (kind, level, path, fields, hooks) and
 * gets list/create/get/update/delete/OPTIONS with validation, permissions, audit, urls and
 * pagination. Modules under cluster/config/ declare resources with `defineResource`.
 */

export type Level = 'global' | 'org' | 'project' | 'table'

/** A stored item. Keys starting with `_` are internal (parent ids) and never answered. */
export type Item = Record<string, any> & {
  name: string
  created: string
  modified: string
  _org?: string
  _project?: string
  _table?: string
}

export interface Parents {
  org: Org
  project?: Item
  table?: Item
}

export interface SaveEvent {
  ctx: Ctx
  user: User
  item: Item
  previous?: Item
  parents: Parents
}

export interface PrepareEvent {
  ctx: Ctx
  /** The validated data, about to be stored; prepare may normalise it in place. */
  data: Record<string, unknown>
  /** The raw request body. */
  body: Record<string, unknown>
  previous?: Item
  parents: Parents
  /** Add field errors here (nested objects for settings); they are answered together. */
  errors: Errors
}

export interface ResourceSpec {
  /** Store kind. */
  kind: string
  /** Permission suffix: view_{resource}, add_{resource}, ... */
  resource: string
  /** Human name used in messages and the audit trail. */
  label: string
  level: Level
  /** Collection path below the level's prefix, e.g. `tables` or `sources/kafka`. */
  path: string
  /** Path parameter naming one item (children of this resource use it in their paths). */
  itemParam?: string
  /** `int` ids (roles, invites) instead of uuids. */
  idKind?: 'uuid' | 'int'
  /** Writable fields (name, description and settings included). */
  fields: Fields
  /** Public parent field (`org`, `project`, `table`); null for none. Defaults from the level. */
  fkField?: string | null
  /** Longest name allowed (default 63: names are under 64). */
  nameMax?: number
  /** What a name may look like (SQL identifiers: projects and tables), with the message when it does not. */
  namePattern?: { pattern: RegExp; message: string }
  /** Name uniqueness among siblings (default true). */
  unique?: boolean
  /** The field that must be unique among siblings (default `name`). */
  uniqueBy?: string
  /** The message when it is not (default DRF's model message, `<Label> with this <field> already exists.`). */
  uniqueMessage?: string
  /** The resource has no `name` field (invites): no name is added to the fields. */
  noName?: boolean
  /** Only stored items of the kind that match belong to this resource (users vs service accounts). */
  match?: (item: Item) => boolean
  /** Replaces the default answer (the stored item minus internal fields) when given. */
  view?: (item: Item, ctx: Ctx) => Record<string, unknown>
  /** How the audit trail names an item (default its name). */
  displayName?: (item: Item) => string
  /** Defaults that settings are deep-merged over on create (and on PUT). */
  settingsDefaults?: (parents: Parents, body: Record<string, unknown>) => Record<string, unknown>
  /** Paths that cannot change once set (e.g. [['settings','shard_key']]). */
  immutable?: { path: string[]; message?: string; onceSet?: boolean }[]
  prepare?: (e: PrepareEvent) => void | Promise<void>
  /** Computed fields added to every answer. */
  serialize?: (item: Item, ctx: Ctx) => Record<string, unknown>
  /**
   * The other kinds `serialize` reads (a table's transforms, a role's users), when it reads nothing
   * else of the request: a list keeps each item's text while the item and these kinds are unchanged.
   * Without it, a kind with `serialize` is stringified on every list.
   */
  serializeReads?: string[]
  afterSave?: (e: SaveEvent) => void | Promise<void>
  beforeDelete?: (e: SaveEvent) => void | Promise<void>
  afterDelete?: (e: SaveEvent) => void | Promise<void>
  /** Extra routes registered before the generic ones (so `files`, `types`, ... win over `:id`). */
  routes?: (router: ClusterRouter, r: ResourceApi) => void
  /**
   * OPTIONS lists the id as a field that is not read-only, as a real cluster's functions do: hdxcli's
   * `settings` walk skips read-only fields, and its suite expects the uuid among a function's settings.
   * The id is still never taken from a body.
   */
  idInSettings?: boolean
  /** Which generic routes exist (default all). */
  methods?: { create?: boolean; update?: boolean; delete?: boolean }
  /** OPTIONS description. */
  description?: string
  /** Filter for the list (query-string filters). */
  listFilter?: (items: Item[], ctx: Ctx) => Item[]
  /**
   * Top-level keys that are not fields are stored and answered as sent (a live cluster's
   * `table_type: null`), except the keys the cluster writes itself (ids, urls, dates, parents,
   * the keys named in `except`: what `serialize` adds) and internal `_` keys. Default: such keys are dropped.
   */
  keepUnknownKeys?: { except: string[] }
}

/** Keys a client may send back (an object as read) that the cluster writes itself: never taken from a body. */
const SERVER_KEYS = new Set(['uuid', 'id', 'url', 'created', 'modified', 'org', 'project', 'table', 'password_hash'])

export interface ResourceApi {
  spec: ResourceSpec
  collectionPattern: string
  itemPattern: string
  parents(ctx: Ctx): Parents
  /** Loads the item named by the path (404 when absent or under another parent). */
  load(ctx: Ctx, parents?: Parents): { item: Item; parents: Parents }
  scopeOf(item: Item | undefined, parents: Parents): Scope
  serialize(item: Item, ctx: Ctx): Record<string, unknown>
  url(item: Item, ctx: Ctx): string
  /** Siblings of an item (same parent). */
  siblings(cluster: ClusterState, parents: Parents): Item[]
  /** The siblings themselves (not copies, from the store's parent index): only look, never change or keep. */
  siblingsInPlace(cluster: ClusterState, parents: Parents): Iterable<Readonly<Item>>
}

const LEVEL_PREFIX: Record<Level, string> = {
  global: '/config/v1',
  org: '/config/v1/orgs/:org',
  project: '/config/v1/orgs/:org/projects/:project',
  table: '/config/v1/orgs/:org/projects/:project/tables/:table',
}

const DEFAULT_FK: Record<Level, string | null> = { global: null, org: 'org', project: 'project', table: 'table' }

/** How `?ordering=` compares names (as the console's own sorting does, localeCompare's order). */
const COLLATOR = new Intl.Collator()

/** Every declared resource by kind (deleting a parent cascades through them). */
export const registry = new Map<string, ResourceApi>()

/** Kinds holding children by `_project`/`_table` that are not declared resources. */
export const extraChildKinds = new Set<string>(['dictionaryfile'])

export function idOf(item: Item): string {
  return String(item.uuid ?? item.id)
}

/** Resolves the parents named by the path: org, project, table; 404 when one does not exist. */
export function resolveParents(ctx: Ctx, level: Level): Parents {
  const { store } = ctx.cluster
  if (level === 'global') return { org: primaryOrg(ctx.cluster) }
  const org = getOrg(ctx.cluster, ctx.params.org)
  if (level === 'org') return { org }
  const project = store.get<Item>('project', ctx.params.project)
  if (!project || project._org !== org.uuid) throw notFound('Project not found.')
  if (level === 'project') return { org, project }
  const table = store.get<Item>('table', ctx.params.table)
  if (!table || table._project !== project.uuid) throw notFound('Table not found.')
  return { org, project, table }
}

export function stripInternal(item: Item): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // for…in, not Object.entries: no pair arrays for every item of a list answer (issue 33)
  for (const k in item) if (Object.hasOwn(item, k) && k[0] !== '_' && k !== 'password_hash') out[k] = item[k]
  return out
}

export function defineResource(router: ClusterRouter, spec: ResourceSpec): ResourceApi {
  const itemParam = spec.itemParam ?? 'id'
  const collectionPattern = `${LEVEL_PREFIX[spec.level]}/${spec.path}`
  const itemPattern = `${collectionPattern}/:${itemParam}`
  const fk = spec.fkField === undefined ? DEFAULT_FK[spec.level] : spec.fkField
  const fields: Fields = spec.noName
    ? { ...spec.fields }
    : {
        name: nameField(
          spec.nameMax ?? 63,
          spec.namePattern ? { pattern: spec.namePattern.pattern, patternMessage: spec.namePattern.message } : {},
        ),
        ...spec.fields,
      }
  const uniqueBy = spec.uniqueBy ?? 'name'
  const display = (item: Item) => (spec.displayName ? spec.displayName(item) : String(item.name))
  const allowed = { create: true, update: true, delete: true, ...spec.methods }

  const parentKey =
    spec.level === 'table' ? '_table' : spec.level === 'project' ? '_project' : spec.level === 'org' ? '_org' : null
  const parentId = (parents: Parents) =>
    spec.level === 'table' ? parents.table!.uuid : spec.level === 'project' ? parents.project!.uuid : parents.org.uuid

  const api: ResourceApi = {
    spec,
    collectionPattern,
    itemPattern,
    parents: (ctx) => resolveParents(ctx, spec.level),
    load(ctx, parents = resolveParents(ctx, spec.level)) {
      const item = ctx.cluster.store.get<Item>(spec.kind, ctx.params[itemParam])
      if (!item || (parentKey && item[parentKey] !== parentId(parents)) || (spec.match && !spec.match(item)))
        throw notFound()
      return { item, parents }
    },
    scopeOf(item, parents) {
      return {
        projectId: spec.kind === 'project' ? item?.uuid : parents.project?.uuid,
        tableId: spec.kind === 'table' ? item?.uuid : parents.table?.uuid,
        id: item ? idOf(item) : undefined,
      }
    },
    url(item, ctx) {
      const ids: Record<string, string | undefined> = { org: item._org, project: item._project, table: item._table }
      const path = collectionPattern.replace(/:(\w+)/g, (_, k) => ids[k] ?? ctx.params[k] ?? k)
      return `${origin(ctx)}${path}/${idOf(item)}`
    },
    serialize(item, ctx) {
      const out: Record<string, unknown> = spec.view ? spec.view(item, ctx) : stripInternal(item)
      out.url = api.url(item, ctx)
      return spec.serialize ? { ...out, ...spec.serialize(item, ctx) } : out
    },
    siblings(cluster, parents) {
      return [...api.siblingsInPlace(cluster, parents)].map((item) => cluster.store.copy<Item>(item))
    },
    *siblingsInPlace(cluster, parents) {
      const values = parentKey
        ? cluster.store.children<Item>(spec.kind, parentKey, parentId(parents))
        : cluster.store.values<Item>(spec.kind)
      for (const item of values) if (!spec.match || spec.match(item as Item)) yield item
    },
  }
  registry.set(spec.kind, api)

  spec.routes?.(router, api)

  const optionsMeta = (method: 'POST' | 'PUT') => ({
    name: `${spec.label.replace(/^./, (c) => c.toUpperCase())} ${method === 'POST' ? 'List' : 'Instance'}`,
    description: spec.description ?? '',
    renders: ['application/json'],
    parses: ['application/json'],
    actions: {
      [method]: withIdInSettings(
        describe(fields, {
          [spec.idKind === 'int' ? 'id' : 'uuid']: 'Id',
          ...(fk ? { [fk]: spec.level.replace(/^./, (c) => c.toUpperCase()) } : {}),
          created: 'Created',
          modified: 'Modified',
          url: 'Url',
        }),
        spec.idInSettings ? (spec.idKind === 'int' ? 'id' : 'uuid') : null,
      ),
    },
  })

  /** Validates `data` (the merged result of a create/update) and returns the item to store. */
  const build = async (
    ctx: Ctx,
    body: Record<string, unknown>,
    data: Record<string, unknown>,
    parents: Parents,
    previous?: Item,
  ) => {
    const result = validateObject(fields, data, { partial: false, open: !!spec.keepUnknownKeys })
    const errors: Errors = { ...(result.errors ?? {}) }
    const value = (result.value ?? {}) as Record<string, unknown>
    if (spec.keepUnknownKeys) {
      const { except } = spec.keepUnknownKeys
      for (const key of Object.keys(value))
        if (!(key in fields) && (key[0] === '_' || SERVER_KEYS.has(key) || except.includes(key))) delete value[key]
    }
    if (!errors[uniqueBy] && spec.unique !== false && typeof value[uniqueBy] === 'string') {
      const wanted = String(value[uniqueBy]).toLowerCase()
      const clash = [...api.siblingsInPlace(ctx.cluster, parents)].find(
        (s) => String(s[uniqueBy]).toLowerCase() === wanted && (!previous || idOf(s) !== idOf(previous)),
      )
      if (clash)
        errors[uniqueBy] = [
          spec.uniqueMessage ??
            `${spec.label.replace(/^./, (c) => c.toUpperCase())} with this ${uniqueBy} already exists.`,
        ]
    }
    if (previous) {
      for (const rule of spec.immutable ?? []) {
        const before = getPath(previous, rule.path)
        const after = getPath(value, rule.path)
        const locked = rule.onceSet ? before !== null && before !== undefined && before !== '' : true
        if (locked && after !== undefined && JSON.stringify(before) !== JSON.stringify(after)) {
          Object.assign(
            errors,
            deepMerge(errors, nestError(rule.path, [rule.message ?? `This field cannot be changed.`])),
          )
        }
      }
    }
    if (Object.keys(errors).length === 0 && spec.prepare) {
      await spec.prepare({ ctx, data: value, body, previous, parents, errors })
    }
    if (Object.keys(errors).length) throw validationError(errors)
    return value
  }

  const scopeFor = (parents: Parents, item?: Item) => api.scopeOf(item, parents)

  const withSettingsDefaults = (
    parents: Parents,
    body: Record<string, unknown>,
    base: Record<string, unknown> | undefined,
  ) => {
    if (!spec.settingsDefaults || !('settings' in fields)) return base
    if (base !== undefined && !isPlainObject(base)) return base // let validation answer the type error
    return deepMerge(spec.settingsDefaults(parents, body), base ?? {})
  }

  /**
   * The siblings sorted by `field` (the collator's order) and each one's place in it, kept while the
   * kind is unchanged (the store's generation): a list asked `?ordering=` a page at a time sorts its
   * 200 tables once, not on every page (issue 33). The places are keyed by the stored values
   * themselves (a changed value is a new object), so a listFilter's own items fall back to the collator.
   */
  const orders = new Map<string, { generation: number; sorted: Readonly<Item>[]; rank: WeakMap<object, number> }>()
  const siblingOrder = (cluster: ClusterState, parents: Parents, field: string) => {
    const key = `${parentKey ? parentId(parents) : ''}|${field}`
    const generation = cluster.store.generation(spec.kind)
    const kept = orders.get(key)
    if (kept && kept.generation === generation) return kept
    const sorted = [...api.siblingsInPlace(cluster, parents)].sort((a, b) =>
      COLLATOR.compare(String(a[field] ?? ''), String(b[field] ?? '')),
    )
    const rank = new WeakMap<object, number>()
    sorted.forEach((item, index) => rank.set(item, index))
    if (orders.size > 1000) orders.clear()
    const order = { generation, sorted, rank }
    orders.set(key, order)
    return order
  }

  /**
   * An item's JSON as lists answer it (its UTF-8 bytes), kept per stored value (a changed value is a new object;
   * the store hands out copies to change), the origin its `url` names and the generations of the
   * kinds its `serialize` reads (`serializeReads`): a kind without a `view` is not stringified again
   * on every list (issue 33: 505 pools on every Scale tab, 200 tables a project).
   */
  const plainView = !spec.view && (!spec.serialize || spec.serializeReads !== undefined)
  const texts = new WeakMap<object, { origin: string; stamp: string; bytes: Buffer }>()
  /** The generations of the kinds `serialize` reads: a kept text of another stamp is stale. */
  const stampOf = (cluster: ClusterState) =>
    spec.serializeReads?.map((kind) => cluster.store.generation(kind)).join(',') ?? ''
  const itemText = (item: Item, ctx: Ctx, stamp: string) => {
    const at = origin(ctx)
    const kept = texts.get(item)
    if (kept && kept.origin === at && kept.stamp === stamp) return kept.bytes
    const text = JSON.stringify(api.serialize(item, ctx))
    // its own memory, not a slice of node's shared 8 KB pool: a kept item must not hold a pool slab
    // of other, short-lived buffers (10,000 tables kept)
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
    bytes.write(text)
    texts.set(item, { origin: at, stamp, bytes })
    return bytes
  }

  /**
   * An answer made of the stored items, the kinds `serialize` declares and the caller's grants alone
   * (a plain view: no `view`, and a `serialize` that names what it reads) is stamped with the
   * configuration generation it was made at (decision 113). Read before the answer is made, in the
   * same synchronous step: a handler that awaited could be made of a later state than its stamp.
   */
  const stamped =
    plainView && !ACTIVITY_KINDS.has(spec.kind) && !spec.serializeReads?.some((k) => ACTIVITY_KINDS.has(k))
  const stamp = (ctx: Ctx, make: () => Response) => {
    if (!stamped) return make()
    const generation = ctx.cluster.store.configGeneration()
    return withHeader(make(), CONFIG_GENERATION_HEADER, configStamp(generation))
  }

  router.get(collectionPattern, (ctx) =>
    stamp(ctx, () => {
      const user = requireUser(ctx)
      const parents = api.parents(ctx)
      const permission = `view_${spec.resource}`
      if (!can(ctx.cluster, user, permission, scopeFor(parents)) && !canSomewhere(ctx.cluster, user, permission)) {
        authorize(ctx, permission, scopeFor(parents)) // answers the 403
      }
      // the stored items themselves are filtered (no copy of the collection: 10,000 tables), and only
      // the page answered is serialized
      const name = ctx.url.searchParams.get('name')
      // a grant over the whole collection (the org's, or the parent project's) covers every item in it:
      // the per-item check is only for users whose grants name single items (10,000 tables: issue 33)
      const seesAll = can(ctx.cluster, user, permission, scopeFor(parents))
      // DRF's ordering filter (`?ordering=name`, `-name` for descending): one page of a sorted list
      const ordering = ctx.url.searchParams.get('ordering')
      const field = ordering?.replace(/^-/, '')
      const sign = ordering?.startsWith('-') ? -1 : 1
      const order = field && /^\w+$/.test(field) ? siblingOrder(ctx.cluster, parents, field) : null
      const inOrder = (list: Item[]) => {
        const byField = (a: Item, b: Item) => COLLATOR.compare(String(a[field!] ?? ''), String(b[field!] ?? ''))
        return [...list].sort((a, b) => {
          const ra = order!.rank.get(a)
          const rb = order!.rank.get(b)
          return sign * (ra !== undefined && rb !== undefined ? ra - rb : byField(a, b))
        })
      }
      let items: Item[] = []
      if (order && sign === 1 && seesAll && name === null) {
        // every sibling, in the order kept: nothing to check or sort (a listFilter's answer is sorted
        // again, already in order but for items of its own)
        items = order.sorted as Item[]
        // a listFilter that keeps the list as it is (tables without `?type=`) leaves it in order: no
        // sort of the project's 200 tables for every one-row count page (issue 33)
        if (spec.listFilter) {
          const filtered = spec.listFilter(items, ctx)
          if (filtered !== items) items = inOrder(filtered)
        }
      } else {
        for (const i of api.siblingsInPlace(ctx.cluster, parents)) {
          if (name !== null && i.name !== name) continue
          if (seesAll || can(ctx.cluster, user, permission, scopeFor(parents, i as Item))) items.push(i as Item)
        }
        if (spec.listFilter) items = spec.listFilter(items, ctx)
        if (order) items = inOrder(items)
      }
      return listResponse(ctx.request, items, {
        bareArrays: ctx.cluster.options.bareArrays,
        // the stored value serialized in place (the serializers make new objects and change nothing;
        // the answer is JSON text): no copy of each item answered (issue 33)
        serialize: (i) => api.serialize(i, ctx),
        bytes: plainView
          ? (
              (stamp) => (i: Item) =>
                itemText(i, ctx, stamp)
            )(stampOf(ctx.cluster))
          : undefined,
      })
    }),
  )

  router.add('OPTIONS', collectionPattern, (ctx) => {
    requireUser(ctx)
    api.parents(ctx)
    return json(optionsMeta('POST'), 200, { allow: allowed.create ? 'GET, POST, HEAD, OPTIONS' : 'GET, HEAD, OPTIONS' })
  })

  if (allowed.create) {
    router.post(collectionPattern, async (ctx) => {
      const parents = api.parents(ctx)
      const user = authorize(ctx, `add_${spec.resource}`, scopeFor(parents))
      const body = await readJsonObject(ctx.request)
      const data = {
        ...body,
        settings: withSettingsDefaults(parents, body, body.settings as Record<string, unknown> | undefined),
      }
      if (data.settings === undefined) delete data.settings
      const value = await build(ctx, body, data, parents)
      const now = nowIso()
      const id = spec.idKind === 'int' ? nextSeq(ctx.cluster, spec.kind) : crypto.randomUUID()
      const item: Item = {
        ...(spec.idKind === 'int' ? { id } : { uuid: id }),
        ...value,
        ...(fk ? { [fk]: parentId(parents) } : {}),
        created: now,
        modified: now,
        _org: parents.org.uuid,
        ...(parents.project ? { _project: parents.project.uuid } : {}),
        ...(parents.table ? { _table: parents.table.uuid } : {}),
      } as unknown as Item
      ctx.cluster.store.put(spec.kind, String(id), item)
      try {
        await spec.afterSave?.({ ctx, user, item, parents })
      } catch (error) {
        ctx.cluster.store.delete(spec.kind, String(id))
        throw engineRefusal(error)
      }
      const saved = ctx.cluster.store.get<Item>(spec.kind, String(id)) ?? item
      audit(
        ctx.cluster,
        user,
        `add_${spec.resource}`,
        `Created ${spec.label} "${display(saved)}"${where(parents)}`,
        target(spec, saved, parents),
      )
      return json(api.serialize(saved, ctx), 201)
    })
  }

  router.get(itemPattern, (ctx) =>
    stamp(ctx, () => {
      const { item, parents } = api.load(ctx)
      authorize(ctx, `view_${spec.resource}`, scopeFor(parents, item))
      return json(api.serialize(item, ctx))
    }),
  )

  router.add('OPTIONS', itemPattern, (ctx) => {
    requireUser(ctx)
    api.load(ctx)
    return json(optionsMeta('PUT'), 200, { allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS' })
  })

  if (allowed.update) {
    router.add(['PUT', 'PATCH'], itemPattern, async (ctx) => {
      const { item: previous, parents } = api.load(ctx)
      const user = authorize(ctx, `change_${spec.resource}`, scopeFor(parents, previous))
      const body = await readJsonObject(ctx.request)
      const current: Record<string, unknown> = {}
      for (const key of Object.keys(fields)) if (key in previous) current[key] = previous[key]
      let data: Record<string, unknown>
      if (ctx.request.method === 'PATCH') {
        data = deepMerge(current, body)
      } else {
        data = { ...current, ...body }
        if ('settings' in body)
          data.settings = withSettingsDefaults(
            parents,
            { ...current, ...body },
            body.settings as Record<string, unknown>,
          )
      }
      const value = await build(ctx, body, data, parents, previous)
      const item: Item = { ...previous, ...value, modified: nowIso() }
      ctx.cluster.store.put(spec.kind, idOf(item), item)
      try {
        await spec.afterSave?.({ ctx, user, item, previous, parents })
      } catch (error) {
        ctx.cluster.store.put(spec.kind, idOf(previous), previous)
        throw engineRefusal(error)
      }
      const saved = ctx.cluster.store.get<Item>(spec.kind, idOf(item)) ?? item
      const renamed = display(previous) !== display(saved) ? ` (renamed from "${display(previous)}")` : ''
      audit(
        ctx.cluster,
        user,
        `change_${spec.resource}`,
        `Updated ${spec.label} "${display(saved)}"${renamed}${where(parents)}`,
        target(spec, saved, parents),
      )
      return json(api.serialize(saved, ctx))
    })
  }

  if (allowed.delete) {
    router.delete(itemPattern, async (ctx) => {
      const { item, parents } = api.load(ctx)
      const user = authorize(ctx, `delete_${spec.resource}`, scopeFor(parents, item))
      await removeItem(ctx, user, api, item, parents)
      return noContent()
    })
  }

  return api
}

/**
 * A save the engine refused (a hook threw): HttpErrors pass as they are, anything else becomes a
 * 400 with the engine's message, since it was the object that could not be applied.
 */
function engineRefusal(error: unknown): unknown {
  if (error instanceof HttpError) return error
  const message = error instanceof Error ? error.message : String(error)
  return validationError({ non_field_errors: [`The engine could not apply this change: ${message}`] })
}

/** Deletes an item (hooks, cascade to its children, audit). */
export async function removeItem(ctx: Ctx, user: User, api: ResourceApi, item: Item, parents: Parents) {
  const { spec } = api
  await spec.beforeDelete?.({ ctx, user, item, parents })
  cascade(ctx.cluster, spec.kind, idOf(item))
  ctx.cluster.store.delete(spec.kind, idOf(item))
  await spec.afterDelete?.({ ctx, user, item, parents })
  audit(
    ctx.cluster,
    user,
    `delete_${spec.resource}`,
    `Deleted ${spec.label} "${spec.displayName ? spec.displayName(item) : item.name}"${where(parents)}`,
    target(spec, item, parents),
  )
}

/** Removes everything that lives under a project or a table. */
export function cascade(cluster: ClusterState, kind: string, id: string) {
  const key = kind === 'project' ? '_project' : kind === 'table' ? '_table' : null
  if (!key) return
  for (const childKind of [...registry.keys(), ...extraChildKinds]) {
    if (childKind === kind) continue
    for (const child of cluster.store.filter<Item>(childKind, (i) => i[key] === id))
      cluster.store.delete(childKind, idOf(child))
  }
  // pools created for sources that went with the cascade
  const sourceKinds = [...registry.keys()].filter((k) => k.endsWith('source'))
  for (const pool of cluster.store.filter<Item>('pool', (p) => !!p._source)) {
    if (!sourceKinds.some((k) => cluster.store.get(k, pool._source))) cluster.store.delete('pool', pool.uuid)
  }
}

function where(parents: Parents): string {
  if (parents.table) return ` in table "${parents.project!.name}.${parents.table.name}"`
  if (parents.project) return ` in project "${parents.project.name}"`
  return ''
}

function target(spec: ResourceSpec, item: Item, parents: Parents) {
  return {
    kind: spec.kind,
    id: idOf(item),
    project: spec.kind === 'project' ? idOf(item) : parents.project?.uuid,
    table: spec.kind === 'table' ? idOf(item) : parents.table?.uuid,
    object: objectOf(item),
  }
}

/** What an activity entry holds of the object: its name and description as the change left them. */
export function objectOf(item: Item) {
  return { name: item.name ?? null, description: item.description ?? null }
}

/** OPTIONS metadata with `key` (the id) described as a field that is not read-only (`idInSettings`). */
export function withIdInSettings(meta: Record<string, unknown>, key: string | null) {
  if (!key || !meta[key]) return meta
  return { ...meta, [key]: { ...(meta[key] as object), read_only: false } }
}

/** Validates a lone value against a field and throws DRF errors at `path`. */
export function checkValue(path: string[], field: Parameters<typeof validateValue>[0], value: unknown) {
  const r = validateValue(field, value)
  if (r.errors) throw validationError(nestError(path, r.errors))
  return r.value
}

export const asResource = (item: Item) => item as unknown as Resource

export { HttpError }
