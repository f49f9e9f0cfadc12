import { Box } from '~/components/ui/box'
import { Outlet } from '@remix-run/react'
import { PageHeader } from '~/components/layout/page-header'
import { SectionTabs } from '~/components/layout/section-tabs'

/** The spec's Security tabs, in its order. */
const TABS = [
  { label: 'Users', to: '/security/users' },
  { label: 'Roles', to: '/security/roles' },
  { label: 'Audit Trail', to: '/security/audit-trails' },
  { label: 'Buckets', to: '/security/buckets' },
  { label: 'Credentials', to: '/security/credentials' },
  { label: 'Pending Invites', to: '/security/pending-invites' },
  { label: 'Auth Logs', to: '/security/auth-logs' },
]

/** The Security section: its title and tabs over each page (users, roles, buckets, credentials, logs). */
export default function SecurityLayout() {
  return (
    <Box>
      <PageHeader
        title="Security"
        description="Who can sign in and what they may do, where data is stored, and what happened."
        mb="4"
      />
      <SectionTabs label="Security areas" tabs={TABS} />
      <Outlet />
    </Box>
  )
}
