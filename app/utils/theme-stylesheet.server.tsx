import { createHash } from 'node:crypto'
import { ChakraProvider } from '@chakra-ui/react'
import createCache from '@emotion/cache'
import { CacheProvider } from '@emotion/react'
import createEmotionServer from '@emotion/server/create-instance'
import { renderToString } from 'react-dom/server'
import { DARK_EXTRAS_CSS, SYSTEM_DARK_CSS, themeSystem } from '~/theme-global.server'

let built: { css: string; hash: string } | undefined

/**
 * Returns the CSS Chakra's provider would inject into every page (cascade layers, preflight, the
 * theme's global CSS, keyframes and every token as a CSS variable), then the dark rules Chakra's tokens
 * do not reach (unlayered, last: `html.dark` and, for the "system" theme, under the device's dark
 * preference), and its content hash. Built once
 * per process from the same system the pages render with, so it cannot drift from the theme.
 */
export function themeStylesheet(): { css: string; hash: string } {
  if (!built) {
    const cache = createCache({ key: 'css' })
    const emotionServer = createEmotionServer(cache)
    renderToString(
      <CacheProvider value={cache}>
        <ChakraProvider value={themeSystem}>{null}</ChakraProvider>
      </CacheProvider>,
    )
    const css =
      emotionServer
        .extractCriticalToChunks('')
        .styles.map((chunk) => chunk.css)
        .join('') +
      DARK_EXTRAS_CSS +
      SYSTEM_DARK_CSS
    built = { css, hash: createHash('sha256').update(css).digest('base64url').slice(0, 16) }
  }
  return built
}

/** The stylesheet's URL with its content hash in the name: safe to cache for a year. */
export function themeStylesheetHref(): string {
  return `/resources/theme/${themeStylesheet().hash}.css`
}
