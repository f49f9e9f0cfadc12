import { oncePerRequest } from './client.server'
import { cachedRead } from './read-cache.server'

/** The version changes only when the cluster is upgraded: kept this long per session (decision 060). */
export const VERSION_KEEP_MS = 60_000

/**
 * Returns the cluster version (GET {origin}/version, text), read once per request. Throws
 * ClusterError; a 401 here reads 'Version cannot be accessed' and keeps the session.
 */
export const getVersion = oncePerRequest((api) =>
  cachedRead(
    api,
    'version',
    async () => (await api.raw<string>('GET', '/version', { context: 'version' })).trim(),
    VERSION_KEEP_MS,
  ),
)
