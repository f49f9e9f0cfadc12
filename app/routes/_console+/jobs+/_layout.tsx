import { Box } from '~/components/ui/box'
import { Outlet } from '@remix-run/react'
import { PageHeader } from '~/components/layout/page-header'
import { SectionTabs } from '~/components/layout/section-tabs'

const TABS = [
  { label: 'Alter jobs', to: '/jobs/alter-jobs' },
  { label: 'Batch jobs', to: '/jobs/batch-jobs' },
]

/** The Jobs section: its title and the Alter jobs / Batch jobs tabs over each page. */
export default function JobsLayout() {
  return (
    <Box>
      <PageHeader
        title="Jobs"
        description="Alter jobs change or delete rows in place; batch jobs load files into a table."
        mb="4"
      />
      <SectionTabs label="Job kinds" tabs={TABS} />
      <Outlet />
    </Box>
  )
}
