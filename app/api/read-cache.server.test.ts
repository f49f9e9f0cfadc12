import { afterEach, describe, expect, it, vi } from 'vitest'
import { cachedRead, clearReadCache, READ_CACHE_TTL_MS } from './read-cache.server'

afterEach(() => {
  clearReadCache()
  vi.useRealTimers()
})

describe('cachedRead', () => {
  it('reads once per session and key within the time-to-live, again after it', async () => {
    vi.useFakeTimers()
    const load = vi.fn(async () => ['a'])
    expect(await cachedRead('s1', 'tables:p', load)).toEqual(['a'])
    expect(await cachedRead('s1', 'tables:p', load)).toEqual(['a'])
    expect(load).toHaveBeenCalledTimes(1)
    await cachedRead('s2', 'tables:p', load)
    await cachedRead('s1', 'tables:q', load)
    expect(load).toHaveBeenCalledTimes(3)
    vi.advanceTimersByTime(READ_CACHE_TTL_MS + 1)
    await cachedRead('s1', 'tables:p', load)
    expect(load).toHaveBeenCalledTimes(4)
  })

  it('keeps a read that names its own time-to-live that long', async () => {
    vi.useFakeTimers()
    const load = vi.fn(async () => ['h'])
    await cachedRead('s1', 'history', load, 30_000)
    vi.advanceTimersByTime(READ_CACHE_TTL_MS + 1)
    await cachedRead('s1', 'history', load, 30_000)
    expect(load).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(30_000)
    await cachedRead('s1', 'history', load, 30_000)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('shares one read between concurrent callers', async () => {
    let resolve!: (value: string[]) => void
    const load = vi.fn(() => new Promise<string[]>((done) => (resolve = done)))
    const both = Promise.all([cachedRead('s', 'k', load), cachedRead('s', 'k', load)])
    resolve(['x'])
    expect(await both).toEqual([['x'], ['x']])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('does not keep a failed read', async () => {
    const failing = vi.fn(async () => {
      throw new Error('cluster down')
    })
    await expect(cachedRead('s', 'k', failing)).rejects.toThrow('cluster down')
    const load = vi.fn(async () => 'fresh')
    expect(await cachedRead('s', 'k', load)).toBe('fresh')
  })

  it('forgets everything when told without a session', async () => {
    const load = vi.fn(async () => 1)
    await cachedRead('s', 'k', load)
    clearReadCache()
    await cachedRead('s', 'k', load)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it("forgets one session's reads when that session changes something, and keeps the others' (decision 043)", async () => {
    const mine = vi.fn(async () => 'mine')
    const theirs = vi.fn(async () => 'theirs')
    await cachedRead('org:me', 'projects', mine)
    await cachedRead('org:me', 'tables:p', mine)
    await cachedRead('org:them', 'projects', theirs)
    // a key that starts like the session's key is another session's
    await cachedRead('org:me2', 'projects', theirs)
    clearReadCache('org:me')
    await cachedRead('org:me', 'projects', mine)
    await cachedRead('org:me', 'tables:p', mine)
    await cachedRead('org:them', 'projects', theirs)
    await cachedRead('org:me2', 'projects', theirs)
    expect(mine).toHaveBeenCalledTimes(4)
    expect(theirs).toHaveBeenCalledTimes(2)
  })

  it('when full of live reads, lets the oldest go and keeps the newest', async () => {
    const load = vi.fn(async () => 0)
    for (let i = 0; i < 1000; i++) await cachedRead(`s${i}`, 'k', load)
    // the 1,001st read makes room: the oldest tenth go, the rest stay
    await cachedRead('s1000', 'k', load)
    expect(load).toHaveBeenCalledTimes(1001)
    await cachedRead('s999', 'k', load)
    await cachedRead('s500', 'k', load)
    await cachedRead('s1000', 'k', load)
    expect(load).toHaveBeenCalledTimes(1001)
    await cachedRead('s0', 'k', load)
    expect(load).toHaveBeenCalledTimes(1002)
  })
})
