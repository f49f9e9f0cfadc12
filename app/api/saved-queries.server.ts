import { randomUUID } from 'node:crypto'
import { beforeClose } from '~/utils/before-close.server'
import { sqlString, tableRef } from '~/utils/sql'
import { CONSOLE_PROJECT, HISTORY_TABLE, REVOKED_TABLE, SAVED_TABLE } from '~/utils/console-store'
import type { ClusterApi } from './client.server'
import { ClusterError } from './errors.server'
import { createProject, listProjects, type Project } from './projects.server'
import { consoleRead, QueryError, runQuery } from './query.server'
import { cachedRead } from './read-cache.server'
import { listTables, type Table } from './tables.server'
import { createTransform, ingestRows, listTransforms, type Transform, type TransformColumn } from './transforms.server'
import { registerCache } from '~/utils/caches.server'
import { grantStoreAccount, hasStoreAccount, storeClient } from './store-account.server'

/*
 * Saved queries and each user's query history, kept on the cluster itself (decision 029): a project
 * the console owns with two append-only tables, written through `/ingest/event` and read through
 * `/query`. An edit or a delete is a new row with a later `at`; a read takes the latest row per id.
 * Every call goes through the console's store account when it has one (decision 105: storeClient),
 * and what is read is filtered here by the signed-in user: their own history, their own saved
 * queries and those shared with the org, never another user's private ones.
 */

/** The project the console keeps its own rows in (`~/utils/console-store`, shared with the pages). */
export { CONSOLE_PROJECT }
export { SAVED_TABLE, HISTORY_TABLE }

export const NOT_SET_UP_MESSAGE =
  `Saved queries and history are not set up on this cluster yet: an administrator's first ` +
  `save creates the ${CONSOLE_PROJECT} project and its tables`
export const CANNOT_WRITE_MESSAGE =
  `Saving needs the insert_sql permission on ${CONSOLE_PROJECT}.${SAVED_TABLE}: ask an ` +
  `administrator for it (the publisher role has it)`
export const CANNOT_READ_MESSAGE =
  `Reading saved queries needs the select_sql permission on the ${CONSOLE_PROJECT} project: ` +
  `ask an administrator for it (the reader role has it)`
/**
 * The console's store account (decision 105) cannot use the store: there is none yet, or it is older
 * than the account, or the account's role was changed. An org admin's set-up makes what is missing.
 */
export const NOT_GRANTED_MESSAGE =
  `Saved queries and history are not set up for the console on this cluster yet: an org ` +
  `admin's first save, or Turn on in Settings, creates the ${CONSOLE_PROJECT} project and ` +
  `gives the console's store account its rights on it`
/** The cluster refused the console's store account token itself (revoked, expired, another cluster's). */
export const ACCOUNT_REFUSED_MESSAGE =
  `The cluster refused the console's store account (CONSOLE_STORE_TOKEN): saved queries and ` +
  `history are unavailable until an administrator gives the console a valid token`
/** Only the user who saved a query changes or deletes it. */
export const NOT_YOURS_MESSAGE = 'Only the user who saved this query can delete it'

/** The history is off: its store does not exist yet (a first save, or Settings, creates it), so nothing is written. */
export class HistoryOff extends Error {
  constructor() {
    super(HISTORY_OFF_MESSAGE)
    this.name = 'HistoryOff'
  }
}

export const HISTORY_OFF_MESSAGE =
  `The query history is off: it starts when you first save a query or turn it on in ` +
  `Settings, which creates the ${CONSOLE_PROJECT} project and its tables`

/** The store cannot be used by this user (not set up, or a permission missing); `message` says what to do. */
export class SavedQueriesUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SavedQueriesUnavailable'
  }
}

const PRIMARY: TransformColumn = {
  name: 'at',
  datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
}
const text = (name: string): TransformColumn => ({ name, datatype: { type: 'string' } })

