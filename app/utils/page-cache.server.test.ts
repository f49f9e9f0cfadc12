import { afterEach, describe, expect, it, vi } from 'vitest'
import { cachedPage, clearPageCache, keepPage } from './page-cache.server'

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
