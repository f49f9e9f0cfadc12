import { Box } from '~/components/ui/box'
import { Outlet } from '@remix-run/react'
import { PageHeader } from '~/components/layout/page-header'
import { SectionTabs } from '~/components/layout/section-tabs'

/** The spec's Scale tabs: Scale ingest (/scale), Scale search, Scale core. */
const TABS = [
  { label: 'Scale ingest', to: '/scale', end: true },
  { label: 'Scale search', to: '/scale/search' },
  { label: 'Scale core', to: '/scale/core' },
]

/** The Scale section: its title and tabs over each page (the resource pools of each kind). */
export default function ScaleLayout() {
  return (
    <Box>
      <PageHeader
        title="Scale"
        description="Resource pools: how many workers ingest, search and core services run, and how big they are."
        mb="4"
      />
      <SectionTabs label="Pool kinds" tabs={TABS} />
      <Outlet />
    </Box>
  )
}
