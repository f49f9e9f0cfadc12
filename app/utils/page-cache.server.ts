import { createHash } from 'node:crypto'
import type { EntryContext } from '@remix-run/node'
import { registerCache } from './caches.server'

/**
 * Rendered pages by what they are rendered from (decision 033): a page's HTML is a function of the
 * build, the URL and the data its loaders returned, so the same inputs render the same bytes. A
 * reload, a list a job page refreshes every 10 s, or two operators on the same page render once.
 *
 * What a component can read while rendering on the server: its loader data and the URL (hooks), the
 * CSP nonce (NonceContext). Cookies, headers and the session reach it only through loader data, so
 * two users with the same data share an entry, and any difference in what they are shown is in the
 * key. The page is stored cut where its nonce was and joined with the request's own on each hit.
 * Left out: responses with action data or route errors, and statuses other than 200 (rarely the
 * same twice). Entries live a minute (a render may compare data with the clock), and the cache
 * holds at most `MAX_BYTES` of HTML, oldest use first out.
 */
const MAX_BYTES = 16 * 1024 * 1024
const TTL_MS = 60_000
/** Loader data past this size is not worth hashing and keeping (a big query result page). */
const MAX_DATA_CHARS = 2 * 1024 * 1024

/**
 * A page as stored: its HTML cut where the nonce was, so a hit joins the parts with its own. The
 * parts are UTF-8 bytes: joining bytes costs a tenth of joining strings and encoding the result for
 * the socket (about 1.5 ms for a 70 KB page with a non-ASCII character in it; decision 036).
 */
type Entry = { parts: Buffer[]; size: number; at: number }
const entries = new Map<string, Entry>()
let bytes = 0

registerCache({
  name: 'pages',
  file: 'app/utils/page-cache.server.ts',
  variable: 'entries',
  holds: "a rendered page's HTML, cut where its nonce was (decision 033)",
  key: 'the build, the URL and a hash of the loader data (so a change in what is shown is a new key)',
  lifetime: `${TTL_MS / 1000} s`,
  bound: `${MAX_BYTES / 1024 / 1024} MB of HTML, the oldest use out first`,
  forgottenBy: 'its lifetime, or room for a newer page; a write needs nothing: new data is a new key',
  writesChangeIt: false,
  size: () => entries.size,
})

function forget(key: string, entry: Entry) {
  entries.delete(key)
  bytes -= entry.size
}

/**
 * JSON.stringify's replacer that throws on values JSON would not represent as they are: a Map or
 * Set becomes `{}` (two different ones would share a key), a Date a string (its rendering may differ
 * from the string's), a promise `{}`. Such loader data is rendered every time.
 */
function refuseWhatJsonLoses(this: unknown, key: string, value: unknown) {
  const raw = (this as Record<string, unknown>)[key]
  if (
    raw instanceof Map ||
    raw instanceof Set ||
    raw instanceof Date ||
    raw instanceof RegExp ||
    raw instanceof Promise ||
    typeof raw === 'function' ||
    typeof raw === 'symbol'
  )
    throw new TypeError('loader data that JSON does not represent')
  return value
}

/** The key of a document render, or null when this render is not one to keep. */
export function pageKey(request: Request, status: number, context: EntryContext): string | null {
  if (process.env.NODE_ENV !== 'production' || process.env.PAGE_CACHE === 'off') return null
  const handler = context.staticHandlerContext
  if (request.method !== 'GET' || status !== 200 || handler.actionData || handler.errors) return null
  let data: string
  try {
    data = JSON.stringify(handler.loaderData, refuseWhatJsonLoses)
  } catch {
    return null // not JSON (a Map, a Date, a BigInt, a cycle): render every time
  }
  if (data.length > MAX_DATA_CHARS) return null
  return createHash('sha256')
    .update(context.manifest.version)
    .update('\0')
    .update(request.url)
    .update('\0')
    .update(data)
    .digest('base64')
}

/** The stored page with this request's nonce in it (UTF-8), or undefined. */
export function cachedPage(key: string, nonce: string): Buffer<ArrayBuffer> | undefined {
  const entry = entries.get(key)
  if (!entry) return undefined
  if (Date.now() - entry.at > TTL_MS) {
    forget(key, entry)
    return undefined
  }
  // Most recently used last: the oldest use is the first evicted.
  entries.delete(key)
  entries.set(key, entry)
  const nonceBytes = Buffer.from(nonce)
  const pieces: Buffer[] = [entry.parts[0]!]
  for (let i = 1; i < entry.parts.length; i++) pieces.push(nonceBytes, entry.parts[i]!)
  return Buffer.concat(pieces)
}

/** Keeps `page` (UTF-8) under `key`, cut where `nonce` is. */
export function keepPage(key: string, page: Buffer, nonce: string) {
  if (page.length > MAX_BYTES / 8) return
  const old = entries.get(key)
  if (old) forget(key, old)
  const parts: Buffer[] = []
  for (let from = 0; ;) {
    const at = page.indexOf(nonce, from)
    parts.push(page.subarray(from, at === -1 ? page.length : at))
    if (at === -1) break
    from = at + Buffer.byteLength(nonce)
  }
  entries.set(key, { parts, size: page.length, at: Date.now() })
  bytes += page.length
  // Least recently used first: out while over the limit or past their time.
  const now = Date.now()
  for (const [oldest, entry] of entries) {
    if (bytes <= MAX_BYTES && now - entry.at <= TTL_MS) break
    forget(oldest, entry)
  }
}

/** For tests: empty the cache. */
export function clearPageCache() {
  entries.clear()
  bytes = 0
}
