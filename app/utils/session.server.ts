import { createCookie, createCookieSessionStorage, redirect } from '@remix-run/node'
import { COOKIE_PATH, withoutBase } from './base-path'
import { getEnv } from './env.server'
import { toColorMode, type ColorMode } from './color-mode'
import { isTimezone, isZoneName, type Timezone } from './timezone'
import { registerCache } from './caches.server'

export type { Timezone }

/** Every cookie the console sets starts with this prefix (spec section 3: "prefixed for the product"). */
export const COOKIE_PREFIX = 'cc_'
export const SESSION_COOKIE = `${COOKIE_PREFIX}session`
export const TIMEZONE_COOKIE = `${COOKIE_PREFIX}timezone`
export const TOAST_COOKIE = `${COOKIE_PREFIX}toast`
export const THEME_COOKIE = `${COOKIE_PREFIX}theme`
/** The zone the browser last reported, so the server renders "Local" times in it (a preference). */
export const LOCAL_ZONE_COOKIE = `${COOKIE_PREFIX}local_zone`
/**
 * All console cookies; logout clears each of them but the preferences (timezone, theme). The zone
 * the browser reported goes with the session (a shared machine keeps nothing of who used it); the
 * next page with scripts reports it again.
 */
export const CONSOLE_COOKIES = [SESSION_COOKIE, TIMEZONE_COOKIE, TOAST_COOKIE, THEME_COOKIE, LOCAL_ZONE_COOKIE] as const

export const DEFAULT_REDIRECT = '/dashboard'

/** What the login stores (spec section 3): token, user id, expires-in, expiry date, org id. */
export type SessionData = {
  token: string
  userId: string
  /** Token lifetime in seconds, as the login returned it. */
  expiresIn: number
  /** Expiry as epoch milliseconds. */
  expiresAt: number
  orgId: string
}

/**
 * SameSite and Secure for a console cookie. By default the session cookie is Strict and the others
 * Lax, Secure on https (spec section 9). With ALLOW_EMBEDDING the console runs inside another
 * site's frame, where a browser sends only SameSite=None cookies, which must be Secure: every
 * console cookie is then `SameSite=None; Secure`, and CSRF protection rests on the server's Origin
 * check (server/app.ts sameOriginWrites), which refuses any write another site sends.
 */
export function cookieAttributes(
  request: Request | null,
  kind: 'session' | 'preference',
): { sameSite: 'strict' | 'lax' | 'none'; secure: boolean; partitioned?: boolean } {
  // Partitioned (CHIPS): browsers that block third-party cookies keep these, in a jar of the
  // embedding site's own, so the console still works in its frame without tracking across sites.
  if (getEnv().ALLOW_EMBEDDING) return { sameSite: 'none', secure: true, partitioned: true }
  return { sameSite: kind === 'session' ? 'strict' : 'lax', secure: request ? isHttps(request) : false }
}

/** True when the request reached us over https (directly or through a proxy that says so). */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')
  if (forwarded) return forwarded.split(',')[0]!.trim().toLowerCase() === 'https'
  return new URL(request.url).protocol === 'https:'
}

function getSecrets(): string[] {
  const secret = getEnv().SESSION_SECRET ?? process.env.SESSION_SECRET
  if (!secret) throw new Error('SESSION_SECRET is not set: start the console with `npm start` or set SESSION_SECRET')
  return secret.split(',')
}

// Storage objects are cheap; building them per call keeps `secure` per request and picks up the secret.
function sessionStorage(request: Request) {
  return createCookieSessionStorage<SessionData>({
    cookie: {
      name: SESSION_COOKIE,
      httpOnly: true,
      path: COOKIE_PATH,
      ...cookieAttributes(request, 'session'),
      secrets: getSecrets(),
    },
  })
}

function preferenceCookie(request: Request, name: string) {
  return createCookie(name, {
    httpOnly: true,
    path: COOKIE_PATH,
    ...cookieAttributes(request, 'preference'),
    maxAge: 60 * 60 * 24 * 365,
  })
}

/**
 * Sessions already read, by the secrets and the whole signed cookie value: each request of a
 * session otherwise verifies its signature (an HMAC) and decodes it again (base64, Remix's
 * character-by-character unescape and JSON), about 2% of the console's work under load. A hit is a
 * value that was verified before, so it is as safe as verifying it again; expiry is still checked
 * on every read. Bounded: cleared when full.
 */
const readSessions = new Map<string, SessionData>()
const READ_SESSIONS_MAX = 10_000

