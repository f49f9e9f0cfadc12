import { isIP } from 'node:net'
import { z } from 'zod'

const booleanString = z
  .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
  .optional()
  .transform((value) => value === 'true' || value === '1')

/** Express's names for address ranges in `trust proxy`. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An address, an address/prefix (CIDR) or one of Express's range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const family = isIP(address)
  if (!family || rest.length) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}

/**
 * Whether a proxy in front of the console may be believed about the client (X-Forwarded-For) and
 * the address the user reached (X-Forwarded-Host, X-Forwarded-Proto). Unset or false: no proxy,
 * every X-Forwarded-* header is dropped. true: any peer is a proxy. A whole number: that many proxies
 * in front. A list of addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`: the proxies'
 * addresses. The value Express's `trust proxy` takes (decision 094).
 */
export type TrustProxy = boolean | number | string[]

const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = (value ?? '').trim().toLowerCase()
    if (text === '' || text === 'false' || text === '0') return false
    if (text === 'true') return true
    if (/^\d+$/.test(text)) return Number(text)
    const entries = text.split(',').map((entry) => entry.trim())
    if (entries.every(isProxyAddress)) return entries
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, true, a number of proxies, or a comma-separated list of proxy addresses ' +
        '(IP, CIDR, loopback, linklocal, uniquelocal)',
    })
    return z.NEVER
  })

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int({ error: 'must be a port number' })
      .min(0, { error: 'must be between 0 and 65535' })
      .max(65535, { error: 'must be between 0 and 65535' })
      .default(3000),
    CLUSTER_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://cluster.example.com' })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    SESSION_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    ALLOW_EMBEDDING: booleanString,
    SUPPORT_EMAIL: z.email({ error: 'must be an email address' }).default('support@hydrolix.io'),
    SUPPORT_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .default('https://hydrolix.io/support/'),
    DOCS_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .transform((value) => value.replace(/\/+$/, ''))
      .default('https://docs.hydrolix.io'),
    // requests the server works on at once; more wait in line (server/app.ts `admission`, decisions 042, 052, 053)
    MAX_CONCURRENT_REQUESTS: z.coerce
      .number({ error: 'must be a whole number (0: no limit)' })
      .int({ error: 'must be a whole number (0: no limit)' })
      .min(0, { error: 'must be 0 (no limit) or more' })
      .max(100_000, { error: 'must be at most 100000' })
      .default(16),
    TRUST_PROXY: trustProxy,
    // the console's own credential for its store (decision 105): a service account's token, never sent to a browser
    CONSOLE_STORE_TOKEN: z
      .string()
      .trim()
      .min(20, { error: "must be a service account's token (POST /config/v1/service_accounts/{id}/tokens/)" })
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.CLUSTER_URL && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required when CLUSTER_URL is set (at least 16 random characters)',
      })
    }
  })

export type Env = z.infer<typeof EnvSchema>

/** Parses configuration from `source`; returns the values or an Error listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env | Error {
  // An empty variable means "unset", as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = EnvSchema.safeParse(cleaned)
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'configuration')
    const value = source[name]
    const shown =
      value === undefined || name === 'SESSION_SECRET' || name === 'CONSOLE_STORE_TOKEN' ? '' : ` (got "${value}")`
    return `  ${name} ${issue.message}${shown}`
  })
  return new Error(`Invalid configuration:\n${lines.join('\n')}`)
}

let cached: { source: string; env: Env; settled: boolean } | undefined

/**
 * Set by server/index.ts once it has set the environment up (the local cluster's URL, a session
 * secret): from then on getEnv answers from what it read, instead of reading eight variables again
 * on each of the ~30 calls a page makes. A global, because the server build has its own copy of this
 * module. Tests and `remix-serve` never set it, so they read on every call as before.
 */
const SETTLED = Symbol.for('cluster-console.env-settled')

export function settleEnv(): void {
  ;(globalThis as Record<symbol, unknown>)[SETTLED] = true
}

/** Returns the validated configuration from process.env; throws an Error naming each bad variable. */
export function getEnv(): Env {
  const settled = (globalThis as Record<symbol, unknown>)[SETTLED] === true
  if (settled && cached?.settled) return cached.env
  const key = [
    process.env.PORT,
    process.env.CLUSTER_URL,
    process.env.SESSION_SECRET,
    process.env.ALLOW_EMBEDDING,
    process.env.SUPPORT_EMAIL,
    process.env.DOCS_URL,
    process.env.SUPPORT_URL,
    process.env.NODE_ENV,
    process.env.TRUST_PROXY,
    process.env.CONSOLE_STORE_TOKEN,
  ].join('\u0000')
  if (cached?.source === key) {
    cached.settled = settled
    return cached.env
  }
  const env = parseEnv(process.env)
  if (env instanceof Error) throw env
  cached = { source: key, env, settled }
  return env
}

/** Returns the cluster's origin; throws when the server started without one. */
export function getClusterUrl(): string {
  const url = getEnv().CLUSTER_URL
  if (!url) throw new Error('CLUSTER_URL is not set: start the console with `npm start` or set CLUSTER_URL')
  return url
}
