import { Box } from '~/components/ui/box'
import { Link, NavLink } from '@remix-run/react'
import { defineCss } from '~/components/ui/plain'

/**
 * A tab. With `isCurrent` the page decides which tab is current (query parameters count, unlike
 * NavLink's match) and the link is not prefetched (its URL may carry state such as the SQL).
 */
export type SectionTab = {
  label: string
  to: string
  end?: boolean
  isCurrent?: boolean
  /**
   * The tab is a GET submit of this form (by id) to `to`, carrying what was typed there, with
   * `tab=<value>`: a tab between two parts of one form keeps its fields, without scripts too.
   */
  submitsForm?: { form: string; value: string }
}

const tabsCss = defineCss({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'border',
  overflowX: 'auto',
  '& a, & button': {
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
  '& button': { cursor: 'pointer', bg: 'transparent', borderTopWidth: '0', borderInlineWidth: '0' },
  '& a[aria-current=page], & button[aria-current=page]': { color: 'link', borderColor: 'link' },
} as const)

/** A section's tabs: links to sibling routes, the current one marked `aria-current="page"`; `mb` is the space below. */
export function SectionTabs({ tabs, label, mb = '6' }: { tabs: SectionTab[]; label: string; mb?: string }) {
  return (
    <Box as="nav" aria-label={label} css={tabsCss} mb={mb}>
      {tabs.map((tab) =>
        tab.submitsForm ? (
          <button
            key={tab.label}
            type="submit"
            form={tab.submitsForm.form}
            formAction={tab.to}
            formMethod="get"
            formNoValidate
            name="tab"
            value={tab.submitsForm.value}
            aria-current={tab.isCurrent ? 'page' : undefined}
          >
            {tab.label}
          </button>
        ) : tab.isCurrent === undefined ? (
          <NavLink key={tab.to} to={tab.to} end={tab.end} prefetch="intent">
            {tab.label}
          </NavLink>
        ) : (
          <Link key={tab.to} to={tab.to} aria-current={tab.isCurrent ? 'page' : undefined} prefetch="none">
            {tab.label}
          </Link>
        ),
      )}
    </Box>
  )
}
