import { Box, chakra } from '@chakra-ui/react'
import { Link, useLocation } from '@remix-run/react'
import { isInSection, SIDEBAR_ENTRIES } from './nav-config'

/** Open and collapsed widths (spec section 9). */
export const SIDEBAR_WIDTH = { open: '180px', collapsed: '62px' } as const

const itemStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2',
  rounded: 'md',
  fontSize: 'sm',
  color: 'gray.200',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  _hover: { bg: 'whiteAlpha.200', color: 'white' },
  _focusVisible: { outline: '2px solid', outlineColor: 'blue.300' },
  '&[aria-current=page]': { bg: 'blue.600', color: 'white' },
} as const

function Glyph({ children }: { children: string }) {
  return (
    <Box as="span" aria-hidden="true" w="5" flexShrink={0} textAlign="center" fontSize="md">
      {children}
    </Box>
  )
}

/**
 * The left sidebar. Its width follows the header's "Toggle sidebar" checkbox through CSS alone
 * (the shell's `:has()` rule), so collapsing works without scripts; labels stay for screen readers.
 */
export function Sidebar({ version, supportUrl, docsUrl, hiddenPaths = [] }: { version: string | null; supportUrl: string; docsUrl: string; hiddenPaths?: string[] }) {
  const { pathname } = useLocation()
  return (
    <Box
      as="aside"
      id="console-sidebar"
      data-sidebar=""
      w={SIDEBAR_WIDTH.open}
      flexShrink={0}
      // the aside stretches to the page's full height (its background with it); its content stays on
      // screen (no overflow on the aside itself: that would make it the sticky content's scroller)
      alignSelf="stretch"
      bg="gray.900"
      color="gray.100"
      transition="width 0.15s"
    >
      <Box position="sticky" top="0" h="100vh" display="flex" flexDirection="column" overflowY="auto" overflowX="hidden">
        <Box px="4" py="4" fontWeight="bold" whiteSpace="nowrap" color="white">
          <Glyph>◆</Glyph>
          <Box as="span" data-sidebar-label="" ml="2">
            Cluster Console
          </Box>
        </Box>
        <nav aria-label="Main">
          <Box as="ul" listStyleType="none" m="0" px="2" display="flex" flexDirection="column" gap="1">
            {SIDEBAR_ENTRIES.filter((entry) => !hiddenPaths.includes(entry.to)).map((entry) => (
              <li key={entry.to}>
                <chakra.a asChild {...itemStyles}>
                  <Link
                    to={entry.to}
                    prefetch="intent"
                    aria-current={isInSection(pathname, entry.section) ? 'page' : undefined}
                    title={entry.label}
                  >
                    <Glyph>{entry.glyph}</Glyph>
                    <span data-sidebar-label="">{entry.label}</span>
                  </Link>
                </chakra.a>
              </li>
            ))}
            <li>
              <chakra.a href={supportUrl} target="_blank" rel="noopener noreferrer" title="Support" {...itemStyles}>
                <Glyph>?</Glyph>
                <span data-sidebar-label="">Support</span>
              </chakra.a>
            </li>
            <li>
              <chakra.a href={docsUrl} target="_blank" rel="noopener noreferrer" title="Docs" {...itemStyles}>
                <Glyph>❐</Glyph>
                <span data-sidebar-label="">Docs</span>
              </chakra.a>
            </li>
          </Box>
        </nav>
        {version ? (
          // Support and Docs leave the console (spec section 2); the version line leads to /support, which shows it.
          <chakra.a asChild mt="auto" px="4" py="3" fontSize="xs" color="gray.400" whiteSpace="nowrap" _hover={{ color: 'white' }} data-sidebar-label="">
            <Link to="/support" title="Versions and how to reach support">
              Version {version}
            </Link>
          </chakra.a>
        ) : null}
      </Box>
    </Box>
  )
}
