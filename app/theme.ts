import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react'

/** The monospace stack: fonts Debian ships (DejaVu, Liberation) before the platforms' own. */
export const MONO_FONTS = '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Courier New", monospace'

const config = defineConfig({
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
  },
  globalCss: {
    'html, body': { minHeight: '100%', bg: 'bg.subtle' },
  },
})

/** The console's Chakra system (passed to ChakraProvider as `value`). */
export const system = createSystem(defaultConfig, config)
