import { oncePerRequest } from './client.server'
import { cachedRead } from './read-cache.server'

/**
 * Returns the cluster version (GET {origin}/version, text), read once per request. Throws
 * ClusterError; a 401 here reads 'Version cannot be accessed' and keeps the session.
 */
export const getVersion = oncePerRequest((api) =>
  cachedRead(api.sessionKey, 'version', async () =>
    (await api.raw<string>('GET', '/version', { context: 'version' })).trim(),
  ),
)