registerCache({
  name: 'sessions-read',
  file: 'app/utils/session.server.ts',
  variable: 'readSessions',
  holds: 'a session cookie already verified and decoded',
  key: 'the secrets and the whole signed cookie value',
  lifetime: 'until cleared (expiry and revocation are checked on every read)',
  bound: `${READ_SESSIONS_MAX} sessions, then cleared`,
  forgottenBy: 'being full',
  writesChangeIt: false,
  size: () => readSessions.size,
})

/** The raw value of cookie `name` in a Cookie header, or null. */
function rawCookie(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return null
}

/** Reads the session; returns its data when present and not expired, otherwise null. */
export async function getSession(request: Request, now = Date.now()): Promise<SessionData | null> {
  const header = request.headers.get('Cookie')
  const raw = header ? rawCookie(header, SESSION_COOKIE) : null
  const key = raw ? `${getSecrets().join(',')}\u0000${raw}` : null
  let data = key ? readSessions.get(key) : undefined
  if (!data) {
    const session = await sessionStorage(request).getSession(header)
    const token = session.get('token')
    const userId = session.get('userId')
    const expiresAt = Number(session.get('expiresAt'))
    const orgId = session.get('orgId')
    if (!token || !userId || !orgId || !Number.isFinite(expiresAt)) return null
    data = { token, userId, orgId, expiresAt, expiresIn: Number(session.get('expiresIn')) }
    if (key) {
      if (readSessions.size >= READ_SESSIONS_MAX) readSessions.clear()
      readSessions.set(key, data)
    }
  }
  if (now >= data.expiresAt) return null
  if (revokedHere.size && revokedHere.has(data.token)) return null
  return { ...data }
}

/**
 * Tokens logged out through this process, with when they would have expired (issue 37): a copy of
 * the cookie is refused here at once, without asking the cluster. Every other replica refuses it
 * because the cluster does (the console revokes the token there: `POST /config/v1/logout`), or, on
 * a cluster without that call, because the store lists it (decision 080: the API layer's check,
 * app/api/session-check.server.ts, which requireApi asks).
 */
const revokedHere = new Map<string, number>()

registerCache({
  name: 'sessions-revoked',
  file: 'app/utils/session.server.ts',
  variable: 'revokedHere',
  holds: 'a token logged out through this process (refused at once here; the cluster refuses it everywhere)',
  key: 'the token',
  lifetime: 'until the token would have expired',
  bound: `${READ_SESSIONS_MAX} tokens, the oldest out`,
  forgottenBy: 'the token expiring',
  writesChangeIt: false,
  size: () => revokedHere.size,
})

/** Remembers that `session`'s token was logged out, until it would have expired. */
export function revokeHere(session: SessionData, now = Date.now()): void {
  for (const [token, expiresAt] of revokedHere) if (expiresAt <= now) revokedHere.delete(token)
  if (revokedHere.size >= READ_SESSIONS_MAX) revokedHere.delete(revokedHere.keys().next().value!)
  revokedHere.set(session.token, session.expiresAt)
}

/** Forgets this process's logged-out tokens (tests: another replica has none). */
export function forgetRevokedHere(): void {
  revokedHere.clear()
}

/** The `/login?prevUrl=…` URL that brings the user back to this request's page after login. */
export function loginUrlFor(request: Request): string {
  const url = new URL(request.url)
  // Without the base path: login's redirect to prevUrl adds it back.
  const here = withoutBase(url.pathname) + url.search
  return `/login?prevUrl=${encodeURIComponent(here)}`
}

/**
 * Returns the session data from the cookie alone; throws a redirect to /login?prevUrl=… when it is
 * missing, expired or logged out through this process. Whether it was logged out through another
 * replica is the API layer's check (requireApi, session-check.server): this module reads cookies only.
 */
export async function requireSession(request: Request): Promise<SessionData> {
  const session = await getSession(request)
  if (session) return session
  throw redirect(loginUrlFor(request), { headers: await sessionEndedHeaders(request) })
}

/**
 * The headers of a redirect for a session that ended: a stale session cookie dropped (the timezone
 * preference outlives sessions), nothing when there was none.
 */
export async function sessionEndedHeaders(request: Request): Promise<Headers> {
  const hasStaleCookie = (request.headers.get('Cookie') ?? '').includes(`${SESSION_COOKIE}=`)
  return hasStaleCookie ? await clearSessionHeaders(request) : new Headers()
}

