import '#tests/env'
import { describe, expect, it } from 'vitest'
import { loader as rootLoader } from '~/root'
import { args, get, unwrap } from '#tests/session'
import { getToasts, redirectWithToast } from './toast.server'

describe('toasts', () => {
  it('travel in a flash cookie to the next page, which reads and clears them', async () => {
    const response = await redirectWithToast('/data/tables', { title: 'Table deleted', type: 'success' })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/data/tables')
    const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!
    expect(cookie).toMatch(/^cc_toast=/)

    const request = new Request('http://console.test/data/tables', { headers: { Cookie: cookie } })
    const { toasts, setCookie } = await getToasts(request)
    expect(toasts).toEqual([expect.objectContaining({ title: 'Table deleted', type: 'success' })])
    expect(setCookie).toMatch(/^cc_toast=;.*Expires=Thu, 01 Jan 1970/)
  })

  it('are returned by the root loader, with the header that clears them', async () => {
    const response = await redirectWithToast('/x', 'Saved')
    const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!
    const result = await rootLoader(args(get('/x', cookie)))
    expect(unwrap(result).data.toasts).toEqual([expect.objectContaining({ title: 'Saved', type: 'success' })])
    expect(new Headers(result.init?.headers).get('Set-Cookie')).toMatch(/^cc_toast=;/)
  })

  it('are absent without the cookie', async () => {
    expect(await getToasts(new Request('http://console.test/'))).toEqual({ toasts: [], setCookie: null })
  })
})
