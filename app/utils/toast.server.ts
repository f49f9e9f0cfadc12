import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { COOKIE_PATH } from './base-path'
import { getEnv } from './env.server'
import { cookieAttributes, TOAST_COOKIE } from './session.server'

export const ToastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2, 10)),
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(['success', 'error', 'info', 'warning']).default('success'),
})
export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>

// The toast cookie carries no secret (only the message), so by default it is not marked Secure:
// that would need the request in every redirectWithToast call. It is signed, HttpOnly and lives
// one page. Embedded in another site's frame it must be SameSite=None; Secure to arrive at all.
function toastStorage() {
  const secret = getEnv().SESSION_SECRET ?? process.env.SESSION_SECRET
  if (!secret) throw new Error('SESSION_SECRET is not set')
  return createCookieSessionStorage({
    cookie: {
      name: TOAST_COOKIE,
      httpOnly: true,
      path: COOKIE_PATH,
      ...cookieAttributes(null, 'preference'),
      secrets: secret.split(','),
    },
  })
}

/** Returns a Set-Cookie value carrying one or several toasts to the next page. */
export async function createToastHeaders(toast: ToastInput | ToastInput[]): Promise<string> {
  const storage = toastStorage()
  const session = await storage.getSession()
  session.flash(
    'toasts',
    (Array.isArray(toast) ? toast : [toast]).map((item) => ToastSchema.parse(item)),
  )
  return storage.commitSession(session)
}

/** Returns a redirect to `url` that shows `toast` there (a bare string is a success title). */
export async function redirectWithToast(
  url: string,
  toast: ToastInput | string,
  init?: ResponseInit,
): Promise<Response> {
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', await createToastHeaders(typeof toast === 'string' ? { title: toast } : toast))
  return redirect(url, { ...init, headers })
}

/** Returns the pending toasts and a Set-Cookie value that clears them (null when there are none). */
export async function getToasts(request: Request): Promise<{ toasts: Toast[]; setCookie: string | null }> {
  const storage = toastStorage()
  const session = await storage.getSession(request.headers.get('Cookie'))
  const raw = session.get('toasts')
  if (raw === undefined) return { toasts: [], setCookie: null }
  const toasts = z.array(ToastSchema).catch([]).parse(raw)
  return { toasts, setCookie: await storage.destroySession(session) }
}
