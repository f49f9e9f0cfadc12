/**
 * A short-lived cache of cluster reads, per signed-in session (decision 020). The console's own
 * changes clear all of it at once (client.server calls `clearReadCache` on every write), so a user
 * sees their change on the next page; a change made elsewhere (another console, the cluster's API)
 * shows within `READ_CACHE_TTL_MS`. Only for reads that are big and re-read on every page view.
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
export function cachedRead<T>(sessionKey: string, key: string, load: () => Promise<T>, ttlMs = READ_CACHE_TTL_MS): Promise<T> {
  const id = `${sessionKey}\u0000${key}`
  const now = Date.now()
  const hit = entries.get(id)
  if (hit && hit.expires > now) return hit.value as Promise<T>
  if (entries.size >= MAX_ENTRIES) {
    for (const [staleId, entry] of entries) if (entry.expires <= now) entries.delete(staleId)
    if (entries.size >= MAX_ENTRIES) entries.clear()
  }
  const value = load()
  entries.set(id, { expires: now + ttlMs, value })
  value.catch(() => {
    if (entries.get(id)?.value === value) entries.delete(id)
  })
  return value
}

/** Forgets every cached read: the console changed something on the cluster. */
export function clearReadCache(): void {
  entries.clear()
}
