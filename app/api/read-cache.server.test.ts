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

  it('forgets everything when the console changes something', async () => {
    const load = vi.fn(async () => 1)
    await cachedRead('s', 'k', load)
    clearReadCache()
    await cachedRead('s', 'k', load)
    expect(load).toHaveBeenCalledTimes(2)
  })
})