const TABLES: { name: string; columns: TransformColumn[] }[] = [
  {
    name: SAVED_TABLE,
    columns: [
      PRIMARY,
      text('id'),
      text('name'),
      text('sql'),
      text('options'),
      text('owner'),
      text('owner_id'),
      { name: 'deleted', datatype: { type: 'uint8' } },
      // 'private' (its owner only) or 'org' (everyone in the org); '' in rows saved before decision 105: 'org'
      text('visibility'),
    ],
  },
  {
    name: HISTORY_TABLE,
    columns: [
      PRIMARY,
      text('user_id'),
      text('sql'),
      text('options'),
      text('error'),
      { name: 'elapsed_ms', datatype: { type: 'uint32' } },
      { name: 'row_count', datatype: { type: 'uint64' } },
    ],
  },
  {
    // Log out everywhere on a cluster without a revoke call (decision 080, app/api/revocations.server.ts)
    name: REVOKED_TABLE,
    columns: [PRIMARY, text('token_sha256'), text('user_id'), { name: 'expires_ms', datatype: { type: 'uint64' } }],
  },
]
const transformName = (table: string) => `${table}_json`

/** Orgs whose project, tables and transforms this process has seen in place. */
const setUp = new Map<string, Promise<void>>()

registerCache({
  name: 'history-store-set-up',
  file: 'app/api/saved-queries.server.ts',
  variable: 'setUp',
  holds: 'that the org has the history and saved-queries store in place',
  key: 'org',
  lifetime: 'the process',
  bound: 'one per org',
  forgottenBy: 'a failed set-up, the store answering 404 (it was removed), or Turn on in Settings',
  writesChangeIt: false,
  size: () => setUp.size,
})

/** Whether a create failed because another console (or request) created the same name first. */
const isTaken = (error: unknown) => error instanceof ClusterError && (error.status === 400 || error.status === 409)

/** Finds by name, else creates; a create that loses a race to another console finds the winner's. */
async function findOrCreate<T extends { name: string }>(
  list: () => Promise<T[]>,
  create: () => Promise<T>,
  name: string,
): Promise<T> {
  const found = (await list()).find((item) => item.name === name)
  if (found) return found
  try {
    return await create()
  } catch (error) {
    if (!isTaken(error)) throw error
    const winner = (await list()).find((item) => item.name === name)
    if (!winner) throw error
    return winner
  }
}

async function createStore(api: ClusterApi): Promise<Project> {
  const project = await findOrCreate<Project>(
    () => listProjects(api),
    () => createProject(api, { name: CONSOLE_PROJECT, description: 'Saved queries and query history of the console' }),
    CONSOLE_PROJECT,
  )
  await Promise.all(
    TABLES.map(async (spec) => {
      const table = await findOrCreate<Table>(
        () => listTables(api, project.uuid),
        () =>
          api.post<Table>(`/orgs/${api.orgId}/projects/${encodeURIComponent(project.uuid)}/tables/`, {
            name: spec.name,
            description: 'Written by the console',
          }),
        spec.name,
      )
      const name = transformName(spec.name)
      const transform = await findOrCreate<Transform>(
        () => listTransforms(api, project.uuid, table.uuid),
        () =>
          createTransform(api, project.uuid, table.uuid, {
            name,
            type: 'json',
            settings: { is_default: true, output_columns: spec.columns },
          }),
        name,
      )
      await completeTransform(api, project.uuid, table.uuid, transform, spec.columns)
    }),
  )
  return project
}

/**
 * Adds the columns a store made by an older console lacks (`visibility`, decision 105) to its
 * transform, keeping the ones it has: rows written before read the new column as '' (its default).
 */
async function completeTransform(
  api: ClusterApi,
  projectId: string,
  tableId: string,
  transform: Transform,
  columns: TransformColumn[],
): Promise<void> {
  const present = transform.settings?.output_columns ?? []
  const missing = columns.filter((column) => !present.some((known) => known?.name === column.name))
  if (!missing.length) return
  const table = `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/tables/${encodeURIComponent(tableId)}`
  await api.patch(`${table}/transforms/${encodeURIComponent(transform.uuid)}`, {
    settings: { output_columns: [...present, ...missing] },
  })
}

