import crypto from 'node:crypto'
import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { parseQueryStats, queryCluster } from '~/api/query.server'
import { QUERY_UI_MAX_ROWS } from '~/utils/query-options'
import { registerCache } from '~/utils/caches.server'

/**
 * A short-lived, bounded cache of UI results, keyed by org, user, SQL and options: the no-script
 * pages of one result and the rows the grid streams in after the first page are read from here
 * instead of running the query again. Bounded by bytes, entries and age (decision 019).
 */
export const RESULT_CACHE_LIMITS = { maxBytes: 64 * 1024 * 1024, maxEntries: 50, ttlMs: 5 * 60_000 }

/** The format the UI asks for: one JSON array per line, names then types, then the rows. */
export const ROWS_FORMAT = 'JSONCompactEachRowWithNamesAndTypes'

export type ResultStats = { cluster: Record<string, string>; queryId: string | null; elapsedMs: number }

export type CachedRows = {
  columns: { name: string; type: string }[]
  /**
   * The rows as the cluster wrote them, one JSON array a line: a page parses only its own rows
   * (`cellsOf`) and the grid's stream sends the lines on unchanged (the browser turns values into
   * cells itself, as for an answer piped from the cluster). Parsing all 10,000 rows before the first
   * page could be sent cost tens of ms per run, and writing them out again as many (issue 11).
   */
  lines: string[]
  /** True when the UI's 10,000-row cap cut the result. */
  isCapped: boolean
  stats: ResultStats
}

/**
 * A run on the cluster while it is in flight: its own signal (it is shared by every request that
 * waits for it, so no single request's going away stops it), its query id on the cluster, and the
 * rows received so far.
 */
type Run = { controller: AbortController; queryId: string; startedAt: number; rows: number; waiters: number }

type Entry = {
  key: string
  /** Which Run this is (issue 37): another page or tab of it reuses it, a new Run never does. */
  runId: string
  value: Promise<CachedRows>
  bytes: number
  expiresAt: number
  isSettled: boolean
  run: Run
}

const entries = new Map<string, Entry>()
let totalBytes = 0

/** Runs stopped lately (key → when and why), so a cancel that comes after the stop can say so. */
const stopped = new Map<string, { at: number; reason: StopReason }>()
const STOPPED_MEMORY_MS = 60_000

registerCache({
  name: 'query-results',
  file: 'app/services/query/result-cache.server.ts',
  variable: 'entries',
  holds: "one Run's rows, for its other pages and tabs (decision 060: a new Run always runs)",
  key: 'user, SQL, settings and the Run',
  lifetime: `${RESULT_CACHE_LIMITS.ttlMs / 60_000} min`,
  bound: `${RESULT_CACHE_LIMITS.maxEntries} runs and ${RESULT_CACHE_LIMITS.maxBytes / 1024 / 1024} MB`,
  forgottenBy: 'its lifetime, room for a newer run, or a cancel',
  writesChangeIt: false,
  size: () => entries.size,
})
registerCache({
  name: 'query-stops',
  file: 'app/services/query/result-cache.server.ts',
  variable: 'stopped',
  holds: 'that a run was stopped, and why (so a late cancel can say so)',
  key: 'the run',
  lifetime: `${STOPPED_MEMORY_MS / 1000} s`,
  bound: 'the runs stopped in that time',
  forgottenBy: 'its lifetime',
  writesChangeIt: false,
  size: () => stopped.size,
})
type StopReason = 'canceled' | 'left'

/** The run was stopped before it finished: canceled by its user, or every page waiting for it went away. */
export class QueryCanceledError extends Error {
  constructor() {
    super('The query was canceled: it was stopped on the cluster before it finished.')
    this.name = 'QueryCanceledError'
  }
}

function stop(entry: Entry, reason: StopReason) {
  if (entry.isSettled) return
  const now = Date.now()
  for (const [key, value] of stopped) if (value.at < now - STOPPED_MEMORY_MS) stopped.delete(key)
  stopped.set(entry.key, { at: now, reason })
  entry.run.controller.abort(reason)
}

/** The record of a run of `key` stopped within the last minute, if any. */
function stoppedLately(key: string) {
  const gone = stopped.get(key)
  return gone && gone.at > Date.now() - STOPPED_MEMORY_MS ? gone : null
}

/** A request waits for the run: when every request waiting for it has gone away, the run stops. */
function join(entry: Entry, signal: AbortSignal | undefined) {
  entry.run.waiters += 1
  signal?.addEventListener(
    'abort',
    () => {
      entry.run.waiters -= 1
      if (entry.run.waiters <= 0) stop(entry, 'left')
    },
    { once: true },
  )
}

