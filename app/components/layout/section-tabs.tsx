import { Box } from '@chakra-ui/react'
import { NavLink } from '@remix-run/react'

export type SectionTab = { label: string; to: string; end?: boolean }

const tabsCss = {
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'border',
  mb: '6',
  overflowX: 'auto',
  '& a': {
    px: '3',
    py: '2',
    mb: '-1px',
    fontSize: 'sm',
    fontWeight: 'medium',
    color: 'fg.muted',
    borderBottomWidth: '2px',
    borderColor: 'transparent',
    whiteSpace: 'nowrap',
    textDecoration: 'none',
    _hover: { color: 'fg' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.500' },
  },
  '& a[aria-current=page]': { color: 'blue.600', borderColor: 'blue.600' },
} as const

/** A section's tabs: links to sibling routes, the current one marked `aria-current="page"`. */
export function SectionTabs({ tabs, label }: { tabs: SectionTab[]; label: string }) {
  return (
    <Box as="nav" aria-label={label} css={tabsCss}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} prefetch="intent">
          {tab.label}
        </NavLink>
      ))}
    </Box>
  )
}
