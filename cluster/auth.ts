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

export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16)
  const hash = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 })
  return `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt') return false
  const expected = Buffer.from(hash, 'base64')
  const actual = crypto.scryptSync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  })
  return crypto.timingSafeEqual(actual, expected)
}

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
