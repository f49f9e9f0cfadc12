import type { SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { redirectWithToast } from '~/utils/toast.server'
import { ClusterError, GENERIC_MESSAGE, toastMessage, type FieldErrors } from './errors.server'
import { ClusterTimeoutError } from './client.server'

/*
 * What loaders and actions do with a failed cluster call, one policy each. The 401 policy is not
 * here: the per-request client (client.server.ts) ends the session itself, before any of these run.
 *
 * - loadFromCluster: the page cannot be shown; the ErrorBoundary shows the catalogue message.
 * - settle:          one panel fails, the page around it stays usable.
 * - nullOnMissing:   a missing item is an answer (null), not a failure.
 * - replyFromCluster: an action's failure as the form's answer: a 400 on its fields, any other
 *                    failure the catalogue's message at the top of the form, what was typed kept.
 * - toastFromCluster: an action with no form to answer (a row button) says its failure in a toast;
 *                    toastOnFailure runs such an action and redirects back with that toast.
 * - noneWhenDenied:  an optional list the user may not read (403) or the cluster lacks (404) is empty.
 * - answerFromCluster: a resource route (no page) answers a failure in its own format, status kept.
 * - jsonFromCluster: a resource route's JSON answer (a picker's search), a failure as `{message}`.
 */

/** The catalogue message as thrown data the ErrorBoundary reads (`error.data.message`). */
export function errorResponse(error: ClusterError) {
  return data({ message: error.message, status: error.status }, { status: error.status, statusText: error.statusText })
}

/** Returns what `load` returns; a ClusterError is thrown as the catalogue's message for the ErrorBoundary. */
export async function loadFromCluster<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof ClusterError) throw errorResponse(error)
    throw error
  }
}

export type Settled<T> = { value: T; error: null } | { value: null; error: string }

/** Runs one panel's calls: a ClusterError becomes that panel's message; other errors are thrown. */
export async function settle<T>(load: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { value: await load(), error: null }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    return { value: null, error: error.message }
  }
}

/**
 * Returns what `load` returns, or null when the cluster says there is no such item (404, or 400
 * for an id that is not one). Other failures are thrown.
 */
export async function nullOnMissing<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof ClusterError && (error.status === 404 || error.status === 400)) return null
    throw error
  }
}

/**
 * Returns what `load` returns, or null when the cluster answers 404: for a read of something found in
 * a list read just before (a project's tables), deleted since by another user, replica or tool. Any
 * other failure, a 400 included, is thrown (unlike nullOnMissing, whose ids may be typed by hand).
 */
export async function nullWhenGone<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof ClusterError && error.status === 404) return null
    throw error
  }
}

/**
 * Returns what `load` returns, or `none` when the cluster refuses it to this user (403) or does not
 * have it (404): for lists a form only offers as choices. Other failures are thrown.
 */
export async function noneWhenDenied<T>(load: () => Promise<T>, none: T): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof ClusterError && (error.status === 403 || error.status === 404)) return none
    throw error
  }
}

/**
 * A resource route's answer: what `run` returns; a ClusterError becomes `failed(error)`, the
 * route's own format of a failure (text, JSON) with the error's status. Other errors are thrown.
 */
export async function answerFromCluster(
  run: () => Promise<Response>,
  failed: (error: ClusterError) => Response,
): Promise<Response> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ClusterError) return failed(error)
    throw error
  }
}

/** A resource route's JSON headers: the answer is the signed-in user's, never stored. */
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' }

/**
 * A resource route's JSON answer (a picker's search as one types): what `find` gives, as JSON; a
 * ClusterError becomes `{message}` with its status. Other errors are thrown.
 */
export function jsonFromCluster(find: () => Promise<unknown>): Promise<Response> {
  return answerFromCluster(
    async () => new Response(JSON.stringify(await find()), { headers: JSON_HEADERS }),
    (error) =>
      new Response(JSON.stringify({ message: error.message }), { status: error.status, headers: JSON_HEADERS }),
  )
}

export type FormErrors = { fieldErrors: FieldErrors; formErrors: string[] }

/**
 * A failed call's errors as a form's: a 400's body mapped onto the fields, anything else the
 * catalogue message as a form error. `rename` maps the cluster's field names (as mapFieldErrors
 * flattens them, `settings.age.max_age_days`) to the form's; with it, a field the form does not
 * have becomes a form error ("settings.x: message") rather than vanishing. A field named with an
 * index (`sort_keys[1]`) falls back to its list's name. Throws what is not a ClusterError.
 */
