import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from '@remix-run/node'
import { z } from 'zod'
import { ClusterError } from '~/api/errors.server'
import { FORCE_WORD, JOB_MESSAGES } from '~/schemas/job'
import { loginUrlFor, logoutHeaders } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'

/** URL parameters that open a step (a confirmation) and must not survive the action that ends it. */
const STEP_PARAMS = ['index', 'delete', 'purge']

/**
 * Where a list action goes back to: the list's own URL with its filters, paging and open job
 * (`?job=`) kept, and the confirmation step that led to the action closed.
 */
export function backTo(request: Request, changes: Record<string, string | null> = {}): string {
  const url = new URL(request.url)
  for (const key of STEP_PARAMS) url.searchParams.delete(key)
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key)
    else url.searchParams.set(key, value)
  }
  const search = url.searchParams.toString()
  return `${url.pathname}${search ? `?${search}` : ''}`
}

/**
 * Runs one row action (commit, cancel, retry, delete) and answers with a redirect back to the list
 * and a toast: a success title, or the cluster's message when it refused (a job that is no longer
 * pending, already gone, …). A 401 ends the session. Never throws a cluster error to the page:
 * the list stays usable.
 */
export async function runJobAction(
  request: Request,
  run: () => Promise<unknown>,
  success: string | (() => string),
  changes: Record<string, string | null> = {},
): Promise<Response> {
  try {
    await run()
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    if (error.status === 401) throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
    return redirectWithToast(backTo(request), { title: error.message, type: 'error' })
  }
  return redirectWithToast(backTo(request, changes), { title: typeof success === 'function' ? success() : success, type: 'success' })
}

export const PurgeFormSchema = z.object({
  confirm: z
    .string({ error: JOB_MESSAGES.forceRequired })
    .refine((text) => text === FORCE_WORD, { error: JOB_MESSAGES.forceRequired }),
})

/** Checks the purge form's FORCE; returns the 400 reply to show when it is missing, else null. */
export function checkPurge(formData: FormData) {
  const submission = parseWithZod(formData, { schema: PurgeFormSchema })
  if (submission.status === 'success') return null
  return data({ purge: submission.reply() }, { status: 400 })
}

/** The job id a row form sends; a form without one is refused. */
export function jobIdOf(formData: FormData): string {
  const id = formData.get('job')
  if (typeof id !== 'string' || !id) throw data({ message: 'Which job? The form sent no job id.' }, { status: 400 })
  return id
}

/** A single-valued `?name=` from a list of allowed values, else ''. */
export function oneOf<T extends string>(url: URL, name: string, allowed: readonly T[]): T | '' {
  const value = url.searchParams.get(name) ?? ''
  return (allowed as readonly string[]).includes(value) ? (value as T) : ''
}