/**
 * Sets the store up (decision 105). With a store account: the account completes a store it can see
 * (its role covers the project); one it cannot see (none yet, or made before it had a role) is set
 * up with `api`'s rights (an admin's first save, or Turn on), and the account is given its role on
 * it. Without one: with `api`'s rights (decision 029).
 */
async function setUpStore(api: ClusterApi): Promise<void> {
  if (!hasStoreAccount()) {
    await createStore(api)
    return
  }
  const store = storeClient(api)
  let isSeen = false
  try {
    isSeen = (await listProjects(store)).some((project) => project.name === CONSOLE_PROJECT)
  } catch (error) {
    // an account with no role yet may list nothing
    if (!(error instanceof ClusterError && (error.status === 403 || error.status === 404))) throw accountError(error)
  }
  if (isSeen) {
    await createStore(store).catch((error: unknown) => {
      throw accountError(error)
    })
    return
  }
  let project: Project
  try {
    project = await createStore(api)
  } catch (error) {
    if (error instanceof ClusterError && error.status === 403) throw new SavedQueriesUnavailable(NOT_GRANTED_MESSAGE)
    throw error
  }
  try {
    await grantStoreAccount(api, project.uuid)
  } catch (error) {
    if (error instanceof ClusterError && error.status === 403) throw new SavedQueriesUnavailable(NOT_GRANTED_MESSAGE)
    throw error
  }
}

/** A failure of the store account's own call, as the message that says what to do. */
function accountError(error: unknown): unknown {
  if (!(error instanceof ClusterError)) return error
  if (error.status === 401) return new SavedQueriesUnavailable(ACCOUNT_REFUSED_MESSAGE)
  if (error.status === 403) return new SavedQueriesUnavailable(NOT_GRANTED_MESSAGE)
  return error
}

/**
 * Makes sure the console's project, tables and transforms exist (setUpStore: what is missing is
 * created with the store account's rights, or the user's), once per process and org (concurrent
 * first uses share one attempt). Throws SavedQueriesUnavailable when the user may not create them,
 * ClusterError for other failures.
 */
export async function ensureStore(api: ClusterApi): Promise<void> {
  let pending = setUp.get(api.orgId)
  if (!pending) {
    pending = setUpStore(api)
    setUp.set(api.orgId, pending)
    pending.catch(() => setUp.delete(api.orgId))
  }
  try {
    await pending
  } catch (error) {
    if (error instanceof ClusterError && error.status === 403) throw new SavedQueriesUnavailable(NOT_SET_UP_MESSAGE)
    throw error
  }
}

/** The store's tables, by name: Settings says the history is on only when all are there. */
export const STORE_TABLES: readonly string[] = TABLES.map((spec) => spec.name)

/**
 * Makes sure the store is complete now, whatever this process saw before (Settings' Turn on: a
 * `cluster_console` project made by another tool, or whose tables were deleted, gets what it lacks).
 */
export async function ensureStoreNow(api: ClusterApi): Promise<void> {
  setUp.delete(api.orgId)
  await ensureStore(api)
}

/** Forgets which orgs are set up (tests start new clusters). */
export function forgetStore(): void {
  setUp.clear()
  recent.clear()
  recentRuns.clear()
}

/*
 * Rows this process wrote in the last two minutes, per org and table. A real cluster shows ingested
 * rows to queries only after a few seconds; merging these into reads lets the user who saved, deleted
 * or ran something see it at once on this console instance (other instances see it once the cluster does).
 */
const RECENT_MS = 120_000
const recent = new Map<string, { at: number; row: Record<string, string | number> }[]>()

registerCache({
  name: 'history-recent-rows',
  file: 'app/api/saved-queries.server.ts',
  variable: 'recent',
  holds: 'rows this process wrote to the store lately (merged into reads until the cluster shows them)',
  key: 'org and table',
  lifetime: `${RECENT_MS / 1000} s`,
  bound: 'what was written in that time',
  forgottenBy: 'its lifetime',
  writesChangeIt: false,
  size: () => recent.size,
})

function remember(orgId: string, table: string, row: Record<string, string | number>, at: number) {
  const key = `${orgId}:${table}`
  let kept = recent.get(key)
  if (!kept) recent.set(key, (kept = []))
  kept.push({ at, row })
  forgetExpired(kept)
}

