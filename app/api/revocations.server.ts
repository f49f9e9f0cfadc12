import { createHash } from 'node:crypto'
import { CONSOLE_PROJECT, REVOKED_TABLE } from '~/utils/console-store'
import { registerCache } from '~/utils/caches.server'
import type { SessionData } from '~/utils/session.server'
import { tableRef } from '~/utils/sql'
import { createClusterApi, type ClusterApi } from './client.server'
import { consoleStoreProject } from './console-store.server'
import { ClusterError } from './errors.server'
import { consoleRead, QueryError, runQuery } from './query.server'
import { ensureStore, ingestIntoStore, SavedQueriesUnavailable } from './saved-queries.server'

/*
 * Log out everywhere on a cluster that has no revoke call (decision 080). The replicas share only the
 * cluster and SESSION_SECRET, so the revocation is kept in the cluster: a row in the console's own
 * store (`cluster_console.revoked_sessions`: a SHA-256 digest of the token, never the token, and when
 * it would have expired), written by Log out. Each replica reads the org's rows at most once every
 * REFRESH_MS, on the first signed-in request after that, and refuses a session whose token is listed:
 * a copied cookie is refused everywhere within REFRESH_MS of the Log out (plus the cluster's delay
 * before ingested rows can be queried). The store is never created here: without it (History off)
 * the revocation cannot be shared, and Log out says so.
 */

/** How old a replica's copy of the org's revocations may be before a request reads it again. */
export const REFRESH_MS = 5_000

type OrgRevocations = { digests: Map<string, number>; readAt: number; pending: Promise<void> | null }
const byOrg = new Map<string, OrgRevocations>()

registerCache({
  name: 'sessions-revoked-shared',
  file: 'app/api/revocations.server.ts',
  variable: 'byOrg',
  holds: "the digests of the org's logged-out tokens, as the store had them (decision 080)",
  key: 'org',
  lifetime: `${REFRESH_MS / 1000} s, then read again by the next signed-in request`,
  bound: 'one list per org; rows past their expiry are not read',
  forgottenBy: 'its lifetime; a Log out through this replica adds its token at once',
  writesChangeIt: false,
  size: () => byOrg.size,
})

/** The digest the store keeps of a token: a token in the store would be a live credential to any reader. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

async function readRevocations(api: ClusterApi, now: number): Promise<Map<string, number> | null> {
  const sql = `SELECT token_sha256, expires_ms FROM ${tableRef(CONSOLE_PROJECT, REVOKED_TABLE)} WHERE expires_ms > ${Math.floor(now)}`
  try {
    const answer = await runQuery(
      api,
      sql,
      consoleRead({ hdx_query_output_format: 'JSONEachRow', hdx_query_timerange_required: 'false' }),
    )
    const digests = new Map<string, number>()
    for (const line of answer.text.split('\n')) {
      if (!line.trim()) continue
      const row = JSON.parse(line) as { token_sha256: string; expires_ms: string | number }
      digests.set(row.token_sha256, Number(row.expires_ms))
    }
    return digests
  } catch (error) {
    // no store (History off) or no table yet: nothing was logged out through the store
    if (error instanceof QueryError && /UNKNOWN_(TABLE|DATABASE)|Code: (60|81)\./.test(error.message)) return new Map()
    return null
  }
}

/**
 * Whether `session`'s token was logged out through any replica (the store's list, read again when
 * older than REFRESH_MS, with this session's token: the read needs select on the store, as History
 * does). When the list cannot be read, the last one read is used (fail open: the cluster still
 * accepts the token, and refusing every session while the store is unreachable would lock everyone out).
 */
export async function isRevokedEverywhere(session: SessionData, now = Date.now()): Promise<boolean> {
  let list = byOrg.get(session.orgId)
  if (!list) byOrg.set(session.orgId, (list = { digests: new Map(), readAt: -Infinity, pending: null }))
  if (now - list.readAt >= REFRESH_MS) {
    const current = list
    current.pending ??= (async () => {
      const read = await readRevocations(createClusterApi(session), now)
      if (read) {
        // keep what this replica added since (its own Log outs)
        for (const [digest, expiresAt] of current.digests)
          if (expiresAt > now && !read.has(digest)) read.set(digest, expiresAt)
        current.digests = read
      }
      current.readAt = now
    })().finally(() => {
      current.pending = null
    })
    await current.pending
  }
  const expiresAt = list.digests.get(tokenDigest(session.token))
  return expiresAt !== undefined && expiresAt > now
}

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
  let list = byOrg.get(session.orgId)
  if (!list) byOrg.set(session.orgId, (list = { digests: new Map(), readAt: -Infinity, pending: null }))
  list.digests.set(digest, session.expiresAt)
  const row = {
    at: new Date(now).toISOString(),
    token_sha256: digest,
    user_id: session.userId,
    expires_ms: session.expiresAt,
  }
  try {
    if (!(await consoleStoreProject(api))) return 'no-store'
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

/** Forgets every replica-side copy (tests: a new replica has read nothing). */
export function forgetRevocations(): void {
  byOrg.clear()
}
