import { oncePerRequest } from './client.server'

/**
 * Returns the cluster version (GET {origin}/version, text), read once per request. Throws
 * ClusterError; a 401 here reads 'Version cannot be accessed' and keeps the session.
 */
export const getVersion = oncePerRequest(async (api) => (await api.raw<string>('GET', '/version', { context: 'version' })).trim())
