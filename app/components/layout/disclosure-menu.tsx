import { Box, chakra } from '@chakra-ui/react'
import { useLocation } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A menu that opens without scripts: a native `<details>` whose `<summary>` is the button.
 * With scripts it also closes on navigation, on Escape (focus back on the button) and on a click
 * outside.
 */
export function DisclosureMenu({
  label,
  ariaLabel,
  children,
  align = 'end',
  width = '56',
}: {
  label: ReactNode
  ariaLabel?: string
  children: ReactNode
  align?: 'start' | 'end'
  width?: string
}) {
  const ref = useRef<HTMLDetailsElement>(null)
  const location = useLocation()

  // A navigation closes the menu; hydration does not (a menu opened before the scripts ran stays open).
  const shownAt = useRef(location.key)
  useEffect(() => {
    if (shownAt.current === location.key) return
    shownAt.current = location.key
    if (ref.current) ref.current.open = false
  }, [location.key])

  useEffect(() => {
    const details = ref.current
    if (!details) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        details.open = false
        details.querySelector('summary')?.focus()
      }
    }
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('pointerdown', onPointerDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('pointerdown', onPointerDown)
    }
  }, [])

  return (
    // `name` makes the header's menus exclusive (opening one closes the other), scripts or not.
    <chakra.details ref={ref} name="header-menu" position="relative" css={{ '& > summary::-webkit-details-marker': { display: 'none' } }}>
      <chakra.summary
        role="button"
        aria-label={ariaLabel}
        listStyleType="none"
        cursor="pointer"
        px="3"
        py="1.5"
        rounded="md"
        fontSize="sm"
        fontWeight="medium"
        borderWidth="1px"
        borderColor="border"
        bg="bg"
        _hover={{ bg: 'bg.muted' }}
        _focusVisible={{ outline: '2px solid', outlineColor: 'blue.500', outlineOffset: '2px' }}
        userSelect="none"
        whiteSpace="nowrap"
      >
        {label}
      </chakra.summary>
      <Box
        position="absolute"
        top="calc(100% + 4px)"
        {...(align === 'end' ? { right: 0 } : { left: 0 })}
        zIndex="dropdown"
        minW={width}
        bg="bg"
        borderWidth="1px"
        borderColor="border"
        rounded="md"
        shadow="lg"
        py="1"
      >
        {children}
      </Box>
    </chakra.details>
  )
}

/** Styles shared by menu entries, whether links or buttons. */
export const menuItemStyles = {
  display: 'block',
  w: 'full',
  textAlign: 'left',
  px: '3',
  py: '1.5',
  fontSize: 'sm',
  color: 'fg',
  textDecoration: 'none',
  bg: 'transparent',
  border: 'none',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { bg: 'bg.muted', outline: '2px solid', outlineColor: 'blue.500', outlineOffset: '-2px' },
} as const
