import { Form, Link, useLocation } from '@remix-run/react'
import { COLOR_MODE_LABELS, COLOR_MODES, type ColorMode } from '~/utils/color-mode'
import type { Crumb } from '~/utils/breadcrumb'
import { BreadcrumbNav } from './breadcrumb-nav'
import { DisclosureMenu } from './disclosure-menu'
import { ADD_NEW_ENTRIES } from './nav-config'
import { SIDEBAR_TOGGLE_ID } from './shell-css'

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

/** The top header: sidebar toggle, breadcrumb, contextual Docs/API links, + add new, user menu (shell-css.ts classes). */
export function Header({ crumbs, email, docs, isCollapsed, onToggle, hiddenPaths = [], theme }: HeaderProps) {
  const addNew = ADD_NEW_ENTRIES.filter((entry) => !hiddenPaths.includes(entry.to))
  return (
    <header className="cc-header">
      <label className="cc-toggle">
        <input
          type="checkbox"
          id={SIDEBAR_TOGGLE_ID}
          className="cc-toggle-input"
          aria-label="Toggle sidebar"
          aria-controls="console-sidebar"
          checked={isCollapsed}
          onChange={(event) => onToggle(event.currentTarget.checked)}
        />
        <span aria-hidden="true" data-arrow="" className="cc-toggle-arrow">
          ◀
        </span>
        <span aria-hidden="true" data-menu-glyph="" className="cc-toggle-menu">
          ☰
        </span>
      </label>

      <div className="cc-header-crumbs">
        <BreadcrumbNav crumbs={crumbs} />
      </div>

      {docs ? (
        // contextual docs: on a phone the sidebar's Docs link stands in for them
        <div className="cc-header-docs">
          <a href={docs.docs} target="_blank" rel="noopener noreferrer" className="cc-link">
            Docs
          </a>
          <a href={docs.api} target="_blank" rel="noopener noreferrer" className="cc-link">
            API
          </a>
        </div>
      ) : null}

      {addNew.length ? (
        <DisclosureMenu label="+ add new" width="56">
          <ul className="cc-menu-list" aria-label="Create">
            {addNew.map((entry) => (
              <li key={entry.to}>
                <Link to={entry.to} className="cc-menu-item">
                  {entry.label}
                </Link>
              </li>
            ))}
          </ul>
        </DisclosureMenu>
      ) : null}

      <DisclosureMenu
        label={
          // a long address is cut short on a phone (its full text stays the button's name)
          <span className="cc-menu-email">{email ?? 'Account'}</span>
        }
        width="48"
      >
        <ul className="cc-menu-list">
          <li>
            <Link to="/profile/settings" className="cc-menu-item">
              Settings
            </Link>
          </li>
          <li>
            <Link to="/profile/create-token" className="cc-menu-item">
              Create token
            </Link>
          </li>
          <li>
            <ThemeForm theme={theme} />
          </li>
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="cc-menu-item">
                Log out
              </button>
            </Form>
          </li>
        </ul>
      </DisclosureMenu>
    </header>
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
      <div role="group" aria-label="Theme" className="cc-theme-group">
        {COLOR_MODES.map((mode) => (
          <button
            key={mode}
            type="submit"
            name="theme"
            value={mode}
            aria-pressed={mode === theme}
            className="cc-theme-button"
          >
            {COLOR_MODE_LABELS[mode]}
          </button>
        ))}
      </div>
    </Form>
  )
}
