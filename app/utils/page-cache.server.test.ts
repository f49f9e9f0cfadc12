import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { EntryContext } from '@remix-run/node'
import { cachedPage, clearPageCache, keepPage, pageKey } from './page-cache.server'

afterEach(() => {
  clearPageCache()
  vi.useRealTimers()
})

describe('page cache', () => {
  it("gives a kept page back with the request's own nonce in every place, non-ASCII text intact", () => {
    keepPage('k', Buffer.from('<script nonce="n0nce">a</script><p>— · “x”</p><style nonce="n0nce"></style>'), 'n0nce')
    expect(cachedPage('k', 'fresh')?.toString('utf8')).toBe(
      '<script nonce="fresh">a</script><p>— · “x”</p><style nonce="fresh"></style>',
    )
    expect(cachedPage('k', 'again')?.toString('utf8')).toBe(
      '<script nonce="again">a</script><p>— · “x”</p><style nonce="again"></style>',
    )
    expect(cachedPage('other', 'fresh')).toBeUndefined()
  })

  it('keeps a page without the nonce as it is, and forgets pages after a minute', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    keepPage('plain', Buffer.from('<p>no scripts</p>'), 'n0nce')
    expect(cachedPage('plain', 'fresh')?.toString('utf8')).toBe('<p>no scripts</p>')
    vi.setSystemTime(Date.now() + 60_001)
    expect(cachedPage('plain', 'fresh')).toBeUndefined()
  })
})

describe('pageKey', () => {
  const context = (loaderData: unknown) =>
    ({
      manifest: { version: 'v1' },
      staticHandlerContext: { loaderData, actionData: null, errors: null },
    }) as unknown as EntryContext
  const request = new Request('http://console.test/data/tables')
  beforeEach(() => vi.stubEnv('NODE_ENV', 'production'))
  afterEach(() => vi.unstubAllEnvs())

  it('keys the same URL and loader data alike, and different data apart', () => {
    const key = pageKey(request, 200, context({ root: { a: 1 } }))
    expect(key).toBeTruthy()
    expect(pageKey(request, 200, context({ root: { a: 1 } }))).toBe(key)
    expect(pageKey(request, 200, context({ root: { a: 2 } }))).not.toBe(key)
  })

  it('refuses loader data that JSON does not represent as it is (two Maps would share a key)', () => {
    for (const value of [new Map([['a', 1]]), new Set([1]), new Date(0), /x/, Promise.resolve(1), () => 1])
      expect(pageKey(request, 200, context({ root: { value } })), String(value)).toBeNull()
    expect(pageKey(request, 200, context({ root: { big: 1n } }))).toBeNull()
  })
})
