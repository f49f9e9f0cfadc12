import './env'
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import { ADMIN } from './cluster'
import { TEST_CONSOLE_URL } from './env'

/** What Remix passes a loader or an action; one value serves both. */
export type RouteArgs = LoaderFunctionArgs & ActionFunctionArgs

/** The arguments for a direct loader or action call: `request`, the route's `params`, an empty load context. */
export function args(request: Request, params: Record<string, string> = {}): RouteArgs {
  const context: AppLoadContext = {}
  return { request, params, context }
}

/** A GET Request to the console at `path`, with `cookie` when given. */
export function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return new Request(`${TEST_CONSOLE_URL}${path}`, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } })
}

/** A form POST Request to the console at `path`. */
export function post(
  path: string,
  form: Record<string, string>,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  return new Request(`${TEST_CONSOLE_URL}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: {
      ...headers,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie ? { Cookie: cookie } : {}),
    },
  })
}

/** Turns a response's Set-Cookie lines into a Cookie header value (name=value; …). */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ')
}

/**
 * Logs the admin in through the real login action (so the cluster under msw must be running) and
 * returns the Cookie header for direct loader/action calls.
 */
export async function loginAsAdmin(): Promise<string> {
  const { action } = await import('~/routes/_auth+/login')
  const result = await returnedOrThrown(() =>
    action(args(post('/login', { email: ADMIN.email, password: ADMIN.password }))),
  )
  if (!(result instanceof Response) || result.status !== 302) {
    throw new Error(`Admin login failed: ${JSON.stringify(result)}`)
  }
  return cookieFrom(result)
}

/** Runs a loader or action; returns what it returned or threw (redirects and error answers are thrown). */
export async function returnedOrThrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
}

/** Returns `value` as a Response (a redirect, a download); throws naming what it was instead. */
export function asResponse(value: unknown): Response {
  if (value instanceof Response) return value
  throw new Error(`Expected a Response, got ${JSON.stringify(value)}`)
}

/** The Response a loader or action returned or threw (a redirect, a download); throws if it gave anything else. */
export async function responseFrom(run: () => Promise<unknown>): Promise<Response> {
  return asResponse(await returnedOrThrown(run))
}

/** What `data(value, init)` returns under single fetch (`DataWithResponseInit`). */
type DataWithInit<D> = { type: string; data: D; init: ResponseInit | null }

/** The data a loader or action result carries: what it passed to `data()`, or its plain return value. */
export type DataOf<R> = R extends DataWithInit<infer D> ? D : Exclude<R, Response>

function isDataWithInit(result: unknown): result is DataWithInit<unknown> {
  return !!result && typeof result === 'object' && 'type' in result && result.type === 'DataWithResponseInit'
}

/**
 * Unwraps `data(value, init)` (single fetch's DataWithResponseInit) or returns a plain object as is,
 * with the status (200 unless `init` says otherwise). The data's type comes from the loader or
 * action's own return type; for a value whose type is not known (a thrown one), name it: `unwrap<T>(thrown)`.
 */
export function unwrap<R>(result: R): { data: DataOf<R>; status: number }
export function unwrap<T>(result: unknown): { data: T; status: number }
export function unwrap(result: unknown): { data: unknown; status: number } {
  if (isDataWithInit(result)) return { data: result.data, status: result.init?.status ?? 200 }
  return { data: result, status: 200 }
}