/**
 * Drops the rows older than RECENT_MS. Rows are appended as they are written, so the expired ones
 * are at the front: under many runs a copy of the whole window on every write and read was the cost.
 */
function forgetExpired(kept: { at: number }[]) {
  const cutoff = Date.now() - RECENT_MS
  let expired = 0
  while (expired < kept.length && kept[expired]!.at <= cutoff) expired++
  if (expired) kept.splice(0, expired)
}

/** This process's rows of the last RECENT_MS for `table`, oldest first (the store itself: read only). */
function recentRows(orgId: string, table: string): readonly { at: number; row: Record<string, string | number> }[] {
  const kept = recent.get(`${orgId}:${table}`)
  if (!kept) return []
  forgetExpired(kept)
  return kept
}

/**
 * The history's part of the above, per org and user: each statement's latest run of the last
 * RECENT_MS, oldest first (a run moves its statement to the end). A user who runs the same statement
 * again and again keeps one entry, so the history list reads as many entries as statements.
 */
const recentRuns = new Map<string, Map<string, { at: number; row: Record<string, string | number> }>>()

registerCache({
  name: 'history-recent-runs',
  file: 'app/api/saved-queries.server.ts',
  variable: 'recentRuns',
  holds: "each statement's latest run of late, for the history list",
  key: 'org and user, then the statement',
  lifetime: `${RECENT_MS / 1000} s`,
  bound: 'the runs of that time, one per statement',
  forgottenBy: 'its lifetime',
  writesChangeIt: false,
  size: () => recentRuns.size,
})

function rememberRun(orgId: string, userId: string, row: Record<string, string | number>, at: number) {
  const key = `${orgId}:${userId}`
  let runs = recentRuns.get(key)
  if (!runs) recentRuns.set(key, (runs = new Map()))
  const sql = String(row.sql)
  runs.delete(sql)
  runs.set(sql, { at, row })
  forgetExpiredRuns(key, runs)
}

/** Takes back a run remembered by rememberRun (its write failed), unless a later run of the statement replaced it. */
function forgetRun(orgId: string, userId: string, row: Record<string, string | number>) {
  const key = `${orgId}:${userId}`
  const runs = recentRuns.get(key)
  const sql = String(row.sql)
  if (runs?.get(sql)?.row !== row) return
  runs.delete(sql)
  if (!runs.size) recentRuns.delete(key)
}

function forgetExpiredRuns(key: string, runs: Map<string, { at: number }>) {
  const cutoff = Date.now() - RECENT_MS
  for (const [sql, run] of runs) {
    if (run.at > cutoff) break
    runs.delete(sql)
  }
  if (!runs.size) recentRuns.delete(key)
}

/** The user's recent runs on this process, newest first, one per statement. */
function recentRunsOf(orgId: string, userId: string): { at: number; row: Record<string, string | number> }[] {
  const key = `${orgId}:${userId}`
  const runs = recentRuns.get(key)
  if (!runs) return []
  forgetExpiredRuns(key, runs)
  return [...runs.values()].reverse()
}

/** Writes `rows` to one of the store's tables (its JSON transform); throws as ingest below. */
export function ingestIntoStore(
  api: ClusterApi,
  table: string,
  rows: Record<string, string | number>[],
): Promise<void> {
  return ingest(api, table, rows)
}

async function ingest(api: ClusterApi, table: string, rows: Record<string, string | number>[]): Promise<void> {
  try {
    await ingestRows(
      storeClient(api),
      tableRef(CONSOLE_PROJECT, table),
      transformName(table),
      JSON.stringify(rows),
      'json',
    )
  } catch (error) {
    if (hasStoreAccount() && error instanceof ClusterError && (error.status === 401 || error.status === 403))
      throw accountError(error)
    if (error instanceof ClusterError && error.status === 403)
      throw new SavedQueriesUnavailable(
        table === SAVED_TABLE ? CANNOT_WRITE_MESSAGE : CANNOT_WRITE_MESSAGE.replace(SAVED_TABLE, table),
      )
    // The console's cache says "set up" but the cluster lost the table (deleted by hand): set up again next time.
    if (error instanceof ClusterError && error.status === 404) setUp.delete(api.orgId)
    throw error
  }
}

