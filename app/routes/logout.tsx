import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { API_BASE_PATH, callCluster } from '~/api/client.server'
import { getClusterUrl } from '~/utils/env.server'
import { getSession, logout, revokeHere } from '~/utils/session.server'

/**
 * Logout is a POST only (a GET cannot end a session): ends the session everywhere (issue 37), clears
 * every console cookie, then /login. The cluster is asked to revoke the token (`POST
 * /config/v1/logout`; a cluster without it answers 404 and the token lives until it expires), so a
 * copy of the cookie is refused by every replica; this one also refuses it at once itself.
 */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request)
  if (session) {
    revokeHere(session)
    try {
      await callCluster('POST', `${getClusterUrl()}${API_BASE_PATH}/logout`, undefined, { token: session.token })
    } catch (error) {
      // not offered (404), already ended (401), or no answer: logging out in this browser goes on
      console.warn(
        `Logout: the cluster did not revoke the token (${error instanceof Error ? error.message : String(error)})`,
      )
    }
  }
  return logout(request)
}

export function loader() {
  return redirect('/dashboard')
}
