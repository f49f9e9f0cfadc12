import { REVOKED_TABLE } from '~/utils/console-store'
import type { SessionData } from '~/utils/session.server'
import { createClusterApi } from './client.server'
import { consoleStoreProject } from './console-store.server'
import { ClusterError } from './errors.server'
import { ensureStore, ingestIntoStore, SavedQueriesUnavailable } from './saved-queries.server'
import { storeClient } from './store-account.server'
import { noteRevoked, tokenDigest } from './session-check.server'

export { forgetRevocations, isRevokedEverywhere, REFRESH_MS, tokenDigest } from './session-check.server'

/*
 * Log out everywhere on a cluster that has no revoke call (decision 080): Log out writes the token's
 * digest to the console's store on the cluster, and every replica refuses it within REFRESH_MS
 * (session-check.server reads the list, on every signed-in request's way in). The store is never
 * created here: without it (History off) the revocation cannot be shared, and Log out says so.
 */

/** What Log out could do where the cluster has no revoke call. */
export type SharedRevocation = 'shared' | 'no-store' | 'not-allowed' | 'failed'

/**
 * Writes `session`'s revocation to the store, so every replica refuses the token (within REFRESH_MS).
 * The store must exist (turned on by an operator: it is never created here); a store made before this
 * table existed gets the table (the operator asked for the store; this is part of it).
 */
export async function revokeEverywhere(session: SessionData, now = Date.now()): Promise<SharedRevocation> {
  const api = createClusterApi(session)
  const digest = tokenDigest(session.token)
  noteRevoked(session)
  const row = {
    at: new Date(now).toISOString(),
    token_sha256: digest,
    user_id: session.userId,
    expires_ms: session.expiresAt,
  }
  try {
    if (!(await consoleStoreProject(storeClient(api)))) return 'no-store'
    try {
      await ingestIntoStore(api, REVOKED_TABLE, [row])
    } catch (error) {
      if (!(error instanceof ClusterError && error.status === 404)) throw error
      await ensureStore(api)
      await ingestIntoStore(api, REVOKED_TABLE, [row])
    }
    return 'shared'
  } catch (error) {
    if (error instanceof SavedQueriesUnavailable || (error instanceof ClusterError && error.status === 403))
      return 'not-allowed'
    return 'failed'
  }
}
