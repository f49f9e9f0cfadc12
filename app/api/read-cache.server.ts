/**
 * Cluster reads shared by the loaders of one console request (decision 060): the shell, the page
 * and its panels ask for the same lists (projects, each project's tables, roles, the current user),
 * and one request reads each once. Nothing a write can change is kept past the request: another
 * replica, or another session, may have changed it a moment ago, and the console shows what is true
 * now (issue 37). Only a read that names its own lifetime (`keepMs`) is kept across requests, per
 * session: the cluster's version, which no write through the console changes. A change made through
 * the console forgets those too for every session of its org (client.server calls
 * `clearReadCache(orgId)` on every call that is not a GET).
 */
import { forgetOrg, registerCache } from '~/utils/caches.server'
import { currentRequestContext, type RequestContext } from '~/utils/request-context.server'

export const MAX_KEPT = 1_000

type Entry = { expires: number; value: Promise<unknown> }
/** Reads kept across requests (`keepMs`), by session and key, oldest first. */
const kept = new Map<string, Entry>()
/**
 * Reads of one console request, by its request context (the server's, one per HTTP request: the
 * layout's loader and the page's share them, though each has its own client, decision 050), or by
 * the client where there is no context (a loader called directly).
 */
const perRequest = new WeakMap<RequestContext | object, Map<string, Promise<unknown>>>()

registerCache({
  name: 'reads-kept',
  file: 'app/api/read-cache.server.ts',
  variable: 'kept',
  holds: 'a cluster read that names its own lifetime (the cluster version)',
  key: 'session (org, user) and read',
  lifetime: 'the keepMs the read names',
  bound: `${MAX_KEPT} entries, the expired then the oldest out`,
  forgottenBy: 'a write through the console, for every session of its org',
  writesChangeIt: true,
  forgetOrg: (orgId) => clearReadCache(orgId),
  size: () => kept.size,
})
registerCache({
  name: 'reads-per-request',
  file: 'app/api/read-cache.server.ts',
  variable: 'perRequest',
  holds: 'a cluster read shared by the loaders of one console request (lists, the current user)',
  key: 'the console request (its context; else its cluster client), the session and the read',
  lifetime: 'the request',
  bound: "the request's reads",
  forgottenBy: "the request ending (garbage collected with its context); a write in the request, for the org's reads",
  writesChangeIt: false,
})

/** Who asks: a request's cluster client (its session key names the session and its org). */
export type Reader = { sessionKey: string }

/**
 * Returns `load()`'s value, shared by every caller with the same client (so one console request)
 * and `key`; concurrent callers share one read. With `keepMs`, the value is kept that long for the
 * session across requests (only for reads no change through the console can affect). A failed read
 * is not kept.
 */
export function cachedRead<T>(reader: Reader, key: string, load: () => Promise<T>, keepMs?: number): Promise<T> {
  const owner = currentRequestContext() ?? reader
  let mine = perRequest.get(owner)
  if (!mine) perRequest.set(owner, (mine = new Map()))
  // the session in the key: one request is one session, but nothing here may ever hand one user's read to another
  const id = `${reader.sessionKey}\u0000${key}`
  const known = mine.get(id)
  if (known) return known as Promise<T>
  const value = keepMs ? keptRead(reader.sessionKey, key, load, keepMs) : load()
  mine.set(id, value)
  value.catch(() => {
    if (mine.get(id) === value) mine.delete(id)
  })
  return value
}

function keptRead<T>(sessionKey: string, key: string, load: () => Promise<T>, keepMs: number): Promise<T> {
  const id = `${sessionKey}\u0000${key}`
  const now = Date.now()
  const hit = kept.get(id)
  if (hit && hit.expires > now) return hit.value as Promise<T>
  if (kept.size >= MAX_KEPT) {
    for (const [staleId, entry] of kept) if (entry.expires <= now) kept.delete(staleId)
    for (const oldest of kept.keys()) {
      if (kept.size < MAX_KEPT * 0.9) break
      kept.delete(oldest)
    }
  }
  const value = load()
  kept.delete(id)
  kept.set(id, { expires: now + keepMs, value })
  value.catch(() => {
    if (kept.get(id)?.value === value) kept.delete(id)
  })
  return value
}

/**
 * Forgets the reads kept across requests of every session of the org `orgId` (something in it
 * changed through the console); everything without an org.
 */
export function clearReadCache(orgId?: string): void {
  if (orgId === undefined) return void kept.clear()
  const prefix = `${orgId}:`
  for (const id of kept.keys()) if (id.startsWith(prefix)) kept.delete(id)
}

/** How many reads are kept across requests (tests). */
export function keptReadCount(): number {
  return kept.size
}

/**
 * Something in the org `orgId` changed (a call that is not a read went to the cluster): every cache
 * holding what a write can change forgets the org, for every session of it (the cache registry).
 */
export function forgetOrgReads(orgId: string): void {
  forgetOrg(orgId)
  // and what this request read before the write (an action's loaders after it, in the same request)
  const context = currentRequestContext()
  const mine = context && perRequest.get(context)
  if (mine) for (const id of mine.keys()) if (id.startsWith(`${orgId}:`)) mine.delete(id)
}
