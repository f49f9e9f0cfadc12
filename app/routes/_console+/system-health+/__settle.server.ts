import { redirect } from '@remix-run/node'
import { ClusterError } from '~/api/errors.server'
import { loginUrlFor, logoutHeaders } from '~/utils/session.server'

export type Settled<T> = { value: T; error: null } | { value: null; error: string }

/**
 * Runs one panel's cluster calls so a failure stays in that panel: a ClusterError becomes its
 * catalogue message (a monitoring 401 reads 'This panel cannot be accessed'); any other 401 ends
 * the session (throws a redirect to /login?prevUrl=…). Other errors are thrown.
 */
export async function settle<T>(request: Request, load: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { value: await load(), error: null }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    if (error.status === 401 && error.context !== 'monitoring') {
      throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
    }
    return { value: null, error: error.message }
  }
}
