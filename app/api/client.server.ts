import { redirect } from '@remix-run/node'
import { getClusterUrl, getEnv } from '~/utils/env.server'
import { recordClusterCall, recordKeptRead } from '~/utils/request-context.server'
import { loginUrlFor, logoutHeaders, type SessionData } from '~/utils/session.server'
import { createHash } from 'node:crypto'
import { ClusterError, type ErrorContext } from './errors.server'
import { registerCache } from '~/utils/caches.server'
import { keepAnswer, keptAnswer, requestGeneration } from './generation-kept.server'
import { forgetOrgReads } from './read-cache.server'
import { parseShared } from './shared-answers.server'
import { requireValidSession } from './session-check.server'
import { exchange, TransportFailure, type Answer } from './transport.server'
import { CONFIG_READ_TIMEOUT_MS, CONFIG_WRITE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '~/utils/cluster-timeouts'

/*
 * The transport, and only the transport: one way to call the cluster (callCluster / send), one
 * per-request client (ClusterApi) that owns the 401 policy. What each resource is lives in its own
 * `<resource>.server.ts`; what a loader or action does with a failure lives in policies.server.ts.
 */

export const API_BASE_PATH = '/config/v1'
export { CONFIG_READ_TIMEOUT_MS, CONFIG_WRITE_TIMEOUT_MS, REQUEST_TIMEOUT_MS }

/**
 * Which time-out a call has (decision 098): a configuration read 10 s, a configuration change 20 s,
 * anything else (a query, an ingest, an upload, /version) the spec's 300 s.
 */
export type TimeoutKind = 'config-read' | 'config-write' | 'long'

let override: number | undefined
/** Tests shorten the time-out (config calls and queries alike); returns a function that restores it. */
export function setRequestTimeout(ms: number): () => void {
  const previous = override
  override = ms
  return () => {
    override = previous
  }
}

/** The time-out in ms of a call of `kind`. */
export function timeoutOf(kind: TimeoutKind = 'long'): number {
  if (override !== undefined) return override
  return kind === 'config-read'
    ? CONFIG_READ_TIMEOUT_MS
    : kind === 'config-write'
      ? CONFIG_WRITE_TIMEOUT_MS
      : REQUEST_TIMEOUT_MS
}

/**
 * A call the cluster did not answer in time (the catalogue's 408): how long the console waited, and
 * whether it asked for a change, which the cluster may still apply (a frozen cluster resumed).
 */
export class ClusterTimeoutError extends ClusterError {
  readonly waitedMs: number
  readonly isChange: boolean
  constructor(details: { url: string; context: ErrorContext; method: string; waitedMs: number }) {
    super({ status: 408, url: details.url, context: details.context })
    this.waitedMs = details.waitedMs
    this.isChange = !['GET', 'HEAD', 'OPTIONS'].includes(details.method.toUpperCase())
  }
}

export type Page<T> = { count: number; results: T[]; next: string | null; previous: string | null }
export type Params = Record<string, string | number | undefined>
export type ListOptions = { page?: number; pageSize?: number; params?: Params }

type SendOptions = {
  /** Bearer token; omitted on the public pages' calls (login, reset, verify). */
  token?: string
  context?: ErrorContext
  accept?: string
  headers?: HeadersInit
  signal?: AbortSignal
  /** Which time-out applies (the spec's 300 s unless said). */
  timeout?: TimeoutKind
  /** A conditional read (If-None-Match): a 304 is an answer, not a refusal (decision 102). */
  isConditional?: boolean
}

/**
 * Sends one request to the cluster and returns its successful Response, body unread (for the caller
 * to parse or stream). A FormData or string body is sent as is, anything else as JSON. Throws
 * ClusterError with the catalogue's status and message on any failure: 408 on the time-out, 503
 * when nothing answered. An abort by `signal` (the console request going away) is rethrown as is.
 */
export async function send(method: string, url: string, body: unknown, options: SendOptions = {}): Promise<Response> {
  const { headers, payload } = outgoing(body, options)
  const timeoutMs = timeoutOf(options.timeout)
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const context = options.context ?? 'default'
  const timedOut = () => new ClusterTimeoutError({ url, context, method, waitedMs: timeoutMs })

  let response: Response
  const started = performance.now()
  try {
    response = await fetch(url, { method, headers, body: payload, signal })
  } catch (error) {
    if (timeout.aborted) throw timedOut()
    if (options.signal?.aborted) throw error
    // Nothing answered (refused, reset, DNS): the catalogue's "no response" row.
    throw new ClusterError({ status: 503, url, context, body: undefined })
  } finally {
    // Time to the response's head: a streamed body (a query) is the browser's wait, not the cluster's.
    recordClusterCall(performance.now() - started, method, url)
  }
  if (response.ok) return response

  let text = ''
  try {
    text = await response.text()
  } catch {
    if (timeout.aborted) throw timedOut()
  }
  throw refusal(response.status, response.statusText, text, url, context)
}

/** The headers and body of a call: a FormData or string body as is, anything else as JSON. */
function outgoing(
  body: unknown,
  options: SendOptions,
): { headers: Record<string, string>; payload: string | FormData | undefined } {
  const headers: Record<string, string> = {}
  if (options.headers) new Headers(options.headers).forEach((value, key) => (headers[key] = value))
  headers.accept ??= options.accept ?? 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (body instanceof FormData) return { headers, payload: body }
  if (typeof body === 'string') {
    // what fetch would send for a string body
    headers['content-type'] ??= 'text/plain;charset=UTF-8'
    return { headers, payload: body }
  }
  if (body === undefined) return { headers, payload: undefined }
  headers['content-type'] = 'application/json'
  return { headers, payload: JSON.stringify(body) }
}

/** The cluster's refusal (a status that is not 2xx) as the catalogue's ClusterError. */
function refusal(status: number, statusText: string, text: string, url: string, context: ErrorContext): ClusterError {
  return new ClusterError({
    status,
    statusText,
    body: parseBody(text),
    url,
    context,
    supportEmail: getEnv().SUPPORT_EMAIL,
  })
}

/**
 * Calls the cluster at `url` and returns the parsed body (undefined for 204), or the text with
 * `asText`. Throws ClusterError as `send` does, also when the body cannot be read (503) or is not
 * JSON (502). Sent with node:http (transport.server.ts); a FormData body goes through fetch.
 */
export async function callCluster<T>(
  method: string,
  url: string,
  body?: unknown,
  options: SendOptions & { asText?: boolean; shareParsed?: boolean } = {},
): Promise<T> {
  const accept = options.asText ? 'text/plain, */*' : 'application/json'
  let status: number
  let text: string
  if (body instanceof FormData) {
    const response = await send(method, url, body, { accept, ...options })
    status = response.status
    try {
      text = await response.text()
    } catch (error) {
      if (options.signal?.aborted) throw error
      throw new ClusterError({ status: 503, url, context: options.context })
    }
  } else {
    const answer = await exchangeOrThrow(method, url, body, { accept, ...options })
    status = answer.status
    text = answer.text
  }
  if (options.asText) return text as T
  return parsed<T>(status, text, url, options)
}

/** A successful answer's JSON (undefined for 204 or nothing); a body that is not JSON is the catalogue's 502. */
function parsed<T>(
  status: number,
  text: string,
  url: string,
  options: { context?: ErrorContext; shareParsed?: boolean },
): T {
  if (status === 204 || text === '') return undefined as T
  try {
    return (options.shareParsed ? parseShared(text) : JSON.parse(text)) as T
  } catch {
    // A success whose body is not the JSON asked for (a broken answer, a proxy's page): the
    // upstream failed, as the catalogue's 502 says; never an empty or half-read page.
    throw new ClusterError({ status: 502, url, context: options.context, body: text.slice(0, 1000) })
  }
}

/**
 * `send`'s contract over node:http, for a body that is a string, JSON or nothing: the successful
 * answer read whole, or ClusterError (408 time-out, 503 nothing answered or the body broke off, the
 * cluster's status otherwise); the caller's abort rethrown as its reason.
 */
async function exchangeOrThrow(method: string, url: string, body: unknown, options: SendOptions): Promise<Answer> {
  const { headers, payload } = outgoing(body, options)
  if (payload instanceof FormData) throw new TypeError('A FormData body is sent with `send`')
  // fetch asks for these itself
  headers['accept-encoding'] ??= 'gzip, deflate, br'
  const context = options.context ?? 'default'
  const timeoutMs = timeoutOf(options.timeout)
  const timedOut = () => new ClusterTimeoutError({ url, context, method, waitedMs: timeoutMs })
  const started = performance.now()
  let answer: Answer
  try {
    answer = await exchange(method, url, headers, payload, {
      timeoutMs,
      signal: options.signal,
      // Time to the answer's head, as `send` counts it.
      onHead: () => recordClusterCall(performance.now() - started, method, url),
    })
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error
    if (!error.afterHead) recordClusterCall(performance.now() - started, method, url)
    if (error.reason === 'aborted') throw error.abortReason ?? error
    const head = error.afterHead
    // Before any answer: the time-out's 408, or the catalogue's "no response". A successful answer
    // whose body broke off cannot be read (503); a refusal whose body broke off is still that refusal.
    if (!head) throw error.reason === 'timeout' ? timedOut() : new ClusterError({ status: 503, url, context })
    if (head.status >= 200 && head.status < 300) throw new ClusterError({ status: 503, url, context })
    if (error.reason === 'timeout') throw timedOut()
    answer = { ...head, text: '' }
  }
  if (answer.status >= 200 && answer.status < 300) return answer
  if (answer.status === 304 && options.isConditional) return answer
  throw refusal(answer.status, answer.statusText, answer.text, url, context)
}

function parseBody(text: string): unknown {
  // A 503 with an empty body must still read as "Service Unavailable", not "no response".
  if (text === '') return ''
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Per call: which catalogue wording applies, and whether a 401 may end the session. */
export type CallOptions = {
  params?: Params
  context?: ErrorContext
  /**
   * Keep the session on a 401 and throw the ClusterError instead, for a panel that must survive
   * one refused call. Monitoring and version calls keep it always: their 401 means "this part
   * cannot be accessed", not "your session ended" (spec section 8).
   */
  keepSession?: boolean
  /**
   * A call that is not a GET but changes nothing (a read-only query, the validator): it forgets no
   * cached read. Every other call that is not a GET forgets the org's (see `sent`).
   */
  isRead?: boolean
  /**
   * The parsed answer may be one shared with other requests that got the same bytes, deeply frozen
   * (`parseShared`, decision 089): for a large list its callers only read (the org's pools).
   */
  shareParsed?: boolean
}

export type StreamOptions = CallOptions & {
  body?: string | FormData
  headers?: HeadersInit
  accept?: string
  /** Stops the call instead of the console request's signal (a run several requests share). */
  signal?: AbortSignal
}

/** A cluster client bound to one signed-in session and one console request. */
export type ClusterApi = {
  /** The cluster's origin as the console reaches it (`https://cluster.example.com`). */
  origin: string
  orgId: string
  userId: string
  /** Names this session (org and a hash of its token, never the token) for the read cache. */
  sessionKey: string
  /** The console request's signal: a user navigating away cancels long calls (queries). */
  signal: AbortSignal | undefined
  /** Paths are relative to /config/v1. */
  get<T>(path: string, options?: CallOptions): Promise<T>
  post<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>
  put<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>
  patch<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>
  del(path: string, options?: CallOptions): Promise<void>
  /** A list as `{count, results, next, previous}` whether the cluster pages it or not. */
  list<T>(path: string, options?: ListOptions & CallOptions): Promise<Page<T>>
  /** Calls `${origin}${path}` outside /config/v1 (e.g. /version); text unless `json` is set. */
  raw<T = string>(method: string, path: string, options?: CallOptions & { body?: unknown; json?: boolean }): Promise<T>
  /** Calls `${origin}${path}` and returns the successful Response unread, to stream (e.g. /query). */
  stream(method: string, path: string, options?: StreamOptions): Promise<Response>
  /**
   * `stream`'s call with a string body or none, its successful answer read whole (node:http, about
   * a millisecond of the console's CPU less than fetch a call: issue 52), for a caller that reads it
   * all anyway (one of the console's own queries). Throws as `stream`.
   */
  whole(method: string, path: string, options?: StreamOptions & { body?: string }): Promise<WholeAnswer>
  /**
   * A conditional GET of `path` (relative to /config/v1; decision 102): with `kept` (an answer and its
   * ETag from before) it sends If-None-Match and answers `kept` itself on the cluster's 304; otherwise
   * the answer, with its ETag when the cluster gives one (a cluster that gives none: the plain read).
   */
  revalidate<T>(path: string, kept?: Revalidated<T>, options?: CallOptions): Promise<Revalidated<T>>
}

/** A successful answer read whole: its status, text and headers (by lower-case name). */
export type WholeAnswer = { status: number; text: string; header(name: string): string | null }

/**
 * An answer and the ETag it came with (none from a cluster that gives none), and the configuration
 * generation the cluster named with it (decision 113; none from a cluster that names none).
 */
export type Revalidated<T> = { value: T; etag?: string; generation?: string }

/** The header a cluster stamps an answer made from configuration alone with (decision 113; the local cluster's). */
export const CONFIG_GENERATION_HEADER = 'x-config-generation'

function headerOf(answer: Answer, name: string): string | undefined {
  const value = answer.headers?.[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function withParams(path: string, params: Params = {}): string {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== '')
  if (!entries.length) return path
  const search = new URLSearchParams(entries.map(([key, value]) => [key, String(value)]))
  return `${path}${path.includes('?') ? '&' : '?'}${search}`
}

/** Normalises a list answer: a DRF page or a bare array (pre-5.4 clusters). */
export function toPage<T>(body: unknown): Page<T> {
  if (Array.isArray(body)) return { count: body.length, results: body as T[], next: null, previous: null }
  if (body && typeof body === 'object' && Array.isArray((body as Page<T>).results)) {
    const page = body as Partial<Page<T>> & { results: T[] }
    return {
      count: typeof page.count === 'number' ? page.count : page.results.length,
      results: page.results,
      next: page.next ?? null,
      previous: page.previous ?? null,
    }
  }
  return { count: 0, results: [], next: null, previous: null }
}

/**
 * The page the user was on when a call failed: for a form POST the page that held the form (the
 * Referer when it is this site's), otherwise the request's own URL.
 */
function currentPage(request: Request): Request {
  if (request.method === 'GET' || request.method === 'HEAD') return request
  const referer = request.headers.get('Referer')
  if (referer) {
    try {
      const url = new URL(referer)
      if (url.origin === new URL(request.url).origin) return new Request(url)
    } catch {
      // Not a URL: fall back to the action's own URL.
    }
  }
  return request
}

/**
 * The one 401 policy: the cluster no longer accepts the token, so the session ends. Returns the
 * redirect to /login?prevUrl=<the user's page> that clears every console cookie.
 */
export async function endSession(request: Request): Promise<Response> {
  return redirect(loginUrlFor(currentPage(request)), { headers: await logoutHeaders(request) })
}

/**
 * Returns a client for `session`. With `request`, a 401 from any call (unless the call keeps the
 * session) throws the endSession redirect; see requireApi for the usual way in.
 */
export function createClusterApi(
  session: SessionData,
  options: { request?: Request; origin?: string } = {},
): ClusterApi {
  const origin = options.origin ?? getClusterUrl()
  const { request } = options
  const url = (path: string) => `${origin}${API_BASE_PATH}${path.startsWith('/') ? path : `/${path}`}`
  const token = session.token
  const sessionKey = `${session.orgId}:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`

  async function guarded<T>(call: () => Promise<T>, callOptions: CallOptions = {}): Promise<T> {
    try {
      return await call()
    } catch (error) {
      const context = callOptions.context ?? 'default'
      const keepsSession = callOptions.keepSession || context === 'monitoring' || context === 'version'
      if (request && error instanceof ClusterError && error.status === 401 && !keepsSession)
        throw await endSession(request)
      throw error
    }
  }
  /**
   * A configuration read (decision 113): the answer kept for this session and URL when the cluster
   * stamped it with the generation this request's users/current names, otherwise the cluster's
   * answer, kept when it is stamped. Throws as callCluster.
   */
  async function readConfig<T>(target: string, callOptions: CallOptions = {}): Promise<T> {
    const key = `${sessionKey}\u0000${target}`
    const known = keptAnswer(key)
    if (known && (await requestGeneration(api)) === known.generation) {
      recordKeptRead()
      return parsed<T>(200, known.text, target, callOptions)
    }
    const answer = await exchangeOrThrow('GET', target, undefined, {
      token,
      context: callOptions.context,
      accept: 'application/json',
      timeout: 'config-read',
    })
    keepAnswer(key, headerOf(answer, CONFIG_GENERATION_HEADER), answer.text)
    return parsed<T>(answer.status, answer.text, target, callOptions)
  }

  const json = <T>(method: string, path: string, body: unknown, callOptions?: CallOptions) =>
    method === 'GET'
      ? guarded(() => readConfig<T>(url(withParams(path, callOptions?.params)), callOptions), callOptions)
      : sent(method, session.orgId, callOptions, () =>
          guarded(
            () =>
              callCluster<T>(method, url(withParams(path, callOptions?.params)), body, {
                token,
                context: callOptions?.context,
                shareParsed: callOptions?.shareParsed,
                // a FormData body is an upload (a file can be large): the long time-out
                timeout: body instanceof FormData ? 'long' : 'config-write',
              }),
            callOptions,
          ),
        )

  const api: ClusterApi = {
    origin,
    orgId: session.orgId,
    userId: session.userId,
    sessionKey,
    signal: request?.signal,
    get: (path, callOptions) => json('GET', path, undefined, callOptions),
    post: (path, body, callOptions) => json('POST', path, body ?? {}, callOptions),
    put: (path, body, callOptions) => json('PUT', path, body ?? {}, callOptions),
    patch: (path, body, callOptions) => json('PATCH', path, body ?? {}, callOptions),
    del: async (path, callOptions) => {
      await json('DELETE', path, undefined, callOptions)
    },
    list: async (path, { page, pageSize, params, ...callOptions } = {}) =>
      toPage(
        await json<unknown>('GET', path, undefined, {
          ...callOptions,
          params: { page, page_size: pageSize, ...params },
        }),
      ),
    raw: (method, path, { body, json: isJson, ...callOptions } = {}) =>
      sent(method, session.orgId, callOptions, () =>
        guarded(
          () =>
            callCluster(method, `${origin}${withParams(path, callOptions.params)}`, body, {
              token,
              asText: !isJson,
              context: callOptions.context,
            }),
          callOptions,
        ),
      ),
    revalidate: <T>(path: string, kept?: Revalidated<T>, callOptions: CallOptions = {}) =>
      guarded(async (): Promise<Revalidated<T>> => {
        const target = url(withParams(path, callOptions.params))
        const context = callOptions.context
        const answer = await exchangeOrThrow('GET', target, undefined, {
          token,
          context,
          accept: 'application/json',
          timeout: 'config-read',
          headers: kept?.etag ? { 'if-none-match': kept.etag } : undefined,
          isConditional: !!kept?.etag,
        })
        const generation = headerOf(answer, CONFIG_GENERATION_HEADER)
        if (answer.status === 304) return { value: kept!.value, etag: kept!.etag, generation }
        try {
          return {
            value: (answer.text === '' ? undefined : JSON.parse(answer.text)) as T,
            etag: answer.etag,
            generation,
          }
        } catch {
          throw new ClusterError({ status: 502, url: target, context, body: answer.text.slice(0, 1000) })
        }
      }, callOptions),
    stream: (method, path, { body, headers, accept, signal, ...callOptions } = {}) =>
      sent(method, session.orgId, callOptions, () =>
        guarded(
          () =>
            send(method, `${origin}${withParams(path, callOptions.params)}`, body, {
              token,
              headers,
              accept: accept ?? '*/*',
              context: callOptions.context,
              signal: signal ?? request?.signal,
            }),
          callOptions,
        ),
      ),
    whole: (method, path, { body, headers, accept, signal, ...callOptions } = {}) =>
      sent(method, session.orgId, callOptions, () =>
        guarded(async (): Promise<WholeAnswer> => {
          const answer = await exchangeOrThrow(method, `${origin}${withParams(path, callOptions.params)}`, body, {
            token,
            headers,
            accept: accept ?? '*/*',
            context: callOptions.context,
            signal: signal ?? request?.signal,
          })
          const given = answer.headers ?? {}
          return {
            status: answer.status,
            text: answer.text,
            header: (name) => {
              const value = given[name.toLowerCase()]
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
            },
          }
        }, callOptions),
      ),
  }
  return api
}

/**
 * Runs a call: the one forget-on-write path (decision 060). Any call that is not a GET (JSON, text
 * or streamed alike) may change what a kept read shows, unless it says it only reads (`isRead`):
 * every read kept across requests for any session of the org (the schema tree's included) is
 * forgotten when it is sent and again when it is answered (a read that started meanwhile may have
 * kept what was there before), before the caller goes on. Succeeded or failed alike: a failed change
 * may have changed something. Other replicas keep nothing a change can affect (read-cache.server).
 */
function sent<T>(method: string, orgId: string, options: CallOptions | undefined, call: () => Promise<T>): Promise<T> {
  if (method === 'GET' || method === 'HEAD' || options?.isRead) return call()
  const forget = () => forgetOrgReads(orgId)
  forget()
  const answer = call()
  void answer.then(forget, forget)
  return answer
}

const apis = new WeakMap<Request, Promise<ClusterApi>>()

registerCache({
  name: 'cluster-clients',
  file: 'app/api/client.server.ts',
  variable: 'apis',
  holds: "a request's cluster client (and with it the reads of reads-per-request)",
  key: 'the Request object (one per loader: decision 050)',
  lifetime: 'the request',
  bound: 'the requests in flight',
  forgottenBy: 'the request ending (garbage collected)',
  writesChangeIt: false,
})
registerCache({
  name: 'once-per-request',
  file: 'app/api/client.server.ts',
  holds: "what a function made with oncePerRequest returned for one loader's client (each such function has its own)",
  key: "the loader's cluster client",
  lifetime: 'the loader (decision 050: one client per Request object, so per loader, not per page)',
  bound: 'the loaders in flight',
  forgottenBy: 'the loader ending (garbage collected)',
  writesChangeIt: false,
})

/**
 * Returns the cluster client for the signed-in user, one per `Request` object (so one per loader, decision 050); redirects to
 * /login?prevUrl=… without a valid session (none, expired, or logged out through any replica:
 * session-check.server). Its calls end the session on a 401 (see createClusterApi).
 */
export function requireApi(request: Request): Promise<ClusterApi> {
  let api = apis.get(request)
  if (!api) {
    // the session check (the cookie, and no Log out through any replica: decision 080) reads the
    // store with a client of its own, not this request's: the read is shared by the org's requests
    api = requireValidSession(request, (session) => createClusterApi(session)).then((session) =>
      createClusterApi(session, { request }),
    )
    apis.set(request, api)
    // A redirect must not be cached as a rejected promise shared with unrelated callers' catch blocks.
    api.catch(() => apis.delete(request))
  }
  return api
}

/**
 * Wraps a read of `api` so that it runs once per client, however often it is asked for. A client is
 * made per loader, not per page: Remix gives each loader its own copy of the request (decision 050),
 * so two loaders of one page each read it once.
 */
export function oncePerRequest<T>(load: (api: ClusterApi) => Promise<T>): (api: ClusterApi) => Promise<T> {
  const store = new WeakMap<ClusterApi, Promise<T>>()
  return (api) => {
    let value = store.get(api)
    if (!value) {
      value = load(api)
      store.set(api, value)
    }
    return value
  }
}

/** Calls a public /config/v1 endpoint (login, reset, verify) without an Authorization header. */
export function callPublic<T>(method: string, path: string, body?: unknown): Promise<T> {
  return callCluster<T>(method, `${getClusterUrl()}${API_BASE_PATH}${path}`, body, {
    timeout: method === 'GET' ? 'config-read' : 'config-write',
  })
}
