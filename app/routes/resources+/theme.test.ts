import { describe, expect, it } from 'vitest'
import { args, asResponse, post } from '#tests/session'
import { getColorMode } from '~/utils/session.server'
import { action } from './theme'

describe('theme', () => {
  it('stores the chosen theme and goes back to the page it was chosen on', async () => {
    const response = asResponse(
      await action(args(post('/resources/theme', { theme: 'dark', redirectTo: '/data/tables?q=web' }))),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/data/tables?q=web')
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('cc_theme='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(
      await getColorMode(new Request('http://console.test/', { headers: { Cookie: cookie.split(';')[0]! } })),
    ).toBe('dark')
  })

  it('changes nothing for an unknown theme and never redirects off the site', async () => {
    const response = asResponse(
      await action(args(post('/resources/theme', { theme: 'sepia', redirectTo: '//evil.example' }))),
    )
    expect(response.headers.get('Location')).toBe('/dashboard')
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('drops a redirectTo a Location header cannot carry (non-Latin-1, a space): the theme is kept, no 500 (issue 49)', async () => {
    for (const redirectTo of ['/€', '/data/tables?q=é', '/a b', '/\u0100']) {
      const response = asResponse(await action(args(post('/resources/theme', { theme: 'dark', redirectTo }))))
      expect(response.status, redirectTo).toBe(302)
      expect(response.headers.get('Location'), redirectTo).toBe('/dashboard')
      expect(response.headers.getSetCookie()[0]).toMatch(/^cc_theme=/)
    }
  })
})
