/**
 * The sub-path the console is served under behind a reverse proxy (`BASE_PATH=/console` at build
 * time, decision 023), '' when it is served at the root. It is Vite's `base`, fixed in the build,
 * so the server and the browser agree on it without any configuration at run time.
 */
export const BASE_PATH = normalizeBasePath(import.meta.env.BASE_URL)

/** Returns `value` as a base path: '' for the root, else '/a/b' (one leading slash, none trailing). */
export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? '').trim().replace(/^\/+|\/+$/g, '')
  return trimmed ? `/${trimmed}` : ''
}

/**
 * Returns the browser's URL for an in-app `path` ('/data/files/…'). Only for plain `<a href>`,
 * `window.location` and XHR: Remix's Link, Form and redirect already add the base themselves.
 */
export function withBase(path: string): string {
  return `${BASE_PATH}${path}`
}

/**
 * Returns an in-app path for a URL path as the browser or the server sees it (with the base),
 * e.g. to hand it to `redirect`, which adds the base again.
 */
export function withoutBase(path: string): string {
  if (!BASE_PATH) return path
  if (path.startsWith(`${BASE_PATH}/`)) return path.slice(BASE_PATH.length)
  if (path === BASE_PATH || path.startsWith(`${BASE_PATH}?`)) return `/${path.slice(BASE_PATH.length)}`
  return path
}

/** The Path attribute for the console's cookies: the base, so another app on the host never gets them. */
export const COOKIE_PATH = BASE_PATH || '/'
