import { defaultBaseConfig, defineConfig, mergeConfigs, type SystemContext } from '@chakra-ui/react'
import {
  breakpoints,
  cssVarsPrefix,
  cssVarsRoot,
  layerStyles,
  semanticTokens,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme'

/**
 * Chakra's default config without any recipe (decisions 020 and 034). `defaultConfig` carries all
 * 80-odd recipes, about 25 KB gzipped in every page's first load; the components the console uses
 * take theirs as a prop instead (app/components/ui/), so a page loads only the recipes it renders.
 * A recipe component imported straight from Chakra renders unstyled (recipe-components.test.ts
 * fails): using a new one (Card, Table, Tabs, …) means adding its wrapper there.
 */
export const chakraBaseConfig = mergeConfigs(
  defaultBaseConfig,
  defineConfig({
    // Preflight, global CSS and keyframes only make CSS the theme stylesheet carries
    // (theme-global.server.ts adds them back for it): the browser's system goes without (decision 027).
    preflight: false,
    cssVarsPrefix,
    cssVarsRoot,
    theme: {
      breakpoints,
      tokens,
      semanticTokens,
      textStyles,
      layerStyles,
      // No animationStyles: only recipes the console does not use (select, dialog, menu…) name one.
    },
  }),
)

/**
 * The system as pages give it to ChakraProvider: the same system without the global CSS the provider
 * would inject into every page (about 58 KB); the theme stylesheet (utils/theme-stylesheet.server)
 * carries it instead, cascade layers' order included. Its `cva` and `sva` build a recipe once per
 * recipe object: the components in components/ui/ pass theirs as a prop, which Chakra would
 * otherwise build again for every element it renders (a registered one it builds once, by key).
 */
export function systemForPages(system: SystemContext): SystemContext {
  return {
    ...system,
    cva: builtOnce(system.cva),
    sva: builtOnce(system.sva),
    _global: [],
    _config: { ...system._config, disableLayers: true },
  }
}

/** `build` remembering what it returned for each object it was given (recipes are never changed once defined). */
function builtOnce<A, R>(build: (config: A) => R): (config: A) => R {
  const built = new WeakMap<object, R>()
  return (config) => {
    if (typeof config !== 'object' || config === null) return build(config)
    let result = built.get(config)
    if (result === undefined) {
      result = build(config)
      built.set(config, result)
    }
    return result
  }
}
