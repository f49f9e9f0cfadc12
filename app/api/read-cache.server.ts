/**
 * A short-lived cache of cluster reads, per signed-in session (decision 020). A change a session
 * makes through the console forgets that session's reads (client.server calls `clearReadCache` with
 * its key on every write), so its user sees the change on the next page; a change made elsewhere
 * (another session, another console, the cluster's API) shows within `READ_CACHE_TTL_MS`
 * (decision 043: one session's writes, such as the query history each run adds to, no longer make
 * every other session read again). Only for reads that are big and re-read on every page view.
 */
export const READ_CACHE_TTL_MS = 5_000
const MAX_ENTRIES = 1_000

type Entry = { expires: number; value: Promise<unknown> }
const entries = new Map<string, Entry>()

/**
 * Returns the cached value of `key` for this session (`sessionKey`), or runs `load` and keeps its
 * promise for `ttlMs` (`READ_CACHE_TTL_MS` unless the read says otherwise); concurrent requests
 * share one read. A failed read is not kept.
 */
export function cachedRead<T>(
  sessionKey: string,
  key: string,
  load: () => Promise<T>,
  ttlMs = READ_CACHE_TTL_MS,
): Promise<T> {
  const id = `${sessionKey}\u0000${key}`
  const now = Date.now()
  const hit = entries.get(id)
  if (hit && hit.expires > now) return hit.value as Promise<T>
  if (entries.size >= MAX_ENTRIES) {
    for (const [staleId, entry] of entries) if (entry.expires <= now) entries.delete(staleId)
    // Still full of live reads (many sessions): the oldest tenth go, not all of them at once.
    for (const oldest of entries.keys()) {
      if (entries.size < MAX_ENTRIES * 0.9) break
      entries.delete(oldest)
    }
  }
  const value = load()
  // (deleted first, so the Map's order stays the order reads were made: the oldest are first)
  entries.delete(id)
  entries.set(id, { expires: now + ttlMs, value })
  value.catch(() => {
    if (entries.get(id)?.value === value) entries.delete(id)
  })
  return value
}

/** Forgets the reads of the session `sessionKey` (it changed something on the cluster); every cached read without one. */
export function clearReadCache(sessionKey?: string): void {
  if (sessionKey === undefined) return void entries.clear()
  const prefix = `${sessionKey}\u0000`
  for (const id of entries.keys()) if (id.startsWith(prefix)) entries.delete(id)
}
