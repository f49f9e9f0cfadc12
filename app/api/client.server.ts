import { redirect } from '@remix-run/node'
import { getClusterUrl, getEnv } from '~/utils/env.server'
import { loginUrlFor, logoutHeaders, requireSession, type SessionData } from '~/utils/session.server'
import { mergeDefaults, TABLE_DEFAULTS, TRANSFORM_DEFAULTS, type TableDefaults, type TransformDefaults } from '~/schemas/defaults'
import { ClusterError, type ErrorContext } from './errors.server'

export const API_BASE_PATH = '/config/v1'
/** Spec section 9: every cluster call gives up after 300000 ms. */
export const REQUEST_TIMEOUT_MS = 300_000

let timeoutMs = REQUEST_TIMEOUT_MS
/** Tests shorten the time-out; returns a function that restores the previous value. */
export function setRequestTimeout(ms: number): () => void {
  const previous = timeoutMs
  timeoutMs = ms
  return () => {
    timeoutMs = previous
  }
}

export type Page<T> = { count: number; results: T[]; next: string | null; previous: string | null }
export type ListOptions = { page?: number; pageSize?: number; params?: Record<string, string | number | undefined> }
type CallOptions = {
  /** Bearer token; omitted on the public pages' calls (login, reset, verify). */
  token?: string
  context?: ErrorContext
  /** Return the response text instead of parsed JSON. */
  asText?: boolean
  headers?: HeadersInit
  signal?: AbortSignal
}

/**
 * Calls the cluster at `url` and returns the parsed body (undefined for 204).
 * Throws ClusterError with the catalogue's status and message on any failure, time-out included.
 */
