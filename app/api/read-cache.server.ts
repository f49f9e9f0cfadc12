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
export const MAX_KEPT = 1_000

type Entry = { expires: number; value: Promise<unknown> }
/** Reads kept across requests (`keepMs`), by session and key, oldest first. */
const kept = new Map<string, Entry>()
/** Reads of one request, by its client (one per console request: requireApi). */
const perRequest = new WeakMap<object, Map<string, Promise<unknown>>>()

/** Who asks: a request's cluster client (its session key names the session and its org). */
export type Reader = { sessionKey: string }

/**
 * Returns `load()`'s value, shared by every caller with the same client (so one console request)
 * and `key`; concurrent callers share one read. With `keepMs`, the value is kept that long for the
 * session across requests (only for reads no change through the console can affect). A failed read
 * is not kept.
 */
export function cachedRead<T>(reader: Reader, key: string, load: () => Promise<T>, keepMs?: number): Promise<T> {
  let mine = perRequest.get(reader)
  if (!mine) perRequest.set(reader, (mine = new Map()))
  const known = mine.get(key)
  if (known) return known as Promise<T>
  const value = keepMs ? keptRead(reader.sessionKey, key, load, keepMs) : load()
  mine.set(key, value)
  value.catch(() => {
    if (mine.get(key) === value) mine.delete(key)
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

/** What else keeps reads across requests (the schema tree's cache): told when an org changed. */
const forgetters = new Set<(orgId: string) => void>()

/** Registers `forget`, called with the org whenever something in it changes through the console. */
export function onOrgChange(forget: (orgId: string) => void): void {
  forgetters.add(forget)
}

/**
 * Something in the org `orgId` changed (a call that is not a read went to the cluster): every read
 * kept across requests for any of its sessions is forgotten, the schema tree's included.
 */
export function forgetOrgReads(orgId: string): void {
  clearReadCache(orgId)
  for (const forget of forgetters) forget(orgId)
}
