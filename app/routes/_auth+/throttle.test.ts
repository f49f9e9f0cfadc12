import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOGIN_RULES, addressKey, createLoginThrottle, createResetThrottle, tryAgainIn } from './__throttle.server'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** One guess with a wrong password: the wait when refused, else 0 (and the failure counted). */
async function wrongGuess(throttle: ReturnType<typeof createLoginThrottle>, email: string, address?: string) {
  const attempt = await throttle.attempt(email, address)
  if (!attempt.isAllowed) return attempt.wait
  await attempt.failed()
  return 0
}

describe('login throttle (issue 49)', () => {
  it('lets an account from one address guess 5 times, then waits 30 s, 1 min, 2 min … between guesses, up to 15 min', async () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 5; i++) expect(await wrongGuess(throttle, 'victim@example.com', '198.51.100.1')).toBe(0)
    expect(await wrongGuess(throttle, 'victim@example.com', '198.51.100.1')).toBe(30)
    // the right password is refused too while blocked: the block is not a hint
    expect((await throttle.attempt('victim@example.com', '198.51.100.1')).isAllowed).toBe(false)
    const waits: number[] = []
    for (let i = 0; i < 7; i++) {
      const wait = await wrongGuess(throttle, 'victim@example.com', '198.51.100.1')
      vi.advanceTimersByTime(wait * 1000)
      expect(await wrongGuess(throttle, 'victim@example.com', '198.51.100.1')).toBe(0)
      waits.push(wait)
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900])
  })

  it('counts an unknown account exactly as a known one (the same answer for both)', async () => {
    const throttle = createLoginThrottle()
    const results: number[] = []
    for (let i = 0; i < 6; i++) results.push(await wrongGuess(throttle, `nobody-${'x'}@example.com`, '198.51.100.2'))
    expect(results).toEqual([0, 0, 0, 0, 0, 30])
  })

  it('keys the account by its normalised email', async () => {
    const throttle = createLoginThrottle()
    for (const email of [
      'Victim@Example.com',
      ' victim@example.com',
      'VICTIM@EXAMPLE.COM',
      'victim@example.com ',
      'victim@example.com',
    ])
      expect(await wrongGuess(throttle, email, '198.51.100.3')).toBe(0)
    expect(await wrongGuess(throttle, 'victim@EXAMPLE.com', '198.51.100.3')).toBe(30)
  })

  it('lets no more guesses through when they are sent at once than one after the other', async () => {
    const throttle = createLoginThrottle()
    const attempts = await Promise.all(
      Array.from({ length: 40 }, () => throttle.attempt('victim@example.com', '198.51.100.4')),
    )
    expect(attempts.filter((attempt) => attempt.isAllowed)).toHaveLength(5)
    // the others are told to come back in a moment, not blocked: those 5 may yet be right
    expect(new Set(attempts.flatMap((attempt) => (attempt.isAllowed ? [] : [attempt.wait])))).toEqual(new Set([1]))
    for (const attempt of attempts) if (attempt.isAllowed) await attempt.failed()
    expect((await throttle.attempt('victim@example.com', '198.51.100.4')).isAllowed).toBe(false)
  })

  it('a right password starts the account+address count again; a failure of the cluster counts nothing', async () => {
    const throttle = createLoginThrottle()
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect(await wrongGuess(throttle, 'user@example.com', '198.51.100.5')).toBe(0)
      const right = await throttle.attempt('user@example.com', '198.51.100.5')
      expect(right.isAllowed).toBe(true)
      if (right.isAllowed) await right.succeeded()
    }
    for (let i = 0; i < 10; i++) {
      const attempt = await throttle.attempt('user2@example.com', '198.51.100.5')
      expect(attempt.isAllowed).toBe(true)
      if (attempt.isAllowed) await attempt.unanswered()
    }
  })

  it('limits one account from many addresses (20 an hour), and one address over many accounts (100 a day)', async () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 20; i++) expect(await wrongGuess(throttle, 'ceo@example.com', `203.0.113.${i}`)).toBe(0)
    expect(await wrongGuess(throttle, 'ceo@example.com', '203.0.113.99')).toBe(60)
    const small = createLoginThrottle({
      ...LOGIN_RULES,
      address: { ...LOGIN_RULES.address, freeFailures: 3 },
    })
    for (let i = 0; i < 3; i++) expect(await wrongGuess(small, `user${i}@example.com`, '192.0.2.9')).toBe(0)
    expect(await wrongGuess(small, 'fresh@example.com', '192.0.2.9')).toBe(15 * 60)
    // another address is not held back
    expect(await wrongGuess(small, 'fresh@example.com', '192.0.2.10')).toBe(0)
  })

  it('keys an IPv6 address by its /64 and an IPv4-mapped one as IPv4', async () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64')
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey(undefined)).toBe('unknown')
    const throttle = createLoginThrottle()
    for (let i = 0; i < 5; i++) expect(await wrongGuess(throttle, 'v6@example.com', `2001:db8:1:2::${i + 1}`)).toBe(0)
    expect(await wrongGuess(throttle, 'v6@example.com', '2001:db8:1:2::ff')).toBe(30)
  })

  it('says the wait in words', () => {
    expect(tryAgainIn(1)).toBe('Try again in 1 second.')
    expect(tryAgainIn(30)).toBe('Try again in 30 seconds.')
    expect(tryAgainIn(900)).toBe('Try again in 15 minutes.')
    expect(tryAgainIn(86_400)).toBe('Try again in 24 hours.')
  })
})

describe('password reset throttle (issue 49)', () => {
  it('sends 5 recovery emails an hour to one email and 30 from one address', async () => {
    const throttle = createResetThrottle()
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('victim@example.com', `198.51.100.${i}`)).toBe(0)
    expect(await throttle.attempt('VICTIM@example.com', '198.51.100.50')).toBe(3600)
    vi.advanceTimersByTime(3600 * 1000)
    expect(await throttle.attempt('victim@example.com', '198.51.100.50')).toBe(0)
    for (let i = 0; i < 30; i++) expect(await throttle.attempt(`spam${i}@example.com`, '192.0.2.1')).toBe(0)
    expect(await throttle.attempt('another@example.com', '192.0.2.1')).toBeGreaterThan(3000)
    // a refused request took nothing: that email still has its allowance from elsewhere
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('another@example.com', '192.0.2.2')).toBe(0)
  })
})
