import { createHash } from 'node:crypto'
import { redirect } from '@remix-run/node'
import { CONSOLE_PROJECT, REVOKED_TABLE } from '~/utils/console-store'
import { registerCache } from '~/utils/caches.server'
import { getSession, sessionEndedHeaders, loginUrlFor, type SessionData } from '~/utils/session.server'
import { tableRef } from '~/utils/sql'
import type { ClusterApi } from './client.server'
import { consoleRead, QueryError, runQuery } from './query.server'
import { storeSessionFor } from './store-token.server'

/*
 * "Is this session still valid": the cookie (session.server reads it: present, signed, not expired,
 * not logged out through this process) and, on a cluster without a revoke call, not logged out
 * through another replica (decision 080). The API layer asks it (requireApi, client.server), imported
 * statically: the session module reads cookies only, and nothing here imports the client at run time
 * (it is handed a way to make one), so the check is on no import cycle (issue 53, decision 102).
 *
 * The replicas share only the cluster and SESSION_SECRET, so the revocation is kept in the cluster: a
 * row in the console's own store (`cluster_console.revoked_sessions`: a SHA-256 digest of the token,
 * never the token, and when it would have expired), written by Log out (revocations.server). Each
 * replica reads the org's rows at most once every REFRESH_MS, on the first signed-in request after
 * that, and refuses a session whose token is listed: a copied cookie is refused everywhere within
 * REFRESH_MS of the Log out (plus the cluster's delay before ingested rows can be queried).
 */

/** How old a replica's copy of the org's revocations may be before a request reads it again. */
export const REFRESH_MS = 5_000

type OrgRevocations = { digests: Map<string, number>; readAt: number; pending: Promise<void> | null }
const byOrg = new Map<string, OrgRevocations>()

registerCache({
  name: 'sessions-revoked-shared',
  file: 'app/api/session-check.server.ts',
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

function orgList(orgId: string): OrgRevocations {
  let list = byOrg.get(orgId)
  if (!list) byOrg.set(orgId, (list = { digests: new Map(), readAt: -Infinity, pending: null }))
  return list
}

/** Adds a token logged out through this replica to its copy of the org's list (revokeEverywhere). */
export function noteRevoked(session: SessionData): void {
  orgList(session.orgId).digests.set(tokenDigest(session.token), session.expiresAt)
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
 * older than REFRESH_MS, through the client `clientFor` makes for the store account's session, or
 * the user's without one: the read needs select on the store, as History does). When the list cannot be read, the
 * last one read is used (fail open:
 * the cluster still accepts the token, and refusing every session while the store is unreachable
 * would lock everyone out).
 */
export async function isRevokedEverywhere(
  session: SessionData,
  clientFor: (session: SessionData) => ClusterApi,
  now = Date.now(),
): Promise<boolean> {
  const list = orgList(session.orgId)
  if (now - list.readAt >= REFRESH_MS) {
    const current = list
    current.pending ??= (async () => {
      // through the console's store account when it has one (decision 105): every user's request may refresh it
      const read = await readRevocations(clientFor(storeSessionFor(session)), now)
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

/**
 * Returns the session of a request that is still valid: its cookie's (getSession) and not logged out
 * through any replica. Throws the redirect to /login?prevUrl=… (dropping a stale session cookie)
 * otherwise. `clientFor` makes the client the store is read with (client.server's createClusterApi).
 */
export async function requireValidSession(
  request: Request,
  clientFor: (session: SessionData) => ClusterApi,
): Promise<SessionData> {
  const session = await getSession(request)
  if (session && !(await isRevokedEverywhere(session, clientFor))) return session
  throw redirect(loginUrlFor(request), { headers: await sessionEndedHeaders(request) })
}

/** Forgets every replica-side copy (tests: a new replica has read nothing). */
export function forgetRevocations(): void {
  byOrg.clear()
}
