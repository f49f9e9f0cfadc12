import { defaultBaseConfig, defineConfig, mergeConfigs, type SystemContext } from '@chakra-ui/react'
import {
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  codeRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  headingRecipe,
  inputRecipe,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  semanticTokens,
  spinnerRecipe,
  textareaRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme'

/**
 * Chakra's default config with only the recipes of the components the console uses (decision 020).
 * `defaultConfig` carries all 80-odd recipes, about 25 KB gzipped in every page's first load.
 * A component whose recipe is missing renders unstyled: using a new recipe component (Card, Table,
 * Tabs, …) means adding its recipe here.
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
      animationStyles,
      recipes: {
        badge: badgeRecipe,
        button: buttonRecipe,
        code: codeRecipe,
        heading: headingRecipe,
        input: inputRecipe,
        link: linkRecipe,
        // Button's loading state (the Loader inside it)
        spinner: spinnerRecipe,
        textarea: textareaRecipe,
      },
      slotRecipes: {
        list: listSlotRecipe,
        nativeSelect: nativeSelectSlotRecipe,
      },
    },
  }),
)

/**
 * The system as pages give it to ChakraProvider: the same system without the global CSS the provider
 * would inject into every page (about 58 KB); the theme stylesheet (utils/theme-stylesheet.server)
 * carries it instead, cascade layers' order included.
 */
export function withoutGlobalCss(system: SystemContext): SystemContext {
  return { ...system, _global: [], _config: { ...system._config, disableLayers: true } }
}