/**
 * Reads `sql` as JSON rows (through the store account, when there is one); an unknown project or table is no rows
 * (nothing was saved yet).
 */
async function readRows<T>(api: ClusterApi, sql: string): Promise<T[] | null> {
  try {
    const answer = await runQuery(
      storeClient(api),
      sql,
      consoleRead({ hdx_query_output_format: 'JSONEachRow', hdx_query_timerange_required: 'false' }),
    )
    return answer.text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as T)
  } catch (error) {
    if (error instanceof QueryError && /UNKNOWN_(TABLE|DATABASE)|Code: (60|81)\./.test(error.message)) return null
    if (hasStoreAccount() && error instanceof ClusterError && (error.status === 401 || error.status === 403))
      throw accountError(error)
    if (error instanceof ClusterError && error.status === 403) throw new SavedQueriesUnavailable(CANNOT_READ_MESSAGE)
    throw error
  }
}

/** Whether a read failed on a column the store's table does not have yet (a store older than the column). */
const isMissingColumn = (error: unknown, column: string) =>
  error instanceof QueryError &&
  /UNKNOWN_IDENTIFIER|Missing columns|Code: 47\./.test(error.message) &&
  error.message.includes(column)

/** Who sees a saved query: its owner only, or everyone in the org (decision 105). */
export type SavedQueryVisibility = 'private' | 'org'

/** A stored `visibility` as the console reads it: '' (saved before decision 105, when every query was shared) is 'org'. */
export const visibilityOf = (stored: unknown): SavedQueryVisibility => (stored === 'private' ? 'private' : 'org')

/** A saved query as the console shows it; `options` is the URL query string of the filled options. */
export type SavedQuery = {
  id: string
  name: string
  sql: string
  options: string
  owner: string
  ownerId: string
  visibility: SavedQueryVisibility
  createdAt: number
  updatedAt: number
}

type SavedRow = {
  id: string
  q_name: string
  q_sql: string
  q_options: string
  q_owner: string
  q_owner_id: string
  q_visibility?: string
  created_ms: string | number
  updated_ms: string | number
  is_deleted: string | number
}

/** What a saved-queries read found: the queries, and whether the store exists yet. */
export type SavedQueries = { queries: SavedQuery[]; isSetUp: boolean }

/** Whether `api`'s user may see `query`: their own, or one shared with the org. */
const isVisibleTo = (api: ClusterApi, query: Pick<SavedQuery, 'ownerId' | 'visibility'>) =>
  query.ownerId === api.userId || query.visibility === 'org'

/**
 * The latest version of every saved query `api`'s user may see (their own and the shared ones: the
 * read asks only for those, and what this process wrote lately is filtered the same way). A store
 * whose table is older than the `visibility` column is read without it (every query shared, as they
 * were then).
 */
async function readSavedRows(api: ClusterApi): Promise<SavedRow[] | null> {
  const sql = (withVisibility: boolean) =>
    [
      'SELECT id, argMax(name, at) AS q_name, argMax(sql, at) AS q_sql, argMax(options, at) AS q_options, argMax(owner, at) AS q_owner,',
      '  argMax(owner_id, at) AS q_owner_id, toUnixTimestamp64Milli(min(at)) AS created_ms, ' +
        'toUnixTimestamp64Milli(max(at)) AS updated_ms, argMax(deleted, at) AS is_deleted',
      withVisibility ? '  , argMax(visibility, at) AS q_visibility' : '',
      `FROM ${tableRef(CONSOLE_PROJECT, SAVED_TABLE)}`,
      'GROUP BY id',
      // a row saved before the column reads it as '' or NULL (the engine's default): shared, as they all were
      withVisibility ? `HAVING q_owner_id = ${sqlString(api.userId)} OR coalesce(q_visibility, '') != 'private'` : '',
      'LIMIT 10000',
    ]
      .filter(Boolean)
      .join('\n')
  try {
    return await readRows<SavedRow>(api, sql(true))
  } catch (error) {
    if (!isMissingColumn(error, 'visibility')) throw error
    return readRows<SavedRow>(api, sql(false))
  }
}

