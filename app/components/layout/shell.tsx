import { useHydrated } from 'remix-utils/use-hydrated'
import { useMatches, useLocation, useNavigation } from '@remix-run/react'
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { buildBreadcrumb, type CrumbNames } from '~/utils/breadcrumb'
import { docsLinks, type DocsTopic } from '~/utils/docs'
import type { RouteHandle } from '~/utils/handle'
import { browserZone, type Timezone } from '~/utils/timezone'
import { withBase } from '~/utils/base-path'
import { Header } from './header'
import { PendingIndicator } from './pending-indicator'
import { Sidebar } from './sidebar'
import { PHONE_QUERY, SIDEBAR_TOGGLE_ID } from './shell-css'
import { ShortcutsDialog } from './shortcuts-dialog'
import { useShortcuts } from './use-shortcuts'
import { useColorMode } from './use-color-mode'

export type ShellData = {
  email: string | null
  timezone: Timezone
  /** The zone the browser last reported, for a "Local" preference (null until one has). */
  localZone: string | null
  version: string | null
  docsUrl: string
  supportUrl: string
  /** Menu and sidebar entries the user can never use (nav-config `hiddenPaths`). */
  hiddenPaths: string[]
}

/** Collects the breadcrumb names and the deepest docs topic from the matched routes' handles. */
function useRouteHandles() {
  const matches = useMatches()
  // The matches change only when a navigation ends: one set of names per page, so what is built
  // from them below is memoised on it.
  return useMemo(() => routeHandles(matches), [matches])
}

function routeHandles(matches: ReturnType<typeof useMatches>) {
  const names: CrumbNames = {}
  let docsTopic: DocsTopic | undefined
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined
    if (!handle) continue
    if (handle.docsTopic)
      docsTopic = typeof handle.docsTopic === 'function' ? handle.docsTopic(match.params, match.data) : handle.docsTopic
    if (handle.breadcrumb && match.data !== undefined) {
      try {
        Object.assign(names, handle.breadcrumb(match.data, match.params))
      } catch {
        // A name is a nicety: the placeholder still shows.
      }
    }
  }
  return { names, docsTopic }
}

// The frame re-renders only when what it shows changes (its props, the location), not when a
// navigation starts or ends: the pending bar and the sidebar's reset follow the navigation state in
// components of their own. Re-rendering the whole frame twice per navigation cost tens of ms of
// style work at every click, while the next page's request was waiting on the same CPU.
const MemoHeader = memo(Header)
const MemoSidebar = memo(Sidebar)
const MemoShortcutsDialog = memo(ShortcutsDialog)

/** Spec section 4: the sidebar's state is reset when navigation begins. */
function ResetOnNavigation({ onLoading }: { onLoading: () => void }) {
  const navigation = useNavigation()
  useEffect(() => {
    if (navigation.state === 'loading') onLoading()
  }, [navigation.state, onLoading])
  return null
}

/** The console's frame: header, collapsible sidebar and the main area holding `children` (shell-css.ts classes). */
export function Shell({ data, children }: { data: ShellData; children: ReactNode }) {
  const { pathname } = useLocation()
  const { names, docsTopic } = useRouteHandles()
  const [isCollapsed, setCollapsed] = useState(false)
  const theme = useColorMode()
  const isHydrated = useHydrated()
  const shortcutsRef = useRef<HTMLDialogElement>(null)
  useShortcuts({ onHelp: useCallback(() => shortcutsRef.current?.showModal(), []) })

  const expand = useCallback(() => setCollapsed(false), [])
  const crumbs = useMemo(() => buildBreadcrumb(pathname, names), [pathname, names])
  const docs = useMemo(() => docsLinks(data.docsUrl, docsTopic), [data.docsUrl, docsTopic])

  // "Local" times: the browser says its zone once (and when it changes), so the server renders
  // them in it from the next page on, with scripts or without (issue 35).
  useEffect(() => {
    if (data.timezone !== 'Local') return
    const zone = browserZone()
    if (!zone || zone === data.localZone) return
    fetch(withBase('/resources/local-zone'), { method: 'POST', body: new URLSearchParams({ zone }) }).catch(() => {
      // a nicety: times stay in the browser's zone on this page, labelled, either way
    })
  }, [data.timezone, data.localZone])

  // Escape closes the phone's sidebar menu (on a wide screen the same state is "collapsed": kept).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !window.matchMedia(PHONE_QUERY).matches) return
      const toggle = document.getElementById(SIDEBAR_TOGGLE_ID)
      if (!(toggle instanceof HTMLInputElement) || !toggle.checked) return
      setCollapsed(false)
      toggle.focus() // focus was maybe in the sidebar, which hides
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])

  return (
    <div className="cc-shell">
      <a href="#main" className="cc-skip">
        Skip to content
      </a>
      <PendingIndicator />
      <ResetOnNavigation onLoading={expand} />
      <MemoSidebar
        version={data.version}
        supportUrl={data.supportUrl}
        docsUrl={data.docsUrl}
        hiddenPaths={data.hiddenPaths}
      />
      <div className="cc-shell-body">
        <MemoHeader
          crumbs={crumbs}
          email={data.email}
          docs={docs}
          isCollapsed={isCollapsed}
          onToggle={setCollapsed}
          hiddenPaths={data.hiddenPaths}
          theme={theme}
        />
        {/* `?` opens it, which needs scripts: the server does not render it (about 50 styled elements) */}
        {isHydrated ? <MemoShortcutsDialog ref={shortcutsRef} /> : null}
        <main id="main" tabIndex={-1} className="cc-main">
          {children}
        </main>
      </div>
    </div>
  )
}
