import crypto from 'node:crypto'
import { unauthorized } from './http'
import type { ClusterRequest } from './node-http'

/** Signed bearer tokens (HS256 JWTs) and scrypt password hashes. */

const b64url = (input: Buffer | string) => Buffer.from(input).toString('base64url')

export interface TokenClaims {
  sub: string
  iat: number
  exp: number
  iss: string
  typ: 'user' | 'service_account'
  jti: string
  /** A user token: the user's password_version when it was signed (see access.ts). */
  pwv?: number
}

export function signToken(secret: string, claims: Omit<TokenClaims, 'iat' | 'jti' | 'iss'> & { iss?: string }): string {
  const body: TokenClaims = {
    iss: 'local-cluster',
    ...claims,
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
  }
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const payload = b64url(JSON.stringify(body))
  const sig = crypto.createHmac('sha256', secret).update(`${head}.${payload}`).digest('base64url')
  return `${head}.${payload}.${sig}`
}

/**
 * Tokens whose signature has been checked, with their claims, by secret and token: a client sends
 * the same token with every call, and its HMAC and JSON never change. Expiry is checked on every
 * call. Bounded: emptied when full.
 */
const verified = new Map<string, TokenClaims>()

/** Returns the claims of a valid, unexpired token; throws a 401 HttpError otherwise. */
export function verifyToken(secret: string, token: string): TokenClaims {
  const key = `${secret}\u0000${token}`
  let claims = verified.get(key)
  if (!claims) {
    claims = checkSignature(secret, token)
    if (verified.size >= 10_000) verified.clear()
    verified.set(key, claims)
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) throw unauthorized('Token is expired')
  return { ...claims }
}

function checkSignature(secret: string, token: string): TokenClaims {
  const parts = token.split('.')
  if (parts.length !== 3) throw unauthorized('Given token not valid for any token type')
  const expected = crypto.createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest()
  const actual = Buffer.from(parts[2], 'base64url')
  if (actual.length !== expected.length || !crypto.timingSafeEqual(actual, expected)) {
    throw unauthorized('Given token not valid for any token type')
  }
  let claims: TokenClaims
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
  } catch {
    throw unauthorized('Given token not valid for any token type')
  }
  if (!claims || typeof claims !== 'object') throw unauthorized('Given token not valid for any token type')
  return claims
}

/*
 * Passwords are hashed with scrypt (N 16384, r 8: about 16 MB and 50 ms each). The hashing runs on
 * libuv's thread pool, never on the event loop (issue 49: 40 guesses in parallel had stalled every
 * config call for seconds), and at most SCRYPT_AT_ONCE at a time: the engine's sessions use the same
 * pool, so a flood of logins waits for its turn instead of taking the threads the queries need.
 */
const SCRYPT = { N: 16384, r: 8, p: 1 } as const
const SCRYPT_AT_ONCE = 2
let scrypting = 0
const waiting: (() => void)[] = []

async function scrypt(password: string, salt: Buffer, length: number, params: crypto.ScryptOptions): Promise<Buffer> {
  while (scrypting >= SCRYPT_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve))
  scrypting++
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      crypto.scrypt(password, salt, length, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
        error ? reject(error) : resolve(key),
      ),
    )
  } finally {
    scrypting--
    waiting.shift()?.()
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await scrypt(password, salt, 32, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

/**
 * Whether `password` is the one `stored` was made from. `stored` undefined (an unknown account, or
 * one without a password) is checked against a hash of nothing anyone knows, so an unknown email
 * costs the same time as a wrong password (issue 49: known ~100 ms, unknown ~35 ms told them apart).
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? (await unknownAccountHash())).split('$')
  if (scheme !== 'scrypt') return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  })
  return crypto.timingSafeEqual(actual, expected) && stored !== undefined
}

let unknownHash: Promise<string> | undefined
const unknownAccountHash = () => (unknownHash ??= hashPassword(crypto.randomBytes(24).toString('base64url')))

/**
 * Reads `Authorization: Bearer <token>` or Basic user:password. On the query interface (`/query`
 * and `/`) also the engine's other ways of passing a user: `X-ClickHouse-User`/`X-ClickHouse-Key`
 * headers and `user`/`password` URL parameters. A token may come as a Basic password with the user
 * `__api_token__` (ClickHouse clients) or `bearer` (hdxcli's `logs` through clickhouse-connect).
 */
export function readCredentials(request: ClusterRequest): {
  bearer?: string
  basic?: { username: string; password: string }
} {
  const header = request.headers.get('authorization') ?? ''
  const [scheme, value] = header.split(/\s+/, 2)
  let basic: { username: string; password: string } | undefined
  if (/^bearer$/i.test(scheme ?? '') && value) return { bearer: value }
  if (/^basic$/i.test(scheme ?? '') && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    const i = decoded.indexOf(':')
    if (i > 0) basic = { username: decoded.slice(0, i), password: decoded.slice(i + 1) }
  } else if (!header) {
    const url = new URL(request.url)
    if (url.pathname === '/' || /^\/query\/?$/.test(url.pathname)) {
      const username = request.headers.get('x-clickhouse-user') ?? url.searchParams.get('user')
      const password = request.headers.get('x-clickhouse-key') ?? url.searchParams.get('password')
      if (username) basic = { username, password: password ?? '' }
    }
  }
  if (!basic) return {}
  if (/^(__api_token__|bearer)$/i.test(basic.username)) return { bearer: basic.password }
  return { basic }
}
