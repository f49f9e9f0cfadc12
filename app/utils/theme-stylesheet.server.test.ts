import { describe, expect, it } from 'vitest'
import { loader } from '~/routes/resources+/theme.$file'
import { themeStylesheet, themeStylesheetHref } from './theme-stylesheet.server'

describe('the theme stylesheet', () => {
  it('holds what Chakra injected into every page: layer order first, preflight, tokens, the console global CSS', () => {
    const { css } = themeStylesheet()
    // toBe(true) rather than toContain: a failure would print 48 KB of CSS
    const has = (text: string) => expect(css.includes(text), text).toBe(true)
    expect(css.startsWith('@layer reset,base,tokens,recipes;'), css.slice(0, 60)).toBe(true)
    has('--chakra-colors-blue-600:')
    // semantic tokens, light and dark
    has('--chakra-colors-bg-subtle:')
    has('.dark,.dark .chakra-theme:not(.light){')
    // the console's own theme (theme.ts): the 2 px focus ring, the fonts, fg.error at AA contrast
    has('outline-width:2px!important')
    has('DejaVu Sans Mono')
    has('--chakra-colors-fg-error:var(--chakra-colors-red-700)')
    has('@keyframes spin')
    // the pending bar's steps (a component's own css emits its keyframes empty)
    has('@keyframes cc-pending{0%{')
    expect(
      /@keyframes cc-pending\{0%\{[^}]*;transform:translateX\(0%\) scaleX\(0\.1\);\}50%\{[^}]*;transform:translateX\(30%\) scaleX\(0\.5\);\}/.test(
        css,
      ),
      'cc-pending steps',
    ).toBe(true)
    // the dark rules Chakra's tokens do not reach, once in the sheet rather than inline in every page
    has('html.dark .ace-tm{')
    has('@media (prefers-color-scheme: dark){html[data-theme=system]{color-scheme:dark;')
  })

  it('is served under its content hash for a year, and under any other name revalidated', async () => {
    const href = themeStylesheetHref()
    expect(href).toMatch(/^\/resources\/theme\/[\w-]{16}\.css$/)
    const file = href.split('/').pop()!
    const current = await loader({ params: { file }, request: new Request(`http://localhost${href}`), context: {} })
    expect(current.headers.get('Content-Type')).toBe('text/css; charset=utf-8')
    expect(current.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(await current.text()).toBe(themeStylesheet().css)
    const old = await loader({
      params: { file: 'current.css' },
      request: new Request('http://localhost/resources/theme/current.css'),
      context: {},
    })
    expect(old.headers.get('Cache-Control')).toBe('no-cache')
    expect(await old.text()).toBe(themeStylesheet().css)
  })
})
