import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { API_BASE_PATH, callCluster } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { revokeEverywhere } from '~/api/revocations.server'
import { getClusterUrl } from '~/utils/env.server'
import { getSession, logout, revokeHere } from '~/utils/session.server'

/** The login page's notice when a Log out could not reach the other replicas (decision 080; login.tsx). */
const NOT_EVERYWHERE = 'here-only'

/**
 * Logout is a POST only (a GET cannot end a session): ends the session everywhere (issue 37), clears
 * every console cookie, then /login. The cluster is asked to revoke the token (`POST
 * /config/v1/logout`), so a copy of the cookie is refused by every replica; this one also refuses it
 * at once itself. A cluster without that call (a real one has none) answers 404: the revocation is
 * then written to the console's store on the cluster, which every replica reads (decision 080). When
 * neither can be done, the login page says that other replicas accept a copy until it expires.
 */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request)
  if (!session) return logout(request)
  revokeHere(session)
  let revoked = false
  try {
    await callCluster('POST', `${getClusterUrl()}${API_BASE_PATH}/logout`, undefined, { token: session.token })
    revoked = true
  } catch (error) {
    // already ended (401): nothing is left to revoke anywhere
    if (error instanceof ClusterError && error.status === 401) revoked = true
  }
  if (revoked) return logout(request)
  const shared = await revokeEverywhere(session)
  if (shared === 'shared') return logout(request)
  console.warn(
    `Logout: the cluster has no revoke call and the revocation could not be shared with other ` +
      `replicas (${shared}); a copy of the session is accepted by them until it expires`,
  )
  return logout(request, `/login?notice=${NOT_EVERYWHERE}`)
}

export function loader() {
  return redirect('/dashboard')
}
