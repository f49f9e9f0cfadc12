import { createSystem, defineConfig } from '@chakra-ui/react'
import { chakraBaseConfig } from './chakra-config'

/** The monospace stack: fonts Debian ships (DejaVu, Liberation) before the platforms' own. */
export const MONO_FONTS = '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Courier New", monospace'

const SOLID_HOVER = 'color-mix(in srgb, var(--chakra-colors-color-palette-solid) 88%, black)'

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
    recipes: {
      button: {
        variants: {
          variant: {
            // Chakra's hover is the solid colour at 90% over the page, which pales it: white on a
            // hovered blue 600 button fell to 4.3:1. Mixed with black instead, it only gains contrast.
            solid: { _hover: { bg: SOLID_HOVER }, _expanded: { bg: SOLID_HOVER } },
          },
        },
      },
    },
  },
  globalCss: {
    'html, body': { minHeight: '100%', bg: 'bg.subtle' },
    // A field with keyboard focus gets a 2 px ring (Chakra's own is a 1 px inset line, easy to miss)
    // Keyboard focus is always visible: links, buttons, menus and scrolling regions without a ring of their own get one
    'a:focus-visible, button:focus-visible, summary:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible': {
      outline: '2px solid',
      outlineColor: 'blue.500',
      outlineOffset: '2px',
    },
    'input:focus-visible, select:focus-visible, textarea:focus-visible': {
      outlineStyle: 'solid !important',
      outlineWidth: '2px !important',
      outlineColor: 'var(--chakra-colors-blue-600) !important',
      outlineOffset: '0px !important',
    },
  },
})

/** The console's Chakra system (passed to ChakraProvider as `value`). */
export const system = createSystem(chakraBaseConfig, config)

/**
 * The Ace editor's colours on a dark page: it draws with its light "textmate" theme, recoloured here
 * from the page's own variables (Ace writes its theme unlayered, so this is unlayered and more specific).
 */
function aceDarkCss(root: string): string {
  const rule = (selector: string, body: string) => `${root} .ace-tm${selector}{${body}}`
  return [
    rule('', 'background-color:var(--chakra-colors-bg);color:var(--chakra-colors-fg)'),
    rule(' .ace_gutter', 'background:var(--chakra-colors-bg-muted);color:var(--chakra-colors-fg-muted)'),
    rule(' .ace_cursor', 'color:var(--chakra-colors-fg)'),
    rule(' .ace_marker-layer .ace_selection', 'background:rgba(96,165,250,0.35)'),
    rule(' .ace_marker-layer .ace_active-line, ' + root + ' .ace-tm .ace_gutter-active-line', 'background:rgba(255,255,255,0.06)'),
    rule(' .ace_keyword', 'color:#93c5fd'),
    rule(' .ace_string', 'color:#86efac'),
    rule(' .ace_constant.ace_numeric', 'color:#fcd34d'),
    rule(' .ace_comment', 'color:#a1a1aa'),
    rule(' .ace_support.ace_function', 'color:#c4b5fd'),
  ].join('')
}

/** Dark-theme rules Chakra's tokens do not reach (the Ace editor), for `<html class="dark">`. */
export const DARK_EXTRAS_CSS = aceDarkCss('html.dark')

/**
 * The dark theme's colour variables under the device's dark preference, for the "system" theme
 * (`<html data-theme="system">`): CSS alone, so the server's page is right before any script runs
 * and without scripts. Unlayered, so it wins over Chakra's layered light values.
 */
export const SYSTEM_DARK_CSS = (() => {
  const vars = system.tokens.cssVarMap.get('_dark') ?? new Map<string, string>()
  const body = [...vars].map(([name, value]) => `${name}:${value}`).join(';')
  return `@media (prefers-color-scheme: dark){html[data-theme=system]{color-scheme:dark;${body}}${aceDarkCss('html[data-theme=system]')}}`
})()
