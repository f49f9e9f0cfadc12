import './env'
import { TEST_CONSOLE_URL } from './env'
import { ADMIN } from './cluster'

/** What a loader or action gets: `{ request, params, context }`. */
export function args(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} }
}

/** A GET Request to the console at `path`, with `cookie` when given. */
export function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return new Request(`${TEST_CONSOLE_URL}${path}`, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } })
}

/** A form POST Request to the console at `path`. */
export function post(path: string, form: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) {
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
  const { action } = await import('../app/routes/_auth+/login')
  const result = await action(args(post('/login', { email: ADMIN.email, password: ADMIN.password })) as never).catch(
    (thrown: unknown) => thrown,
  )
  if (!(result instanceof Response) || result.status !== 302) {
    throw new Error(`Admin login failed: ${JSON.stringify(result)}`)
  }
  return cookieFrom(result)
}

/** Unwraps `data(value, init)` (single fetch's DataWithResponseInit) or returns a plain object as is. */
export function unwrap<T>(result: unknown): { data: T; status: number } {
  if (result && typeof result === 'object' && 'type' in result && (result as { type: string }).type === 'DataWithResponseInit') {
    const wrapped = result as unknown as { data: T; init: ResponseInit | null }
    return { data: wrapped.data, status: wrapped.init?.status ?? 200 }
  }
  return { data: result as T, status: 200 }
}
