import type { ClusterApi, Page } from './client.server'

/** One audit trail entry (spec section 3: created, user, action, text). */
export type AuditEntry = {
  uuid: string
  created: string
  user: string
  user_id?: string | null
  action: string
  text: string
}

/** The audit trail's filters; dates are `YYYY-MM-DD` (inclusive) or ISO instants. */
export type AuditFilter = {
  user?: string
  action?: string
  fromDate?: string
  toDate?: string
  search?: string
}

/**
 * Returns one page of the org's audit trail, newest first, filtered by the cluster
 * (`orgs/{org}/audit_trail`); throws ClusterError (404 for a page past the end, 403 without view_audittrail).
 */
export function listAuditTrail(
  api: ClusterApi,
  filter: AuditFilter,
  paging: { page: number; pageSize: number },
): Promise<Page<AuditEntry>> {
  return api.list<AuditEntry>(`/orgs/${api.orgId}/audit_trail`, {
    page: paging.page,
    pageSize: paging.pageSize,
    params: {
      user: filter.user,
      action: filter.action,
      from_date: filter.fromDate,
      to_date: filter.toDate,
      search: filter.search,
    },
  })
}
