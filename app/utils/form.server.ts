import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from '@remix-run/node'
import { ClusterError, GENERIC_MESSAGE } from '~/api/errors.server'
import { loginUrlFor, logoutHeaders } from './session.server'

type Replyable = {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]>
}

/**
 * Turns a failed cluster call into the action's answer:
 * - 400 → `data({ result }, 400)` with the body's errors mapped onto the form's fields
 *   (field names as `mapFieldErrors` flattens them) and general errors as form errors;
 * - 401 → throws a redirect to /login?prevUrl=<referring page> that ends the session;
 * - anything else → throws `data({ message }, status)` for the route's ErrorBoundary.
 * `request` is used for the 401 redirect; without it the redirect goes to /login. `hideFields`
 * keeps secrets (passwords) out of the values sent back to the page.
 */
export async function replyFromCluster(
  submission: Replyable,
  error: unknown,
  request?: Request,
  options: { hideFields?: string[] } = {},
): Promise<ReturnType<typeof data<{ result: SubmissionResult<string[]> }>>> {
  if (!(error instanceof ClusterError)) throw error
  if (error.status === 400) {
    const { fieldErrors, formErrors } = error.mapped
    const hasErrors = formErrors.length > 0 || Object.keys(fieldErrors).length > 0
    return data(
      {
        result: submission.reply({
          fieldErrors,
          formErrors: hasErrors ? formErrors : [error.message || GENERIC_MESSAGE],
          hideFields: options.hideFields,
        }),
      },
      { status: 400 },
    )
  }
  if (error.status === 401) {
    const to = request ? loginUrlFor(refererOrSelf(request)) : '/login'
    throw redirect(to, { headers: request ? await logoutHeaders(request) : undefined })
  }
  throw errorResponse(error)
}

/** A POST's "current page" is the page the form was on (the Referer when it is ours), else the action URL. */
function refererOrSelf(request: Request): Request {
  const referer = request.headers.get('Referer')
  if (referer) {
    try {
      const url = new URL(referer)
      if (url.origin === new URL(request.url).origin) return new Request(url)
    } catch {
      // Fall through to the action's own URL.
    }
  }
  return request
}

/** The catalogue message as thrown data the ErrorBoundary reads (`error.data.message`). */
export function errorResponse(error: ClusterError) {
  return data({ message: error.message, status: error.status }, { status: error.status, statusText: error.statusText })
}

/**
 * Runs a loader's cluster calls; a ClusterError becomes the catalogue message for the ErrorBoundary,
 * a 401 a redirect to login. Other errors and redirects pass through.
 */
export async function loadFromCluster<T>(request: Request, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof ClusterError) {
      if (error.status === 401) throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
      throw errorResponse(error)
    }
    throw error
  }
}

/**
 * A public (sessionless) call's failure as a form's errors: a 400's body mapped onto the fields and
 * anything else the catalogue message as a form error. With `rename` (the cluster's field names to
 * the form's), a field it does not name becomes a form error. Throws what is not a ClusterError.
 */
export function publicCallErrors(error: unknown, rename?: Record<string, string>): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  if (!(error instanceof ClusterError)) throw error
  const mapped = error.status === 400 ? error.mapped : { fieldErrors: {}, formErrors: [] }
  const fieldErrors: Record<string, string[]> = {}
  const formErrors = [...mapped.formErrors]
  for (const [key, messages] of Object.entries(mapped.fieldErrors)) {
    const field = rename ? rename[key] : key
    if (field) fieldErrors[field] = messages
    else formErrors.push(...messages)
  }
  const hasMapped = formErrors.length > 0 || Object.keys(fieldErrors).length > 0
  return { fieldErrors, formErrors: hasMapped ? formErrors : [error.message] }
}