export function formErrorsOf(error: unknown, rename?: Record<string, string>): FormErrors {
  if (!(error instanceof ClusterError)) throw error
  const mapped = error.status === 400 ? error.mapped : { fieldErrors: {}, formErrors: [] }
  const fieldErrors: FieldErrors = {}
  const formErrors = [...mapped.formErrors]
  for (const [key, messages] of Object.entries(mapped.fieldErrors)) {
    const field = rename ? (rename[key] ?? rename[key.replace(/\[\d+\]$/, '')]) : key
    if (field) (fieldErrors[field] ??= []).push(...messages)
    else formErrors.push(`${key}: ${messages.join(' ')}`)
  }
  const hasErrors = formErrors.length > 0 || Object.keys(fieldErrors).length > 0
  return { fieldErrors, formErrors: hasErrors ? formErrors : [error.message || GENERIC_MESSAGE] }
}

type Replyable = {
  reply(options?: {
    formErrors?: string[]
    fieldErrors?: Record<string, string[]>
    hideFields?: string[]
  }): SubmissionResult<string[]>
}

export type ReplyOptions = {
  /** The cluster's field names to the form's (see formErrorsOf). */
  rename?: Record<string, string>
  /** Fields whose values are not sent back to the page (passwords). */
  hideFields?: string[]
  /** Form errors added after the mapped ones (e.g. what already happened before the failure). */
  notes?: string[]
  /**
   * Where the user checks whether a change that timed out was applied (the list it adds to): sent
   * back as `checkTo` with a time-out of a change, for the form to link (FormCard `checkTo`).
   */
  checkTo?: { to: string; label: string }
}

/** What a change that timed out says: the cluster may still apply it (decision 098). */
export function mayStillApplyNote(waitedMs: number): string {
  return (
    `The cluster did not answer in ${Number((waitedMs / 1000).toFixed(1))} s; the change may ` +
    `still have been applied: check before trying again.`
  )
}

/**
 * Turns a failed cluster call into the action's answer, the form kept as typed (issue 37): a 400 is
 * `data({ result }, 400)` with the body's errors on the form's fields; any other failure (403, 404,
 * 409, 429, 5xx, a time-out, a dropped connection) is `data({ result }, status)` with the catalogue's
 * message as the form's error, shown at the top of the form and focused (FormCard), with and
 * without scripts. The route's ErrorBoundary is for pages that cannot render at all. (A 401 never
 * gets here: the client has ended the session.)
 */
export function replyFromCluster(submission: Replyable, error: unknown, options: ReplyOptions = {}) {
  if (!(error instanceof ClusterError)) throw error
  if (error.status !== 400) {
    // a change the cluster did not answer may still be applied when it resumes: say so, and where to look
    const mayStillApply = error instanceof ClusterTimeoutError && error.isChange
    return data(
      {
        result: submission.reply({
          formErrors: [
            error.message || GENERIC_MESSAGE,
            ...(mayStillApply ? [mayStillApplyNote(error.waitedMs)] : []),
            ...(options.notes ?? []),
          ],
          hideFields: options.hideFields,
        }),
        ...(mayStillApply && options.checkTo ? { checkTo: options.checkTo } : {}),
      },
      // never 408 to the browser: Chromium sends a request again on a 408 (it reads it as the server
      // closing an idle connection), so a create that timed out would be posted twice (decision 098)
      error.status === 408
        ? { status: 504, statusText: 'Gateway Timeout' }
        : { status: error.status, statusText: error.statusText },
    )
  }
  const { fieldErrors, formErrors } = formErrorsOf(error, options.rename)
  return data(
    {
      result: submission.reply({
        fieldErrors,
        formErrors: [...formErrors, ...(options.notes ?? [])],
        hideFields: options.hideFields,
      }),
    },
    { status: 400 },
  )
}

/**
 * The toast for a failed row action (spec section 8): the title from the body's `_error.message`,
 * then `non_field_error(s)`, then the generic text; the catalogue's message as the description when
 * it says more (a 409's detail, a 404), so the reason is never lost.
 */
export function toastFromCluster(error: ClusterError): { title: string; description?: string; type: 'error' } {
  const title = toastMessage(error)
  return { title, ...(error.message && error.message !== title ? { description: error.message } : {}), type: 'error' }
}

/**
 * Runs a row action (a POST with no form to answer) and returns its answer; a ClusterError
 * redirects to `back` with toastFromCluster's toast, so the list stays usable. Other errors are thrown.
 */
export async function toastOnFailure(back: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    return redirectWithToast(back, toastFromCluster(error))
  }
}
