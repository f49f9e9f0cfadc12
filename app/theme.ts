import { createSystem, defineConfig } from '@chakra-ui/react'
import { chakraBaseConfig, systemForPages } from './chakra-config'

/** The monospace stack: fonts Debian ships (DejaVu, Liberation) before the platforms' own. */
export const MONO_FONTS = '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Courier New", monospace'

/** The console's own tokens; its global CSS is in theme-global.server.ts, its button recipe in components/ui/button.tsx. */
export const consoleThemeConfig = defineConfig({
  theme: {
    tokens: {
      fonts: {
        heading: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        body: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        // Fonts whose underscores survive Ace's line height (Debian Chromium's default monospace
        // clipped them); the same list for the editor, results and code.
        mono: { value: MONO_FONTS },
      },
      sizes: {
        sidebarOpen: { value: '180px' },
        sidebarCollapsed: { value: '62px' },
      },
    },
    semanticTokens: {
      colors: {
        // Chakra's fg.error is red 500: 3.8:1 on white, under WCAG AA's 4.5:1 for small text (axe)
        fg: { error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.300}' } } },
        // Links and the current tab: blue 600 is 5.2:1 on white, blue 300 over 9:1 on the dark background
        link: { value: { _light: '{colors.blue.600}', _dark: '{colors.blue.300}' } },
        // White on Chakra's green 600 is 3.3:1 and on orange 600 3.6:1 (toasts, solid buttons and
        // badges): green 700 is 5.0:1, orange 700 5.2:1. Dark keeps orange 500 (with black text).
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.500}' } } },
      },
    },
  },
})

/** The console's Chakra system (passed to ChakraProvider as `value`). */
export const system = createSystem(chakraBaseConfig, consoleThemeConfig)

/** The system pages render with (root.tsx's ChakraProvider): the same, without the global CSS and layers (chakra-config.ts). */
export const pageSystem = systemForPages(system)
