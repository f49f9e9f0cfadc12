/** HTTP helpers for the cluster: DRF-style responses and errors. */

import { randomBytes } from 'node:crypto'
import type { ClusterRequest } from './node-http'

export const JSON_HEADERS = { 'content-type': 'application/json' }

/** An answer's bytes and headers as made, kept beside its `Response` for the node server (node-http.ts). */
export interface Reply {
  /** The bytes, or their parts in order (a list's items, written as they are kept: decision 090). */
  body: string | Uint8Array | readonly Uint8Array[] | undefined
  headers: Record<string, string | number>
}

const replies = new WeakMap<Response, Reply>()

/**
 * A `Response` of `body` whose bytes and headers the node server writes as they are (decision 054).
 * The Response itself is made without its body: a body makes undici build a stream for it, ~40 µs
 * a response, which the node server never reads (decision 087). The cluster's handler gives it its
 * body (`withBody`) when the caller is in process (tests, the seed) and reads the Response.
 */
export function reply(
  body: string | Uint8Array | readonly Uint8Array[] | null,
  status: number,
  headers: Record<string, string>,
): Response {
  const response = new Response(null, { status, headers })
  const lower: Record<string, string | number> = {}
  for (const key in headers) lower[key.toLowerCase()] = headers[key]
  // a text body is encoded once here: its length and the bytes written are the same work (a list
  // answer is 200 KB at size: issue 33)
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
  if (bytes !== null && status !== 204 && status !== 304) lower['content-length'] = byteLengthOf(bytes)
  replies.set(response, { body: bytes ?? undefined, headers: lower })
  return response
}

const byteLengthOf = (bytes: Uint8Array | readonly Uint8Array[]) =>
  'byteLength' in bytes ? bytes.byteLength : bytes.reduce((sum, part) => sum + part.byteLength, 0)

/** What `reply` kept of a response, or undefined for a Response made otherwise. */
export function replyOf(response: Response): Reply | undefined {
  return replies.get(response)
}

/** `response` with its body, for a caller that reads the Response: one `reply` made without it. */
export function withBody(response: Response): Response {
  const kept = replies.get(response)
  if (kept?.body === undefined) return response
  const body = Array.isArray(kept.body) ? Buffer.concat(kept.body) : kept.body
  const full = new Response(body as BodyInit, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  replies.set(full, kept)
  return full
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return reply(JSON.stringify(body), status, { ...JSON_HEADERS, ...headers })
}

/**
 * Revalidation (decision 102): whether `request`'s If-None-Match names `etag` (a list, `*`, or a weak
 * `W/` form alike). The answer to such a request is `notModified(etag)`: the client keeps what it had.
 */
export function isNotModified(request: ClusterRequest, etag: string): boolean {
  const given = request.headers.get('if-none-match')
  if (!given) return false
  if (given.trim() === '*') return true
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return given.split(',').some((tag) => bare(tag) === bare(etag))
}

/** A 304 with the ETag and no body (and any other headers given). */
export function notModified(etag: string, headers: Record<string, string> = {}): Response {
  return reply(null, 304, { etag, ...headers })
}

/**
 * The header that stamps an answer made from configuration alone (the caller's grants and stored
 * objects: no engine, no clock, no activity records) with the store's configuration generation as
 * it was when the answer was made (decision 113). A console that kept the answer may show it again
 * while an answer of the same caller in its own request names the same generation: nothing the
 * answer reads has changed since. A real cluster sends no such header.
 */
export const CONFIG_GENERATION_HEADER = 'x-config-generation'

/** Names this process in ETags and stamps: the store's generations start again with it (a restart must not repeat one). */
export const STAMP_EPOCH = randomBytes(4).toString('hex')

let stampEpoch = STAMP_EPOCH

/** The stamp of configuration generation `generation` (this process's epoch and the number). */
export function configStamp(generation: number): string {
  return `${stampEpoch}.${generation}`
}

/**
 * Makes every stamp from now on new (a fault was injected: the console must meet it, not show what
 * it kept from before, since a fault stands for a cluster that changed under it).
 */
export function renewStamps(): void {
  stampEpoch = randomBytes(4).toString('hex')
}

/** `response` with `name: value` among its headers (as the node server writes them and as a Response reads them). */
export function withHeader(response: Response, name: string, value: string): Response {
  response.headers.set(name, value)
  const kept = replies.get(response)
  if (kept) kept.headers[name.toLowerCase()] = value
  return response
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return reply(body, status, { 'content-type': 'text/plain; charset=utf-8', ...headers })
}

export function noContent(): Response {
  return reply(null, 204, {})
}

/** An error that becomes a response: thrown anywhere in a handler, answered by the router. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'detail' in body
        ? String((body as { detail: unknown }).detail)
        : `HTTP ${status}`,
    )
  }

  toResponse(): Response {
    return typeof this.body === 'string'
      ? text(this.body, this.status, this.headers)
      : json(this.body, this.status, this.headers)
  }
}

/** 400 with DRF field errors: `{"field": ["message"]}` (nested objects for settings). */
export function validationError(errors: Record<string, unknown>): HttpError {
  return new HttpError(400, errors)
}

export const badRequest = (detail: string) => new HttpError(400, { detail })
export const unauthorized = (detail = 'Authentication credentials were not provided.') =>
  new HttpError(401, { detail }, { 'www-authenticate': 'Bearer realm="api"' })
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new HttpError(403, { detail })
export const notFound = (detail = 'Not found.') => new HttpError(404, { detail })
export const methodNotAllowed = (method: string) => new HttpError(405, { detail: `Method "${method}" not allowed.` })

/** No real object nests this deep; deeper bodies are refused before anything recurses over them. */
const MAX_JSON_DEPTH = 64

/** Nesting depth of a parsed JSON value, measured without recursion. */
function depthOf(value: unknown): number {
  let max = 0
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (!v || typeof v !== 'object') continue
    if (d + 1 > max) max = d + 1
    if (max > MAX_JSON_DEPTH) return max
    for (const child of Object.values(v)) stack.push([child, d + 1])
  }
  return max
}

