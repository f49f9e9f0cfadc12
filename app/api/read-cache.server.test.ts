import { afterEach, describe, expect, it, vi } from 'vitest'
import { cachedRead, clearReadCache, forgetOrgReads, keptReadCount, MAX_KEPT } from './read-cache.server'
import { registerCache } from '~/utils/caches.server'

afterEach(() => {
  clearReadCache()
  vi.useRealTimers()
})

// One reader a console request (requireApi's client); its session key starts with the org.
const request = (sessionKey = 'org:s1') => ({ sessionKey })

describe('cachedRead (decision 060)', () => {
  it('reads once per request and key, and again in the next request: nothing a change can affect outlives a request', async () => {
    const load = vi.fn(async () => ['a'])
    const first = request()
    expect(await cachedRead(first, 'tables:p', load)).toEqual(['a'])
    expect(await cachedRead(first, 'tables:p', load)).toEqual(['a'])
    expect(load).toHaveBeenCalledTimes(1)
    await cachedRead(first, 'tables:q', load)
    expect(load).toHaveBeenCalledTimes(2)
    // the same session's next request (or another replica's) reads what is true now
    await cachedRead(request(), 'tables:p', load)
    expect(load).toHaveBeenCalledTimes(3)
    expect(keptReadCount()).toBe(0)
  })

  it('keeps a read that names its own lifetime across requests that long, per session', async () => {
    vi.useFakeTimers()
    const load = vi.fn(async () => '5.2')
    await cachedRead(request(), 'version', load, 60_000)
    await cachedRead(request(), 'version', load, 60_000)
    expect(load).toHaveBeenCalledTimes(1)
    await cachedRead(request('org:s2'), 'version', load, 60_000)
    expect(load).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(60_001)
    await cachedRead(request(), 'version', load, 60_000)
    expect(load).toHaveBeenCalledTimes(3)
  })

  it('shares one read between concurrent callers of a request', async () => {
    let resolve!: (value: string[]) => void
    const load = vi.fn(() => new Promise<string[]>((done) => (resolve = done)))
    const one = request()
    const both = Promise.all([cachedRead(one, 'k', load), cachedRead(one, 'k', load)])
    resolve(['x'])
    expect(await both).toEqual([['x'], ['x']])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('does not keep a failed read', async () => {
    const failing = vi.fn(async () => {
      throw new Error('cluster down')
    })
    const one = request()
    await expect(cachedRead(one, 'k', failing, 60_000)).rejects.toThrow('cluster down')
    const load = vi.fn(async () => 'fresh')
    expect(await cachedRead(one, 'k', load, 60_000)).toBe('fresh')
  })

  it("a change forgets the kept reads of every session of its org, and what else registered, not another org's", async () => {
    const mine = vi.fn(async () => 'mine')
    const theirs = vi.fn(async () => 'theirs')
    const elsewhere = vi.fn(async () => 'other org')
    await cachedRead(request('org:me'), 'version', mine, 60_000)
    await cachedRead(request('org:them'), 'version', theirs, 60_000)
    await cachedRead(request('org2:me'), 'version', elsewhere, 60_000)
    const told: string[] = []
    registerCache({
      name: 'test-told',
      file: 'app/api/read-cache.server.test.ts',
      holds: 'orgs told',
      key: 'none',
      lifetime: 'the test',
      bound: 'none',
      forgottenBy: 'nothing',
      writesChangeIt: true,
      forgetOrg: (orgId) => told.push(orgId),
    })
    forgetOrgReads('org')
    await cachedRead(request('org:me'), 'version', mine, 60_000)
    await cachedRead(request('org:them'), 'version', theirs, 60_000)
    await cachedRead(request('org2:me'), 'version', elsewhere, 60_000)
    expect(mine).toHaveBeenCalledTimes(2)
    expect(theirs).toHaveBeenCalledTimes(2)
    expect(elsewhere).toHaveBeenCalledTimes(1)
    expect(told).toEqual(['org'])
  })

  it('when full of kept reads, lets the oldest go and keeps the newest', async () => {
    const load = vi.fn(async () => 0)
    for (let i = 0; i < MAX_KEPT; i++) await cachedRead(request(`o:s${i}`), 'k', load, 60_000)
    await cachedRead(request('o:new'), 'k', load, 60_000)
    expect(keptReadCount()).toBeLessThanOrEqual(MAX_KEPT * 0.9 + 1)
    load.mockClear()
    await cachedRead(request(`o:s${MAX_KEPT - 1}`), 'k', load, 60_000)
    expect(load).not.toHaveBeenCalled()
    await cachedRead(request('o:s0'), 'k', load, 60_000)
    expect(load).toHaveBeenCalledTimes(1)
  })
})