/** The cache key of a run: org, user, SQL and the settings sent (in a stable order). */
export function resultKey(
  api: Pick<ClusterApi, 'orgId' | 'userId'>,
  sql: string,
  settings: Record<string, string>,
): string {
  const sorted = Object.keys(settings)
    .sort()
    .map((name) => `${name}=${settings[name]}`)
    .join('&')
  return JSON.stringify([api.orgId, api.userId, sql, sorted])
}

function drop(key: string) {
  const entry = entries.get(key)
  if (!entry) return
  entries.delete(key)
  totalBytes -= entry.bytes
}

function evict(now: number) {
  for (const [key, entry] of entries) if (entry.expiresAt <= now && entry.isSettled) drop(key)
  // Map order is least recently used first (a hit moves its entry to the end).
  for (const [key, entry] of entries) {
    if (totalBytes <= RESULT_CACHE_LIMITS.maxBytes && entries.size <= RESULT_CACHE_LIMITS.maxEntries) break
    if (entry.isSettled) drop(key)
  }
}

/** What the cache holds now (for tests and the bench). */
export function resultCacheSize() {
  return { entries: entries.size, bytes: totalBytes }
}

export function clearResultCache() {
  entries.clear()
  stopped.clear()
  totalBytes = 0
}

/** Not rows: the cluster answered in another format (the statement's own FORMAT); the caller reads it as text. */
export class NotRowsError extends Error {
  constructor(
    readonly response: Response,
    readonly format: string,
    readonly startedAt: number,
  ) {
    super('The answer is not in the rows format')
  }
}

/**
 * Reads the cluster's answer line by line as it arrives (never the whole body as one string) into
 * columns and rows, stopping at the UI's cap. Throws NotRowsError for an answer in another format.
 */
async function readRows(
  api: ClusterApi,
  sql: string,
  settings: Record<string, string>,
  run: Run,
): Promise<CachedRows & { bytes: number }> {
  const started = performance.now()
  const signal = run.controller.signal
  const response = await queryCluster(api, sql, settings, { signal, queryId: run.queryId })
  const format = response.headers.get('x-clickhouse-format') ?? ''
  if (format && format !== ROWS_FORMAT) throw new NotRowsError(response, format, started)
  const isUiCap = settings.result_overflow_mode === 'break'
  const header: unknown[] = []
  const lines: string[] = []
  let bytes = 0
  let isCapped = false
  const decoder = new TextDecoder()
  let pending = ''
  const take = (line: string) => {
    if (!line) return
    bytes += line.length * 2
    if (header.length < 2) header.push(JSON.parse(line))
    else if (lines.length < QUERY_UI_MAX_ROWS) {
      // Kept as text. A line that is not an array (a message the engine wrote into the answer)
      // fails here, as parsing every line did.
      if (line.charCodeAt(0) !== 91 || line.charCodeAt(line.length - 1) !== 93) {
        if (!Array.isArray(JSON.parse(line))) throw new SyntaxError('A result line is not a row')
      }
      lines.push(line)
      run.rows = lines.length
    } else if (isUiCap) isCapped = true
  }
  // Break mode stops at a block boundary: the few rows past the cap are read to the end of the
  // answer and dropped unparsed, so the connection ends as the cluster sent it.
  const skip = (line: string) => {
    if (line) isCapped = isUiCap
  }
  const reader = response.body!.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      pending += decoder.decode(value, { stream: true })
      let newline = pending.indexOf('\n')
      while (newline >= 0) {
        ;(isCapped ? skip : take)(pending.slice(0, newline))
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
      }
    }
    if (!isCapped) take(pending + decoder.decode())
  } catch (error) {
    if (signal.aborted || error instanceof SyntaxError) throw error
    throw new ClusterError({ status: 503 })
  }
  if (isUiCap && lines.length >= QUERY_UI_MAX_ROWS) isCapped = true
  const names = (header[0] as string[] | undefined) ?? []
  const types = (header[1] as string[] | undefined) ?? []
  return {
    columns: names.map((name, index) => ({ name, type: types[index] ?? '' })),
    lines,
    isCapped,
    bytes,
    stats: {
      cluster: parseQueryStats(response.headers.get('x-hdx-query-stats')),
      queryId: response.headers.get('x-clickhouse-query-id'),
      elapsedMs: Math.round(performance.now() - started),
    },
  }
}

/** A new run's id: each Run the user asks for gets one, and its pages, tabs and streamed rows carry it. */
export function newRunId(): string {
  return crypto.randomUUID()
}

