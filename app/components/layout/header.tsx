import { Box, chakra, Flex } from '@chakra-ui/react'
import { Form, Link, useLocation } from '@remix-run/react'
import { COLOR_MODE_LABELS, COLOR_MODES, type ColorMode } from '~/utils/color-mode'
import type { Crumb } from '~/utils/breadcrumb'
import { BreadcrumbNav } from './breadcrumb-nav'
import { DisclosureMenu, menuItemStyles } from './disclosure-menu'
import { ADD_NEW_ENTRIES } from './nav-config'

export const SIDEBAR_TOGGLE_ID = 'sidebar-toggle'

type HeaderProps = {
  crumbs: Crumb[]
  email: string | null
  docs: { docs: string; api: string } | null
  /** Controlled so the shell can reset it on navigation; without scripts the browser toggles it natively. */
  isCollapsed: boolean
  onToggle: (collapsed: boolean) => void
  /** Creation entries the user can never use: left out of the menu (and the menu, when none is left). */
  hiddenPaths?: string[]
  theme: ColorMode
}

/** The top header: sidebar toggle, breadcrumb, contextual Docs/API links, + add new, user menu. */
export function Header({ crumbs, email, docs, isCollapsed, onToggle, hiddenPaths = [], theme }: HeaderProps) {
  const addNew = ADD_NEW_ENTRIES.filter((entry) => !hiddenPaths.includes(entry.to))
  return (
    <Flex
      as="header"
      align="center"
      gap={{ base: '2', md: '3' }}
      px={{ base: '2', md: '4' }}
      py="2"
      bg="bg"
      borderBottomWidth="1px"
      borderColor="border"
      minH="14"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <chakra.label
        display="inline-flex"
        alignItems="center"
        justifyContent="center"
        w="8"
        h="8"
        rounded="md"
        cursor="pointer"
        borderWidth="1px"
        borderColor="border"
        _hover={{ bg: 'bg.muted' }}
        css={{
          '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'var(--chakra-colors-blue-500)', outlineOffset: '2px' },
          '&:has(input:checked) [data-arrow]': { transform: 'rotate(180deg)' },
          // on a phone the toggle is a menu button (the sidebar slides over the page)
          '@media (max-width: 47.99em)': { '& [data-arrow]': { display: 'none' }, '& [data-menu-glyph]': { display: 'inline' } },
        }}
      >
        <chakra.input
          type="checkbox"
          id={SIDEBAR_TOGGLE_ID}
          aria-label="Toggle sidebar"
          aria-controls="console-sidebar"
          position="absolute"
          opacity={0}
          w="1px"
          h="1px"
          m="0"
          checked={isCollapsed}
          onChange={(event) => onToggle(event.currentTarget.checked)}
        />
        <Box as="span" aria-hidden="true" data-arrow="" transition="transform 0.15s" fontSize="sm">
          ◀
        </Box>
        <Box as="span" aria-hidden="true" data-menu-glyph="" display="none" fontSize="md">
          ☰
        </Box>
      </chakra.label>

      <Box flex="1" minW="0">
        <BreadcrumbNav crumbs={crumbs} />
      </Box>

      {docs ? (
        // contextual docs: on a phone the sidebar's Docs link stands in for them
        <Flex gap="3" fontSize="sm" display={{ base: 'none', md: 'flex' }}>
          <chakra.a href={docs.docs} target="_blank" rel="noopener noreferrer" color="link" _hover={{ textDecoration: 'underline' }}>
            Docs
          </chakra.a>
          <chakra.a href={docs.api} target="_blank" rel="noopener noreferrer" color="link" _hover={{ textDecoration: 'underline' }}>
            API
          </chakra.a>
        </Flex>
      ) : null}

      {addNew.length ? (
        <DisclosureMenu label="+ add new" width="56">
          <Box as="ul" listStyleType="none" m="0" p="0" aria-label="Create">
            {addNew.map((entry) => (
              <li key={entry.to}>
                <chakra.a asChild {...menuItemStyles}>
                  <Link to={entry.to}>{entry.label}</Link>
                </chakra.a>
              </li>
            ))}
          </Box>
        </DisclosureMenu>
      ) : null}

      <DisclosureMenu
        label={
          // a long address is cut short on a phone (its full text stays the button's name)
          <Box as="span" display="inline-block" verticalAlign="bottom" maxW={{ base: '24', md: '72' }} overflow="hidden" textOverflow="ellipsis">
            {email ?? 'Account'}
          </Box>
        }
        width="48"
      >
        <Box as="ul" listStyleType="none" m="0" p="0">
          <li>
            <chakra.a asChild {...menuItemStyles}>
              <Link to="/profile/settings">Settings</Link>
            </chakra.a>
          </li>
          <li>
            <chakra.a asChild {...menuItemStyles}>
              <Link to="/profile/create-token">Create token</Link>
            </chakra.a>
          </li>
          <li>
            <ThemeForm theme={theme} />
          </li>
          <li>
            <Form method="post" action="/logout">
              <chakra.button type="submit" {...menuItemStyles}>
                Log out
              </chakra.button>
            </Form>
          </li>
        </Box>
      </DisclosureMenu>
    </Flex>
  )
}

/**
 * The user menu's theme switch: one form, a submit button per theme (the current one pressed); the
 * server stores the choice and renders this page again in it, so it works without scripts.
 */
function ThemeForm({ theme }: { theme: ColorMode }) {
  const location = useLocation()
  return (
    <Form method="post" action="/resources/theme">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <Box role="group" aria-label="Theme" display="flex" gap="1" px="3" py="1.5" borderTopWidth="1px" borderBottomWidth="1px" borderColor="border">
        {COLOR_MODES.map((mode) => (
          <chakra.button
            key={mode}
            type="submit"
            name="theme"
            value={mode}
            aria-pressed={mode === theme}
            flex="1"
            px="1.5"
            py="1"
            fontSize="xs"
            rounded="sm"
            borderWidth="1px"
            borderColor={mode === theme ? 'link' : 'border'}
            bg={mode === theme ? 'bg.muted' : 'transparent'}
            color="fg"
            fontWeight={mode === theme ? 'semibold' : 'normal'}
            cursor="pointer"
            _hover={{ bg: 'bg.muted' }}
            _focusVisible={{ outline: '2px solid', outlineColor: 'blue.500', outlineOffset: '1px' }}
          >
            {COLOR_MODE_LABELS[mode]}
          </chakra.button>
        ))}
      </Box>
    </Form>
  )
}
