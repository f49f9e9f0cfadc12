import { oncePerRequest } from './client.server'

/** Returns the cluster's default settings (GET /defaults), read once per request; throws ClusterError. */
export const getDefaults = oncePerRequest((api) => api.get<Record<string, unknown>>('/defaults'))
