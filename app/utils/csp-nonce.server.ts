import { randomFillSync } from 'node:crypto'

/*
 * CSP nonces, 16 random bytes each, cut from a pool filled 4 KB at a time: one system call for 256
 * nonces instead of one per page (`randomBytes` was 0.6% of the console's thread under load). The
 * bytes come from the same CSPRNG and each is used once.
 */
const POOL_BYTES = 4096
const NONCE_BYTES = 16
let pool = Buffer.alloc(0)
let offset = 0

/** A fresh nonce for one answer, base64. */
export function newNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES))
    offset = 0
  }
  const nonce = pool.toString('base64', offset, offset + NONCE_BYTES)
  offset += NONCE_BYTES
  return nonce
}
