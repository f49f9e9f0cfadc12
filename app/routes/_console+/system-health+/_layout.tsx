import { Outlet } from '@remix-run/react'
import { PageHeader } from '~/components/layout/page-header'
import { SectionTabs } from '~/components/layout/section-tabs'
import type { RouteHandle } from '~/utils/handle'

export const handle: RouteHandle = { docsTopic: 'system health' }

const TABS = [
  { label: 'Counts', to: '/system-health/counts' },
  { label: 'Logs', to: '/system-health/logs' },
]

export default function SystemHealthLayout() {
  return (
    <>
      <PageHeader
        title="System health"
        description="The cluster's own request, query and ingest counts, and its logs. Times are in UTC."
      />
      <SectionTabs tabs={TABS} label="System health" />
      <Outlet />
    </>
  )
}
