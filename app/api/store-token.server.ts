import { getEnv } from '~/utils/env.server'
import type { SessionData } from '~/utils/session.server'

/*
 * The console's store account token (decision 105), on its own so that the session check can use
 * it without importing the cluster client (session-check.server is on no import cycle).
 */

/** The store account's token, when the console has one (`CONSOLE_STORE_TOKEN`). */
export function storeToken(): string | undefined {
  return getEnv().CONSOLE_STORE_TOKEN
}

/** Whether the console holds its own credential for the store. */
export function hasStoreAccount(): boolean {
  return Boolean(storeToken())
}

/**
 * The session the store is used with for `session`'s org: the store account's, or the user's own
 * when the console has no account (decision 029). The user id stays the user's: rows are theirs.
 */
export function storeSessionFor(session: SessionData): SessionData {
  const token = storeToken()
  return token ? { ...session, token } : session
}
