import { Link, useLocation } from '@remix-run/react'
import { isInSection, SIDEBAR_ENTRIES } from './nav-config'

function Glyph({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="cc-glyph">
      {children}
    </span>
  )
}

/**
 * The left sidebar. Its width follows the header's "Toggle sidebar" checkbox through CSS alone
 * (the shell's `:has()` rule), so collapsing works without scripts; labels stay for screen readers.
 * Styled by the theme stylesheet's shell classes (shell-css.ts).
 */
export function Sidebar({
  version,
  supportUrl,
  docsUrl,
  hiddenPaths = [],
}: {
  version: string | null
  supportUrl: string
  docsUrl: string
  hiddenPaths?: string[]
}) {
  const { pathname } = useLocation()
  return (
    <aside id="console-sidebar" data-sidebar="" className="cc-sidebar">
      <div className="cc-sidebar-inner">
        <div className="cc-sidebar-brand">
          <Glyph>◆</Glyph>
          <span data-sidebar-label="" className="cc-sidebar-brand-label">
            Cluster Console
          </span>
        </div>
        <nav aria-label="Main">
          <ul className="cc-nav-list">
            {SIDEBAR_ENTRIES.filter((entry) => !hiddenPaths.includes(entry.to)).map((entry) => (
              <li key={entry.to}>
                <Link
                  to={entry.to}
                  prefetch="intent"
                  className="cc-nav-item"
                  aria-current={isInSection(pathname, entry.section) ? 'page' : undefined}
                  title={entry.label}
                >
                  <Glyph>{entry.glyph}</Glyph>
                  <span data-sidebar-label="">{entry.label}</span>
                </Link>
              </li>
            ))}
            <li>
              <a href={supportUrl} target="_blank" rel="noopener noreferrer" title="Support" className="cc-nav-item">
                <Glyph>?</Glyph>
                <span data-sidebar-label="">Support</span>
              </a>
            </li>
            <li>
              <a href={docsUrl} target="_blank" rel="noopener noreferrer" title="Docs" className="cc-nav-item">
                <Glyph>❐</Glyph>
                <span data-sidebar-label="">Docs</span>
              </a>
            </li>
          </ul>
        </nav>
        {version ? (
          // Support and Docs leave the console (spec section 2); the version line leads to /support, which shows it.
          <Link
            to="/support"
            title="Versions and how to reach support"
            className="cc-sidebar-version"
            data-sidebar-label=""
          >
            Version {version}
          </Link>
        ) : null}
      </div>
    </aside>
  )
}