/** Returns a Set-Cookie value that stores a new session expiring with the token. */
export async function commitSession(request: Request, data: Omit<SessionData, 'expiresAt'>, now = Date.now()) {
  const storage = sessionStorage(request)
  const session = await storage.getSession()
  const expiresAt = now + data.expiresIn * 1000
  session.set('token', data.token)
  session.set('userId', data.userId)
  session.set('expiresIn', data.expiresIn)
  session.set('expiresAt', expiresAt)
  session.set('orgId', data.orgId)
  return storage.commitSession(session, { maxAge: data.expiresIn })
}

/** Returns Headers whose Set-Cookie line clears the session cookie only. */
export async function clearSessionHeaders(request: Request): Promise<Headers> {
  const storage = sessionStorage(request)
  const session = await storage.getSession(request.headers.get('Cookie'))
  return new Headers({ 'Set-Cookie': await storage.destroySession(session) })
}

/** The cookies a logout clears: the session's (spec: "clears five cookies", all in one here) and a pending toast. */
const SESSION_COOKIES = CONSOLE_COOKIES.filter((name) => name !== TIMEZONE_COOKIE && name !== THEME_COOKIE)

/**
 * Returns Headers whose Set-Cookie lines end the session (the session and toast cookies); the
 * timezone preference is the user's, not the session's, and outlives it.
 */
export async function logoutHeaders(request: Request): Promise<Headers> {
  const headers = new Headers()
  for (const name of SESSION_COOKIES) {
    const { sameSite, secure, partitioned } = cookieAttributes(
      request,
      name === SESSION_COOKIE ? 'session' : 'preference',
    )
    const sameSiteText = sameSite[0]!.toUpperCase() + sameSite.slice(1)
    headers.append(
      'Set-Cookie',
      `${name}=; Path=${COOKIE_PATH}; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; ` +
        `HttpOnly; ` +
        `SameSite=${sameSiteText}${secure ? '; Secure' : ''}${partitioned ? '; Partitioned' : ''}`,
    )
  }
  return headers
}

/** Ends the session: throws (or returns) a redirect to /login that clears every console cookie. */
export async function logout(request: Request, redirectTo = '/login') {
  return redirect(redirectTo, { headers: await logoutHeaders(request) })
}

/**
 * Returns `to` when it is a plain path on this site (one leading `/`, not `//` or `/\`, printable
 * ASCII only, as a browser's `location` gives it), otherwise the start page. What it returns is
 * always a valid Location header: anything else (a space, a non-ASCII or non-Latin-1 character) is
 * dropped rather than answered with a 500 (issue 49).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = DEFAULT_REDIRECT): string {
  if (!to || typeof to !== 'string') return fallback
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  // Control characters and backslashes can turn a path into another origin in some browsers; a
  // header cannot carry the rest (and a browser's location never has them unencoded).
  if (to.length > 4096 || !/^[\x21-\x7e]+$/.test(to) || to.includes('\\')) return fallback
  return to
}

/** Returns the user's timezone preference: Local (the default), UTC or an IANA zone. */
export async function getTimezone(request: Request): Promise<Timezone> {
  const value: unknown = await preferenceCookie(request, TIMEZONE_COOKIE).parse(request.headers.get('Cookie'))
  return isTimezone(value) ? value : 'Local'
}

/** Returns the zone the browser last reported for "Local" (null when none did). */
export async function getLocalZone(request: Request): Promise<string | null> {
  const value: unknown = await preferenceCookie(request, LOCAL_ZONE_COOKIE).parse(request.headers.get('Cookie'))
  return typeof value === 'string' && isZoneName(value) ? value : null
}

/** Returns a Set-Cookie value that remembers the browser's zone. */
export async function commitLocalZone(request: Request, zone: string): Promise<string> {
  return preferenceCookie(request, LOCAL_ZONE_COOKIE).serialize(zone)
}

/** Returns a Set-Cookie value that stores the timezone preference. */
export async function commitTimezone(request: Request, timezone: Timezone): Promise<string> {
  return preferenceCookie(request, TIMEZONE_COOKIE).serialize(timezone)
}

/** Returns the user's theme preference (system unless set to light or dark). */
export async function getColorMode(request: Request): Promise<ColorMode> {
  return toColorMode(await preferenceCookie(request, THEME_COOKIE).parse(request.headers.get('Cookie')))
}

/** Returns a Set-Cookie value that stores the theme preference. */
export async function commitColorMode(request: Request, mode: ColorMode): Promise<string> {
  return preferenceCookie(request, THEME_COOKIE).serialize(mode)
}
