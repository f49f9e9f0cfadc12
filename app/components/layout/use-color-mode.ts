import { useRouteLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { loader as rootLoader } from '~/root'
import type { ColorMode } from '~/utils/color-mode'

/** The theme preference the server rendered (root loader): light, dark or system. */
export function useColorMode(): ColorMode {
  return useRouteLoaderData<typeof rootLoader>('root')?.theme ?? 'system'
}

const DARK_QUERY = '(prefers-color-scheme: dark)'

/**
 * True when the page shows dark: the preference, or for "system" the device's, followed live.
 * For what draws its own colours (Plotly, Ace); false on the server, where "system" is unknown.
 */
export function useIsDark(): boolean {
  const mode = useColorMode()
  const [isSystemDark, setSystemDark] = useState(false)
  useEffect(() => {
    if (mode !== 'system') return
    const query = window.matchMedia(DARK_QUERY)
    setSystemDark(query.matches)
    const onChange = (event: MediaQueryListEvent) => setSystemDark(event.matches)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [mode])
  return mode === 'dark' || (mode === 'system' && isSystemDark)
}