export async function callCluster<T>(
  method: string,
  url: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<T> {
  const headers = new Headers(options.headers)
  headers.set('Accept', options.asText ? 'text/plain, */*' : 'application/json')
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`)
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers.set('Content-Type', 'application/json')
    payload = JSON.stringify(body)
  }
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const context = options.context ?? 'default'

  let response: Response
  try {
    response = await fetch(url, { method, headers, body: payload, signal })
  } catch (error) {
    if (timeout.aborted) throw new ClusterError({ status: 408, url, context })
    if (options.signal?.aborted) throw error
    // Nothing answered (refused, reset, DNS): the catalogue's "no response" row.
    throw new ClusterError({ status: 503, url, context, body: undefined })
  }

  let text: string
  try {
    text = await response.text()
  } catch {
    if (timeout.aborted) throw new ClusterError({ status: 408, url, context })
    throw new ClusterError({ status: 503, url, context })
  }
  if (!response.ok) {
    throw new ClusterError({
      status: response.status,
      statusText: response.statusText,
      body: parseBody(text),
      url,
      context,
      supportEmail: getEnv().SUPPORT_EMAIL,
    })
  }
  if (options.asText) return text as T
  if (response.status === 204 || text === '') return undefined as T
  return parseBody(text) as T
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

/** A cluster client bound to one signed-in session; paths are relative to /config/v1. */
export type ClusterApi = {
  orgId: string
  userId: string
  get<T>(path: string, options?: { params?: ListOptions['params']; context?: ErrorContext }): Promise<T>
  post<T>(path: string, body?: unknown): Promise<T>
  put<T>(path: string, body?: unknown): Promise<T>
  patch<T>(path: string, body?: unknown): Promise<T>
  del(path: string): Promise<void>
  /** A list as `{count, results, next, previous}` whether the cluster pages it or not. */
  list<T>(path: string, options?: ListOptions): Promise<Page<T>>
  /** Calls `${origin}${path}` outside /config/v1 (e.g. /version); text unless `json` is set. */
  raw<T = string>(method: string, path: string, options?: { body?: unknown; json?: boolean; context?: ErrorContext }): Promise<T>
}

function withParams(path: string, params: ListOptions['params'] = {}): string {
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

/** Returns a client for `session`; see requireApi for the usual way in. */
export function createClusterApi(session: SessionData, origin = getClusterUrl()): ClusterApi {
  const url = (path: string) => `${origin}${API_BASE_PATH}${path.startsWith('/') ? path : `/${path}`}`
  const token = session.token
  return {
    orgId: session.orgId,
    userId: session.userId,
    get: (path, options) =>
      callCluster('GET', url(withParams(path, options?.params)), undefined, { token, context: options?.context }),
    post: (path, body) => callCluster('POST', url(path), body ?? {}, { token }),
    put: (path, body) => callCluster('PUT', url(path), body ?? {}, { token }),
    patch: (path, body) => callCluster('PATCH', url(path), body ?? {}, { token }),
    del: async (path) => {
      await callCluster('DELETE', url(path), undefined, { token })
    },
    list: async (path, options = {}) => {
      const body = await callCluster<unknown>(
        'GET',
        url(withParams(path, { page: options.page, page_size: options.pageSize, ...options.params })),
        undefined,
        { token },
      )
      return toPage(body)
    },
    raw: (method, path, options = {}) =>
      callCluster(method, `${origin}${path}`, options.body, { token, asText: !options.json, context: options.context }),
  }
}

const apis = new WeakMap<Request, Promise<ClusterApi>>()

/** Returns the cluster client for the signed-in user; redirects to /login?prevUrl=… without a session. */
export function requireApi(request: Request): Promise<ClusterApi> {
  let api = apis.get(request)
  if (!api) {
    api = requireSession(request).then((session) => createClusterApi(session))
    apis.set(request, api)
    // A redirect must not be cached as a rejected promise shared with unrelated callers' catch blocks.
    api.catch(() => apis.delete(request))
  }
  return api
}

/** Calls `load` once per Request and key, so the user/defaults/version calls happen once per request. */
function memo<T>(store: WeakMap<Request, Promise<T>>, request: Request, load: () => Promise<T>): Promise<T> {
  let value = store.get(request)
  if (!value) {
    value = load()
    store.set(request, value)
  }
  return value
}

export type CurrentUser = {
  uuid: string
  email: string
  roles?: string[]
  scope?: unknown
  permissions?: unknown
  [key: string]: unknown
}

const users = new WeakMap<Request, Promise<CurrentUser>>()
/**
 * Returns the signed-in user (GET /users/{userId}), fetched once per request.
 * A 401 ends the session: throws a redirect to /login?prevUrl=… that clears the cookies.
 */
export function getCurrentUser(request: Request): Promise<CurrentUser> {
  return memo(users, request, async () => {
    const api = await requireApi(request)
    try {
      return await api.get<CurrentUser>(`/users/${api.userId}`)
    } catch (error) {
      if (error instanceof ClusterError && error.status === 401) {
        throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
      }
      throw error
    }
  })
}

const defaultsByRequest = new WeakMap<Request, Promise<Record<string, unknown>>>()
/** Returns the cluster's default settings (GET /defaults), fetched once per request. */
export function getDefaults(request: Request): Promise<Record<string, unknown>> {
  return memo(defaultsByRequest, request, async () => (await requireApi(request)).get('/defaults'))
}

/**
 * The table defaults (spec section 3): the cluster's `table` defaults over the built-in ones; the
 * built-in ones alone when the call fails (a 401 still ends the session).
 */
export async function getTableDefaults(request: Request): Promise<TableDefaults> {
  return mergeDefaults(TABLE_DEFAULTS, (await safeDefaults(request))?.table)
}

/** The transform defaults: the cluster's `transform` defaults over the built-in ones. */
export async function getTransformDefaults(request: Request): Promise<TransformDefaults> {
  return mergeDefaults(TRANSFORM_DEFAULTS, (await safeDefaults(request))?.transform)
}

async function safeDefaults(request: Request): Promise<Record<string, unknown> | null> {
  try {
    return await getDefaults(request)
  } catch (error) {
    if (error instanceof ClusterError && error.status === 401) {
      throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
    }
    if (error instanceof ClusterError) return null
    throw error
  }
}

const summaries = new WeakMap<Request, Promise<Record<string, unknown>>>()
/** Returns the active org's summary (GET /orgs/{org}/summary?meta=1), fetched once per request. */
export function getOrgSummary(request: Request): Promise<Record<string, unknown>> {
  return memo(summaries, request, async () => {
    const api = await requireApi(request)
    return api.get(`/orgs/${api.orgId}/summary`, { params: { meta: 1 } })
  })
}

const versions = new WeakMap<Request, Promise<string>>()
/** Returns the cluster version (GET {origin}/version, text), fetched once per request; throws ClusterError. */
export function getVersion(request: Request): Promise<string> {
  return memo(versions, request, async () => {
    const api = await requireApi(request)
    const text = await api.raw<string>('GET', '/version', { context: 'version' })
    return text.trim()
  })
}

/** Calls a public /config/v1 endpoint (login, reset, verify) without an Authorization header. */
export function callPublic<T>(method: string, path: string, body?: unknown): Promise<T> {
  return callCluster<T>(method, `${getClusterUrl()}${API_BASE_PATH}${path}`, body)
}
