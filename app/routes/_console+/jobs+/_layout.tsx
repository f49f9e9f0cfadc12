import { Box, Heading, Text } from '@chakra-ui/react'
import { Outlet } from '@remix-run/react'
import { SectionTabs } from '~/components/layout/section-tabs'

const TABS = [
  { label: 'Alter jobs', to: '/jobs/alter-jobs' },
  { label: 'Batch jobs', to: '/jobs/batch-jobs' },
]

/** The Jobs section: its title and the Alter jobs / Batch jobs tabs over each page. */
export default function JobsLayout() {
  return (
    <Box>
      <Heading as="h1" size="lg">
        Jobs
      </Heading>
      <Text color="fg.muted" fontSize="sm" mb="4">
        Alter jobs change or delete rows in place; batch jobs load files into a table.
      </Text>
      <SectionTabs label="Job kinds" tabs={TABS} />
      <Outlet />
    </Box>
  )
}