/**
 * Returns the saved queries the signed-in user may see (latest version of each, deleted ones
 * dropped), sorted by name, those whose name contains `nameFilter` (any case) when given. Throws
 * SavedQueriesUnavailable without the permission to read them, ClusterError or QueryError for other
 * failures.
 */
export async function listSavedQueries(api: ClusterApi, nameFilter = ''): Promise<SavedQueries> {
  const rows = await readSavedRows(api)
  const byId = new Map<string, SavedQuery & { isDeleted: boolean }>()
  for (const row of rows ?? []) {
    byId.set(row.id, {
      id: row.id,
      name: row.q_name,
      sql: row.q_sql,
      options: row.q_options,
      owner: row.q_owner,
      ownerId: row.q_owner_id,
      visibility: visibilityOf(row.q_visibility),
      createdAt: Number(row.created_ms),
      updatedAt: Number(row.updated_ms),
      isDeleted: Number(row.is_deleted) > 0,
    })
  }
  for (const { at, row } of recentRows(api.orgId, SAVED_TABLE)) {
    const id = String(row.id)
    const known = byId.get(id)
    if (known && known.updatedAt >= at) continue
    byId.set(id, {
      id,
      name: String(row.name),
      sql: String(row.sql),
      options: String(row.options),
      owner: String(row.owner),
      ownerId: String(row.owner_id),
      visibility: visibilityOf(row.visibility),
      createdAt: known?.createdAt ?? at,
      updatedAt: at,
      isDeleted: Boolean(row.deleted),
    })
  }
  const needle = nameFilter.trim().toLowerCase()
  const queries = [...byId.values()]
    .filter(
      (query) => !query.isDeleted && isVisibleTo(api, query) && (!needle || query.name.toLowerCase().includes(needle)),
    )
    .map(({ isDeleted: _deleted, ...query }) => query)
    .sort((a, b) => a.name.localeCompare(b.name) || b.updatedAt - a.updatedAt)
  return { queries, isSetUp: rows !== null || byId.size > 0 }
}

/**
 * Returns one saved query the user may see, or null when there is none (deleted, or another user's private one);
 * throws as listSavedQueries.
 */
export async function getSavedQuery(api: ClusterApi, id: string): Promise<SavedQuery | null> {
  const { queries } = await listSavedQueries(api)
  return queries.find((query) => query.id === id) ?? null
}

/** What a save sends: the name, the SQL, the filled options as a query string, who saves it and who may see it. */
export type SavedQueryInput = Omit<SavedQuery, 'id' | 'createdAt' | 'updatedAt'>

/**
 * Saves a query and returns its id. A query of the same owner with the same name is overwritten
 * (a new version of that id, with the visibility now asked), otherwise a new id is made. Sets the
 * store up on first use. Throws SavedQueriesUnavailable without the permission to set up or write,
 * ClusterError otherwise.
 */
export async function saveQuery(
  api: ClusterApi,
  input: SavedQueryInput,
): Promise<{ id: string; isOverwrite: boolean }> {
  await ensureStore(api)
  const { queries } = await listSavedQueries(api)
  const existing = queries.find((query) => query.ownerId === input.ownerId && query.name === input.name)
  const id = existing?.id ?? randomUUID()
  const at = Math.max(Date.now(), (existing?.updatedAt ?? 0) + 1)
  const row = {
    at: new Date(at).toISOString(),
    id,
    name: input.name,
    sql: input.sql,
    options: input.options,
    owner: input.owner,
    owner_id: input.ownerId,
    deleted: 0,
    visibility: input.visibility,
  }
  await ingest(api, SAVED_TABLE, [row])
  remember(api.orgId, SAVED_TABLE, row, at)
  return { id, isOverwrite: Boolean(existing) }
}

/**
 * Deletes one of the signed-in user's saved queries (a deleted version of it); returns false when
 * there was none they may see. Throws SavedQueriesUnavailable (NOT_YOURS_MESSAGE) for another
 * user's shared query, and as saveQuery.
 */