/**
 * The rows of the run `runId` of `sql` with `settings` (which must ask for ROWS_FORMAT): from the
 * cache when this process holds that run (another page or tab of it; a run in progress is shared),
 * else run on the cluster now, then kept under that id. A new run id always runs (issue 37: an
 * explicit Run shows what is true now), and a run that is not in this process (another replica ran
 * it, or it expired) runs again. Throws as queryCluster, and NotRowsError for an answer in another format.
 */
export async function cachedRows(
  api: ClusterApi,
  sql: string,
  settings: Record<string, string>,
  runId: string = newRunId(),
): Promise<CachedRows> {
  const key = resultKey(api, sql, settings)
  const now = Date.now()
  const hit = entries.get(key)
  if (hit && hit.expiresAt > now && hit.runId === runId) {
    entries.delete(key)
    entries.set(key, hit)
    if (!hit.isSettled) join(hit, api.signal)
    try {
      return await hit.value
    } catch (error) {
      // The run it joined failed, or stopped as the pages that waited for it went away: run it for
      // this one. A run its user canceled stays canceled.
      if (api.signal?.aborted || error instanceof QueryCanceledError) throw error
    }
  }
  drop(key)
  stopped.delete(key)
  const run: Run = {
    controller: new AbortController(),
    queryId: crypto.randomUUID(),
    startedAt: Date.now(),
    rows: 0,
    waiters: 0,
  }
  const entry: Entry = {
    key,
    runId,
    value: undefined as unknown as Promise<CachedRows>,
    bytes: 0,
    expiresAt: now + RESULT_CACHE_LIMITS.ttlMs,
    isSettled: false,
    run,
  }
  join(entry, api.signal)
  entry.value = readRows(api, sql, settings, run).then(
    ({ bytes, ...result }) => {
      entry.isSettled = true
      if (entries.get(key) !== entry) return result
      if (bytes > RESULT_CACHE_LIMITS.maxBytes) drop(key)
      else {
        entry.bytes = bytes
        totalBytes += bytes
        evict(Date.now())
      }
      return result
    },
    (error: unknown) => {
      entry.isSettled = true
      if (entries.get(key) === entry) drop(key)
      if (run.controller.signal.aborted && run.controller.signal.reason === 'canceled') throw new QueryCanceledError()
      throw error
    },
  )
  entries.set(key, entry)
  evict(now)
  return entry.value
}

/** The cached (or running) result of the run `runId`, or null when this process does not hold it: never runs anything. */
export function peekCachedRows(
  api: ClusterApi,
  sql: string,
  settings: Record<string, string>,
  runId: string,
): Promise<CachedRows> | null {
  const entry = entries.get(resultKey(api, sql, settings))
  return entry && entry.expiresAt > Date.now() && entry.runId === runId ? entry.value : null
}

export type RunProgress =
  | { state: 'running'; queryId: string; startedAt: number; elapsedMs: number; rowsReceived: number }
  | { state: 'done' }
  | { state: 'canceled' }
  | { state: 'none' }

/** Where this user's run of `sql` with `settings` stands: running (since when, rows so far), done, stopped, or unknown here. */
export function runProgress(
  api: Pick<ClusterApi, 'orgId' | 'userId'>,
  sql: string,
  settings: Record<string, string>,
): RunProgress {
  const key = resultKey(api, sql, settings)
  const entry = entries.get(key)
  if (entry && !entry.isSettled)
    return {
      state: 'running',
      queryId: entry.run.queryId,
      startedAt: entry.run.startedAt,
      elapsedMs: Date.now() - entry.run.startedAt,
      rowsReceived: entry.run.rows,
    }
  if (entry) return { state: 'done' }
  return stoppedLately(key) ? { state: 'canceled' } : { state: 'none' }
}

/**
 * Stops this user's run of `sql` with `settings` on the cluster (its call is aborted, and the
 * cluster stops a query whose client went away). 'canceled' also when it had just stopped because
 * its page went away (a browser without scripts leaves the page to send the cancel).
 */
export function cancelRun(
  api: Pick<ClusterApi, 'orgId' | 'userId'>,
  sql: string,
  settings: Record<string, string>,
): 'canceled' | 'finished' | 'none' {
  const key = resultKey(api, sql, settings)
  const entry = entries.get(key)
  if (entry && !entry.isSettled) {
    stop(entry, 'canceled')
    return 'canceled'
  }
  const gone = stoppedLately(key)
  if (gone) {
    gone.reason = 'canceled'
    return 'canceled'
  }
  return entry ? 'finished' : 'none'
}
