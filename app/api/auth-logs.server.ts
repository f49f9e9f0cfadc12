import type { ClusterApi } from './client.server'

/** One authentication event (spec section 3, the identity provider's own field names). */
export type AuthLogEvent = {
  id?: string
  time: number
  timestamp?: string
  type: string
  realmId?: string
  clientId?: string
  userId?: string | null
  username?: string
  sessionId?: string | null
  ipAddress?: string
  error?: string | null
  details?: Record<string, unknown> | null
}

/** The auth log's filters: all three required by the spec; dates are `YYYY-MM-DD`, inclusive. */
export type AuthLogFilter = { fromDate: string; toDate: string; limit: number }

/**
 * Returns at most `limit` authentication events between the dates, newest first
 * (`GET /config/v1/auth_logs`). The filters go in the query string: a browser-side fetch cannot send
 * a GET body, and the cluster reads both. Throws ClusterError (400 on a bad date, 403 without view_authlog).
 */
export async function listAuthLogs(api: ClusterApi, filter: AuthLogFilter): Promise<AuthLogEvent[]> {
  const page = await api.list<AuthLogEvent>('/auth_logs', {
    pageSize: filter.limit,
    params: {
      from_date: filter.fromDate,
      to_date: filter.toDate,
      limit: filter.limit,
    },
  })
  return page.results.slice(0, filter.limit)
}
