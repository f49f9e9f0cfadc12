import { isIPv4, isIPv6 } from 'node:net'
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible'

/**
 * Sign-in and password-reset throttling (issue 49, decision 094), in this process's memory: with N
 * replicas an attacker spread over them gets at most N times each allowance (the README says so).
 * Keyed by the account (the email as typed, trimmed and lower-cased, known or not: the same answer
 * and the same counting for an account that does not exist) and by the client's address (the peer,
 * or what a proxy named by TRUST_PROXY says; an IPv6 address by its /64).
 */

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The client's address as server/index.ts reads it (Express's `req.ip`); absent under `remix-serve`. */
    clientAddress?: string
  }
}

/** How a count of failures turns into a block that doubles each time. */
type BackoffRule = {
  /** Failures let through before the first block. */
  freeFailures: number
  /** How long failures are counted (a success clears the account+address count at once). */
  windowSeconds: number
  firstBlockSeconds: number
  maxBlockSeconds: number
}

const DAY = 24 * 60 * 60

/**
 * The login's rules. One account from one address: 5 wrong passwords, then 30 s, 1 min, 2 min … up
 * to 15 min between single guesses. One account from anywhere: 20 wrong passwords an hour, then 1
 * min doubling to 15 min. One address, any accounts: 100 wrong passwords a day, then 15 min
 * doubling to a day.
 */
export const LOGIN_RULES = {
  accountAndAddress: { freeFailures: 5, windowSeconds: DAY, firstBlockSeconds: 30, maxBlockSeconds: 15 * 60 },
  account: { freeFailures: 20, windowSeconds: 60 * 60, firstBlockSeconds: 60, maxBlockSeconds: 15 * 60 },
  address: { freeFailures: 100, windowSeconds: DAY, firstBlockSeconds: 15 * 60, maxBlockSeconds: DAY },
} satisfies Record<string, BackoffRule>

/** Recovery emails: 5 an hour for one email, 30 an hour from one address. */
export const RESET_RULES = {
  email: { points: 5, duration: 60 * 60 },
  address: { points: 30, duration: 60 * 60 },
}

/**
 * Failures of one key counted in a window; past the free ones each failure blocks the key, for a
 * time that doubles with each block (remembered a day) up to a maximum. An attempt takes its point
 * before it is tried, so attempts sent at once cannot all pass the check together.
 */
class Backoff {
  private readonly failures: RateLimiterMemory
  private readonly blocks: RateLimiterMemory

  constructor(
    name: string,
    private readonly rule: BackoffRule,
  ) {
    this.failures = new RateLimiterMemory({
      keyPrefix: `${name}-failures`,
      points: rule.freeFailures,
      duration: rule.windowSeconds,
    })
    this.blocks = new RateLimiterMemory({ keyPrefix: `${name}-blocks`, points: Number.MAX_SAFE_INTEGER, duration: DAY })
  }

  /** Takes an attempt: 0 when it may go on, else the seconds until it may. */
  async take(key: string): Promise<number> {
    const held = await this.failures.get(key)
    if (held && held.consumedPoints > this.rule.freeFailures) return seconds(held.msBeforeNext)
    try {
      await this.failures.consume(key)
      return 0
    } catch {
      // as many attempts in flight as failures left: this one waits a moment for theirs
      await this.failures.reward(key)
      return 1
    }
  }

  /** The attempt failed: past the free failures (or once blocked before), the key is blocked. */
  async fail(key: string): Promise<void> {
    const counted = await this.failures.get(key)
    const wasBlocked = await this.blocks.get(key)
    if (!wasBlocked && (counted?.consumedPoints ?? 0) < this.rule.freeFailures) return
    const times = (await this.blocks.penalty(key)).consumedPoints
    const blockSeconds = Math.min(this.rule.firstBlockSeconds * 2 ** (times - 1), this.rule.maxBlockSeconds)
    await this.failures.block(key, blockSeconds)
  }

  /** The attempt said nothing of the password (the cluster failed): its point back. */
  async refund(key: string): Promise<void> {
    const counted = await this.failures.get(key)
    if (counted && counted.consumedPoints > 0 && counted.consumedPoints <= this.rule.freeFailures)
      await this.failures.reward(key)
  }

