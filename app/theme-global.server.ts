import { createSystem, defineConfig } from '@chakra-ui/react'
import { globalCss, keyframes } from '@chakra-ui/react/theme'
import { chakraBaseConfig } from '~/chakra-config'
import { consoleThemeConfig } from '~/theme'
import { SHELL_CSS } from '~/components/layout/shell-css'
import { FORM_CSS } from '~/components/forms/form-css'

/**
 * What only the theme stylesheet needs (decision 027): Chakra's preflight, global CSS and keyframes,
 * and the console's global CSS. The browser's system (theme.ts) goes without them; the class names
 * a page's components get are the same with or without.
 */
const globalConfig = defineConfig({
  preflight: true,
  globalCss,
  theme: { keyframes },
})

const consoleGlobalConfig = defineConfig({
  theme: {
    keyframes: {
      // The pending bar (components/layout/pending-indicator.tsx): transform only, so the compositor
      // animates it. (Keyframes in a component's `css` come out empty: they live here.)
      'cc-pending': {
        '0%': { transform: 'translateX(0%) scaleX(0.1)' },
        '50%': { transform: 'translateX(30%) scaleX(0.5)' },
        '100%': { transform: 'translateX(100%) scaleX(0.1)' },
      },
    },
  },
  globalCss: {
    'html, body': { minHeight: '100%', bg: 'bg.subtle' },
    // A fieldset is as wide as its widest content by default (min-inline-size: min-content), so a
    // wide table inside one widened the page on a phone instead of scrolling in its own box (issue 36)
    fieldset: { minInlineSize: '0' },
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
    ...SHELL_CSS,
    ...FORM_CSS,
  },
})

/** The system the theme stylesheet is rendered from: the pages' own, with the global CSS. */
export const themeSystem = createSystem(chakraBaseConfig, globalConfig, consoleThemeConfig, consoleGlobalConfig)

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
    rule(
      ' .ace_marker-layer .ace_active-line, ' + root + ' .ace-tm .ace_gutter-active-line',
      'background:rgba(255,255,255,0.06)',
    ),
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
  const vars = themeSystem.tokens.cssVarMap.get('_dark') ?? new Map<string, string>()
  const body = [...vars].map(([name, value]) => `${name}:${value}`).join(';')
  return `@media (prefers-color-scheme: dark){html[data-theme=system]{color-scheme:dark;${body}}${aceDarkCss('html[data-theme=system]')}}`
})()
