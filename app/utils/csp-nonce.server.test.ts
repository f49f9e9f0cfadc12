import { describe, expect, it } from 'vitest'
import { newNonce } from './csp-nonce.server'

describe('newNonce', () => {
  it('gives 16 random bytes in base64, never the same twice across many pool refills', () => {
    const seen = new Set<string>()
    for (let index = 0; index < 2000; index++) {
      const nonce = newNonce()
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
      seen.add(nonce)
    }
    expect(seen.size).toBe(2000)
  })
})
