import type { Plugin } from 'vite'
import { browserStub } from './browser-stub'

/** Chakra's preflight (CSS reset) builder: the only module that imports it is its system. */
const PREFLIGHT_MODULE = /[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]preflight\.js$/

/**
 * In the browser build only, replaces Chakra's preflight builder with one that returns nothing
 * (decision 032). The browser's system is created with `preflight: false` (chakra-config.ts; the
 * reset is in the theme stylesheet, theme-global.server.ts), for which the real one returns `{}`
 * too, but `createSystem` imports it regardless: about 1.5 KB gzipped in every page's shell. The
 * server build keeps the real module; a browser system asking for a preflight throws.
 */
export function clientChakraWithoutPreflight(): Plugin {
  return browserStub('client-chakra-without-preflight', PREFLIGHT_MODULE, () =>
    [
      'export function createPreflight(options) {',
      '  if (!options.preflight) return {}',
      `  throw new Error('Chakra preflight is not in the browser build (vite/client-chakra-without-preflight.ts)')`,
      '}',
    ].join('\n'),
  )
}
