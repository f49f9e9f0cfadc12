import { describe, expect, it } from 'vitest'
import { getEnv, parseEnv, settleEnv } from './env.server'

describe('configuration', () => {
  it('has sane defaults in local mode', () => {
    const env = parseEnv({})
    expect(env).not.toBeInstanceOf(Error)
    expect((env as { CLUSTER_URL?: string }).CLUSTER_URL).toBeUndefined()
    expect(env).toMatchObject({
      PORT: 3000,
      ALLOW_EMBEDDING: false,
      DOCS_URL: 'https://docs.hydrolix.io',
      MAX_CONCURRENT_REQUESTS: 16,
    })
  })

  it('requires SESSION_SECRET when CLUSTER_URL is set', () => {
    const env = parseEnv({ CLUSTER_URL: 'https://cluster.example.com' })
    expect(env).toBeInstanceOf(Error)
    expect((env as Error).message).toContain('SESSION_SECRET is required when CLUSTER_URL is set')
  })

  it('names each bad value with a clear message', () => {
    const env = parseEnv({
      PORT: 'abc',
      CLUSTER_URL: 'cluster',
      SESSION_SECRET: 'x'.repeat(20),
      ALLOW_EMBEDDING: 'maybe',
      MAX_CONCURRENT_REQUESTS: '-1',
    })
    expect(env).toBeInstanceOf(Error)
    const message = (env as Error).message
    expect(message).toContain('PORT must be a port number (got "abc")')
    expect(message).toContain('CLUSTER_URL must be an http(s) origin')
    expect(message).toContain('ALLOW_EMBEDDING must be true or false (got "maybe")')
    expect(message).toContain('MAX_CONCURRENT_REQUESTS must be 0 (no limit) or more (got "-1")')
    expect((parseEnv({ MAX_CONCURRENT_REQUESTS: '2.5' }) as Error).message).toContain(
      'MAX_CONCURRENT_REQUESTS must be a whole number (0: no limit)',
    )
  })

  it('reads a full configuration', () => {
    const env = parseEnv({
      PORT: '8080',
      CLUSTER_URL: 'https://cluster.example.com/',
      SESSION_SECRET: 's'.repeat(32),
      ALLOW_EMBEDDING: 'true',
      SUPPORT_EMAIL: 'ops@example.com',
      MAX_CONCURRENT_REQUESTS: '24',
    })
    expect(env).toMatchObject({
      MAX_CONCURRENT_REQUESTS: 24,
      PORT: 8080,
      CLUSTER_URL: 'https://cluster.example.com',
      ALLOW_EMBEDDING: true,
      SUPPORT_EMAIL: 'ops@example.com',
    })
  })
})

describe('getEnv', () => {
  it('reads the environment on every call until the server settles it, then answers from what it read', () => {
    const before = process.env.SUPPORT_EMAIL
    try {
      process.env.SUPPORT_EMAIL = 'first@example.com'
      expect(getEnv().SUPPORT_EMAIL).toBe('first@example.com')
      process.env.SUPPORT_EMAIL = 'second@example.com'
      expect(getEnv().SUPPORT_EMAIL).toBe('second@example.com')
      settleEnv()
      expect(getEnv().SUPPORT_EMAIL).toBe('second@example.com')
      process.env.SUPPORT_EMAIL = 'third@example.com'
      expect(getEnv().SUPPORT_EMAIL).toBe('second@example.com')
    } finally {
      delete (globalThis as Record<symbol, unknown>)[Symbol.for('cluster-console.env-settled')]
      if (before === undefined) delete process.env.SUPPORT_EMAIL
      else process.env.SUPPORT_EMAIL = before
      // unsettled again, it reads again
      expect(getEnv()).toEqual(parseEnv(process.env))
    }
  })

  it('reads TRUST_PROXY as Express takes it: off unless set, true, a number of proxies or their addresses (issue 49)', () => {
    const trust = (value?: string) =>
      (parseEnv(value === undefined ? {} : { TRUST_PROXY: value }) as { TRUST_PROXY: unknown }).TRUST_PROXY
    expect(trust()).toBe(false)
    expect(trust('false')).toBe(false)
    expect(trust('0')).toBe(false)
    expect(trust('true')).toBe(true)
    expect(trust('2')).toBe(2)
    expect(trust('loopback, 10.0.0.0/8,192.168.1.4, fd00::/8')).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.4',
      'fd00::/8',
    ])
    for (const bad of ['yes', 'proxy.example', '10.0.0.0/33', '1.2.3.4/x'])
      expect((parseEnv({ TRUST_PROXY: bad }) as Error).message, bad).toContain(
        `TRUST_PROXY must be false, true, a number of proxies, or a comma-separated list of proxy addresses`,
      )
  })
})
