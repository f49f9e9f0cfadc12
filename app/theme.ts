import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react'

const config = defineConfig({
  theme: {
    tokens: {
      fonts: {
        heading: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        body: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
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