/** Parses a JSON object body; a 400 with a message for empty, malformed or non-object bodies. */
export async function readJsonObject(request: ClusterRequest): Promise<Record<string, unknown>> {
  const raw = await request.text()
  if (!raw.trim()) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw badRequest(`JSON parse error - ${(error as Error).message}`)
  }
  if (depthOf(parsed) > MAX_JSON_DEPTH)
    throw badRequest(`JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels`)
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw validationError({
      non_field_errors: [
        'Invalid data. Expected a dictionary, but got ' + (Array.isArray(parsed) ? 'list' : typeof parsed) + '.',
      ],
    })
  }
  return parsed as Record<string, unknown>
}

/** Compares `v5.3.1`-style versions; returns true when `version` is older than `major.minor`. */
export function isVersionBefore(version: string, major: number, minor: number): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version)
  if (!m) return false
  const [a, b] = [Number(m[1]), Number(m[2])]
  return a < major || (a === major && b < minor)
}

/**
 * A list answer: DRF page-number pagination (`page`, `page_size`), or a bare array when the cluster
 * imitates a version before v5.4.
 */
export function listResponse<T>(
  request: ClusterRequest,
  items: T[],
  options: {
    bareArrays: boolean
    defaultPageSize?: number
    serialize?: (item: T) => unknown
    /**
     * Each item's JSON as UTF-8 bytes, when the caller keeps them (`JSON.stringify(serialize(item))`
     * exactly): the answer is copied together from them, byte for byte what stringifying the whole
     * answer makes, with no text joined and encoded again (decision 090: a 237 KB list spent 0.5 ms
     * of its 1.7 encoding the joined text).
     */
    bytes?: (item: T) => Uint8Array
  },
): Response {
  const serialize = options.serialize ?? ((item: T) => item as unknown)
  const { bytes } = options
  if (options.bareArrays)
    return bytes
      ? reply(joinedJson('', items, bytes, ''), 200, JSON_HEADERS)
      : json(options.serialize ? items.map(serialize) : items)
  const url = new URL(request.url)
  const pageSize = clampInt(url.searchParams.get('page_size'), options.defaultPageSize ?? 100, 1, 1000)
  const pages = Math.max(1, Math.ceil(items.length / pageSize))
  const pageParam = url.searchParams.get('page')
  const page = pageParam === null ? 1 : Number(pageParam)
  if (!Number.isInteger(page) || page < 1 || page > pages) throw notFound('Invalid page.')
  const link = (n: number) => {
    const u = new URL(url)
    u.searchParams.set('page', String(n))
    return u.toString()
  }
  const shown = items.slice((page - 1) * pageSize, page * pageSize)
  const head = {
    count: items.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
  }
  if (bytes)
    return reply(joinedJson(`${JSON.stringify(head).slice(0, -1)},"results":`, shown, bytes, '}'), 200, JSON_HEADERS)
  return json({ ...head, results: shown.map(serialize) })
}

const COMMA = Buffer.from(',')

/**
 * `before` + a JSON array of the items' bytes + `after`, as the parts in order: the node server
 * writes them as they are kept, with no answer-sized buffer made per request (each was external
 * memory that V8 answered with a scavenge every ~100 answers of 237 KB: decision 090).
 */
function joinedJson<T>(before: string, items: T[], bytes: (item: T) => Uint8Array, after: string): Uint8Array[] {
  const parts: Uint8Array[] = [Buffer.from(`${before}[`)]
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(bytes(item))
  })
  parts.push(Buffer.from(`]${after}`))
  return parts
}

function clampInt(value: string | null, fallback: number, min: number, max: number) {
  const n = value === null ? NaN : Number(value)
  if (!Number.isInteger(n)) return fallback
  return Math.min(max, Math.max(min, n))
}

export function nowIso(): string {
  // DRF renders microseconds; JS has milliseconds, padded to the same shape.
  return new Date().toISOString().replace('Z', '000Z')
}
