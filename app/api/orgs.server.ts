import { oncePerRequest } from './client.server'

/** Returns the active org's summary (GET /orgs/{org}/summary?meta=1), read once per request; throws ClusterError. */
export const getOrgSummary = oncePerRequest((api) =>
  api.get<Record<string, unknown>>(`/orgs/${api.orgId}/summary`, { params: { meta: 1 } }),
)