  async clear(key: string): Promise<void> {
    await Promise.all([this.failures.delete(key), this.blocks.delete(key)])
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** The account a form names: its email trimmed, lower-cased and in one Unicode form. */
export function accountKey(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase()
}

/**
 * The address a limit counts: an IPv4 address as is (also when written as IPv4-mapped IPv6), an
 * IPv6 address by its /64 (one machine usually holds a whole /64); `unknown` when none is known.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!
  if (isIPv4(address)) return address
  if (!isIPv6(address)) return address
  const [head = '', tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : []
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** "Try again in 30 seconds." / "… in 15 minutes." */
export function tryAgainIn(waitSeconds: number): string {
  if (waitSeconds < 120) return `Try again in ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}.`
  const minutes = Math.ceil(waitSeconds / 60)
  if (minutes < 120) return `Try again in ${minutes} minutes.`
  return `Try again in ${Math.ceil(minutes / 60)} hours.`
}

/** The login's throttle: `attempt` before asking the cluster, then `succeeded`, `failed` or `unanswered`. */
export function createLoginThrottle(rules = LOGIN_RULES) {
  const pair = new Backoff('login-account-address', rules.accountAndAddress)
  const account = new Backoff('login-account', rules.account)
  const address = new Backoff('login-address', rules.address)
  const hasAddress = (keys: { address: string }) => keys.address !== 'unknown'
  return {
    /** Null when the attempt may go on, else the seconds to wait (the attempt is not counted). */
    async attempt(email: string, clientAddress: string | undefined) {
      const keys = { account: accountKey(email), address: addressKey(clientAddress) }
      const pairKey = `${keys.account}\u0000${keys.address}`
      const taken: { limiter: Backoff; key: string }[] = []
      let wait = 0
      for (const [limiter, key] of [
        [pair, pairKey],
        [account, keys.account],
        ...(hasAddress(keys) ? [[address, keys.address] as const] : []),
      ] as const) {
        const seconds = await limiter.take(key)
        if (seconds) wait = Math.max(wait, seconds)
        else taken.push({ limiter, key })
      }
      const each = async (run: (limiter: Backoff, key: string) => Promise<void>) => {
        for (const { limiter, key } of taken) await run(limiter, key)
      }
      if (wait) {
        await each((limiter, key) => limiter.refund(key))
        return { isAllowed: false as const, wait }
      }
      return {
        isAllowed: true as const,
        /** The password was right: this account's count from this address starts again; the others do not count it. */
        succeeded: async () => {
          await pair.clear(pairKey)
          await each((limiter, key) => (limiter === pair ? Promise.resolve() : limiter.refund(key)))
        },
        /** The cluster refused the credentials. */
        failed: () => each((limiter, key) => limiter.fail(key)),
        /** The cluster did not say (unreachable, 5xx): nothing counted. */
        unanswered: () => each((limiter, key) => limiter.refund(key)),
      }
    },
  }
}

/** The password reset's throttle: null when a recovery email may be asked for, else the seconds to wait. */
export function createResetThrottle(rules = RESET_RULES) {
  const byEmail = new RateLimiterMemory({ keyPrefix: 'reset-email', ...rules.email })
  const byAddress = new RateLimiterMemory({ keyPrefix: 'reset-address', ...rules.address })
  return {
    async attempt(email: string, clientAddress: string | undefined): Promise<number> {
      const address = addressKey(clientAddress)
      const limits: [RateLimiterMemory, string][] = [[byEmail, accountKey(email)]]
      if (address !== 'unknown') limits.push([byAddress, address])
      const taken: [RateLimiterMemory, string][] = []
      let wait = 0
      for (const [limiter, key] of limits) {
        try {
          await limiter.consume(key)
          taken.push([limiter, key])
        } catch (refused) {
          await limiter.reward(key)
          wait = Math.max(wait, seconds((refused as RateLimiterRes).msBeforeNext))
        }
      }
      if (wait) for (const [limiter, key] of taken) await limiter.reward(key)
      return wait
    },
  }
}

/** Failed sign-ins answer no sooner than this after they began: a known and an unknown account take as long. */
export const FAILED_SIGN_IN_MS = 400

/** Waits until `FAILED_SIGN_IN_MS` have passed since `startedAt` (performance.now()). */
export async function evenOut(startedAt: number, floorMs = FAILED_SIGN_IN_MS): Promise<void> {
  const left = floorMs - (performance.now() - startedAt)
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
}

/** This process's throttles (one per server: module state, like the session caches). */
export const loginThrottle = createLoginThrottle()
export const resetThrottle = createResetThrottle()
