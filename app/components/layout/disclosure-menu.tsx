import { useLocation } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A menu that opens without scripts: a native `<details>` whose `<summary>` is the button.
 * With scripts it also closes on navigation, on Escape (focus back on the button) and on a click
 * outside. Styled by the theme stylesheet's shell classes (shell-css.ts).
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
    <details ref={ref} name="header-menu" className="cc-menu">
      <summary role="button" aria-label={ariaLabel} className="cc-menu-button">
        {label}
      </summary>
      <div className="cc-menu-panel" data-align={align} style={{ minWidth: `var(--chakra-sizes-${width})` }}>
        {children}
      </div>
    </details>
  )
}