export async function deleteSavedQuery(
  api: ClusterApi,
  id: string,
  by: { owner: string; ownerId: string },
): Promise<boolean> {
  const existing = await getSavedQuery(api, id)
  if (!existing) return false
  if (existing.ownerId !== by.ownerId) throw new SavedQueriesUnavailable(NOT_YOURS_MESSAGE)
  await ensureStore(api)
  const at = Math.max(Date.now(), existing.updatedAt + 1)
  const row = {
    at: new Date(at).toISOString(),
    id,
    name: existing.name,
    sql: existing.sql,
    options: existing.options,
    owner: by.owner,
    owner_id: by.ownerId,
    deleted: 1,
    visibility: existing.visibility,
  }
  await ingest(api, SAVED_TABLE, [row])
  remember(api.orgId, SAVED_TABLE, row, at)
  return true
}

/** One run of a query as the history keeps it. */
export type HistoryEntry = { sql: string; options: string; at: number; elapsedMs: number; rows: number; error: string }

function historyRow(api: ClusterApi, entry: Omit<HistoryEntry, 'at'>, at: number): Record<string, string | number> {
  return {
    at: new Date(at).toISOString(),
    user_id: api.userId,
    sql: entry.sql,
    options: entry.options,
    error: entry.error,
    elapsed_ms: Math.max(0, Math.round(entry.elapsedMs)),
    row_count: Math.max(0, entry.rows),
  }
}

/**
 * At most one history write per user this often (decision 053): the runs that come meanwhile, from
 * any of the user's sessions, wait and go to the cluster together in one write. Each write is an
 * insert the cluster's engine keeps as a part and merges later; one a run, under many runs at once,
 * was a quarter of the local cluster's CPU.
 */
export const HISTORY_WRITE_MS = 1_000

type RunsToWrite = { api: ClusterApi; rows: Record<string, string | number>[]; settle: ((error?: unknown) => void)[] }
/** Per org and user: the runs waiting for their write, whether a write is under way, when the last began. */
const writers = new Map<
  string,
  { waiting: RunsToWrite | null; writing: Promise<void> | null; lastStart: number; timer: NodeJS.Timeout | null }
>()

/**
 * Appends a run to the signed-in user's history when its store exists (never creating it; HistoryOff
 * when it does not); the user's other
 * runs of the same HISTORY_WRITE_MS are written in the same call. The run shows in this process's
 * history list at once; the promise settles when its write does (throwing as saveQuery).
 */
export function queueHistoryEntry(api: ClusterApi, entry: Omit<HistoryEntry, 'at'>): Promise<void> {
  const at = Date.now()
  const row = historyRow(api, entry, at)
  rememberRun(api.orgId, api.userId, row, at)
  const key = `${api.orgId}:${api.userId}`
  let writer = writers.get(key)
  if (!writer) {
    if (writers.size >= 10_000) forgetIdleWriters()
    writers.set(key, (writer = { waiting: null, writing: null, lastStart: 0, timer: null }))
  }
  const waiting = (writer.waiting ??= { api, rows: [], settle: [] })
  // the latest session's client writes: the user's rows, with that user's rights
  waiting.api = api
  waiting.rows.push(row)
  const written = new Promise<void>((resolve, reject) =>
    waiting.settle.push((error) => (error === undefined ? resolve() : reject(error))),
  )
  scheduleHistoryWrite(key)
  return written
}

function scheduleHistoryWrite(key: string) {
  const writer = writers.get(key)
  if (!writer || writer.writing || writer.timer || !writer.waiting) return
  const wait = Math.max(0, writer.lastStart + HISTORY_WRITE_MS - Date.now())
  writer.timer = setTimeout(() => {
    writer.timer = null
    void writeHistory(key)
  }, wait)
}

