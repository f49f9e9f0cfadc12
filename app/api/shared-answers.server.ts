import { createHash } from 'node:crypto'
import { registerCache } from '~/utils/caches.server'

/**
 * Large cluster answers parsed once per content (decision 089): a read that asks for it
 * (`shareParsed`) still goes to the cluster on every request (decision 060: what is shown is true
 * now, on any replica), but when the bytes that came back are the bytes an earlier request got, the
 * value parsed then is returned, deeply frozen, instead of parsing 200 KB again. The key is a hash of
 * the bytes, so a change anywhere (another replica, another tool) is a new key: nothing here can be
 * stale. What is shared must not be changed: it is frozen, and its readers copy before they sort.
 */
const MIN_CHARS = 16 * 1024
const MAX_ENTRIES = 8

const parsed = new Map<string, unknown>()

registerCache({
  name: 'shared-answers',
  file: 'app/api/shared-answers.server.ts',
  variable: 'parsed',
  holds: 'a large cluster answer parsed and frozen (the org’s pools), for the reads that ask to share it',
  key: 'a SHA-256 of the answer’s bytes (a change is a new key)',
  lifetime: 'until newer answers push it out',
  bound: `${MAX_ENTRIES} answers, the least recently used out`,
  forgottenBy: 'room for a newer answer; a write needs nothing: changed bytes are a new key',
  writesChangeIt: false,
  size: () => parsed.size,
})

/** Freezes `value` and everything in it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * JSON.parse(text), shared and frozen when the text is large (at least 16 K characters); a small
 * answer is parsed as usual (hashing it would cost what parsing does). Throws as JSON.parse does.
 */
export function parseShared(text: string): unknown {
  if (text.length < MIN_CHARS) return JSON.parse(text)
  const key = createHash('sha256').update(text).digest('base64')
  if (parsed.has(key)) {
    const value = parsed.get(key)
    // the most recently used last
    parsed.delete(key)
    parsed.set(key, value)
    return value
  }
  const value = deepFreeze(JSON.parse(text) as unknown)
  parsed.set(key, value)
  if (parsed.size > MAX_ENTRIES) parsed.delete(parsed.keys().next().value!)
  return value
}