function writeHistory(key: string): Promise<void> {
  const writer = writers.get(key)
  const batch = writer?.waiting
  if (!writer || !batch) return Promise.resolve()
  writer.waiting = null
  writer.lastStart = Date.now()
  const writing = (async () => {
    let failure: unknown
    try {
      // never creates the store: the history is on once it exists (a first save, or Settings)
      await ingest(batch.api, HISTORY_TABLE, batch.rows)
    } catch (error) {
      failure =
        error instanceof ClusterError && error.status === 404
          ? new HistoryOff()
          : (error ?? new Error('The history write failed'))
    }
    // runs that did not reach the cluster leave this process's list too, as they did before it was batched
    if (failure !== undefined) for (const row of batch.rows) forgetRun(batch.api.orgId, batch.api.userId, row)
    for (const settle of batch.settle) settle(failure)
  })()
  writer.writing = writing
  return writing.finally(() => {
    writer.writing = null
    scheduleHistoryWrite(key)
  })
}

/** Forgets the users with nothing to write whose last write is past its interval (kept till then, so the next run waits its turn). */
function forgetIdleWriters() {
  const before = Date.now() - HISTORY_WRITE_MS
  for (const [key, writer] of writers)
    if (!writer.waiting && !writer.writing && !writer.timer && writer.lastStart < before) writers.delete(key)
}

beforeClose(() => flushHistoryWrites())

/** Writes the runs still waiting now, without waiting for their turn, and waits for the writes under way (the server is stopping). */
export async function flushHistoryWrites(): Promise<void> {
  await Promise.all(
    [...writers.keys()].map(async (key) => {
      const writer = writers.get(key)
      if (!writer) return
      await writer.writing
      if (writer.timer) clearTimeout(writer.timer)
      writer.timer = null
      await writeHistory(key)
    }),
  )
}

type HistoryRow = {
  sql: string
  h_options: string
  h_error: string
  h_elapsed: number | string
  h_rows: number | string
  at_ms: number | string
}

/** How far back the history reads: a time filter keeps the read to recent partitions. */
const HISTORY_DAYS = 90

/**
 * The signed-in user's last `limit` distinct statements, newest first, each with its latest run's
 * options and outcome. Throws as listSavedQueries.
 */
export async function listHistory(api: ClusterApi, limit = 20): Promise<HistoryEntry[]> {
  // The cluster's part is read once per request (decision 060): a run recorded through another
  // replica shows at once (the Run form's POST has written it before its redirect). This process's
  // own runs of the last RECENT_MS are merged after, in case the cluster does not show them yet.
  const rows = await cachedRead(api, `query-history:${limit}`, () =>
    readRows<HistoryRow>(
      api,
      [
        'SELECT sql, argMax(options, at) AS h_options, argMax(error, at) AS h_error, argMax(elapsed_ms, at) AS h_elapsed,',
        '  argMax(row_count, at) AS h_rows, toUnixTimestamp64Milli(max(at)) AS at_ms',
        `FROM ${tableRef(CONSOLE_PROJECT, HISTORY_TABLE)}`,
        `WHERE user_id = ${sqlString(api.userId)} AND at > now() - INTERVAL ${HISTORY_DAYS} DAY`,
        'GROUP BY sql ORDER BY at_ms DESC',
        `LIMIT ${Math.max(1, Math.floor(limit))}`,
      ].join('\n'),
    ),
  )
  // no store: the history is off (a first save or Settings turns it on)
  if (rows === null) throw new HistoryOff()
  const bySql = new Map<string, HistoryEntry>()
  for (const row of rows) {
    bySql.set(row.sql, {
      sql: row.sql,
      options: row.h_options,
      error: row.h_error,
      elapsedMs: Number(row.h_elapsed),
      rows: Number(row.h_rows),
      at: Number(row.at_ms),
    })
  }
  // Newest first, one per statement: no older run can be among the newest `limit`.
  for (const { at, row } of recentRunsOf(api.orgId, api.userId).slice(0, limit)) {
    const sql = String(row.sql)
    const known = bySql.get(sql)
    if (known && known.at >= at) continue
    bySql.set(sql, {
      sql,
      options: String(row.options),
      error: String(row.error),
      elapsedMs: Number(row.elapsed_ms),
      rows: Number(row.row_count),
      at,
    })
  }
  return [...bySql.values()].sort((a, b) => b.at - a.at).slice(0, limit)
}
