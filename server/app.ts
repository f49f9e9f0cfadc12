import { AsyncResource } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import compression from 'compression'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import { pino, type Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import { newNonce } from '../app/utils/csp-nonce.server'
import { withRequestContext, type RequestContext } from '../app/utils/request-context.server'
import { securityHeaders as headersFor } from '../app/utils/security-headers.server'
import type { TrustProxy } from '../app/utils/env.server'
import { guardRequestBody } from './request-body'

/**
 * Security headers on every answer (spec section 7: frames denied unless embedding is allowed) and
 * the CSP with a fresh nonce per request, kept in `res.locals.cspNonce` for the page's scripts.
 * `scriptNonces: false` (the dev server, whose Vite client injects inline scripts) leaves
 * script-src out.
 */
export function securityHeaders(allowEmbedding: boolean, { scriptNonces = true }: { scriptNonces?: boolean } = {}) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = scriptNonces ? newNonce() : null
    res.locals.cspNonce = nonce ?? undefined
    for (const [name, value] of headersFor(nonce, allowEmbedding)) res.setHeader(name, value)
    next()
  }
}

/** How long a request keeps its place in `admission` at most (decision 042). */
export const ADMISSION_LEASE_MS = 1000

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The origin a browser says a request came from: Origin, else the Referer's origin; null when it says neither. */
function claimedOrigin(req: Request): string | null {
  const origin = req.get('origin')
  if (origin && origin !== 'null') return origin
  if (origin === 'null') return 'null'
  const referer = req.get('referer')
  if (!referer) return null
  try {
    return new URL(referer).origin
  } catch {
    return 'null'
  }
}

/** The headers a proxy sets about the client and the address it reached: believed only from a trusted proxy. */
const FORWARDED_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'forwarded',
]

/**
 * Drops every X-Forwarded-* header (and Forwarded) of a request whose peer is not a trusted proxy
 * (TRUST_PROXY, Express's `trust proxy`), so nothing after this (the origin check, the Secure
 * cookie, the URL Remix sees, the client address) believes a client about itself (issue 49).
 */
export function untrustedForwardedHeaders() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const isTrusted = req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean
    if (!isTrusted(req.socket.remoteAddress, 0)) for (const name of FORWARDED_HEADERS) delete req.headers[name]
    next()
  }
}

/**
 * The origin the user reached: the scheme and host of this connection, or those a trusted proxy
 * forwarded (X-Forwarded-Proto, X-Forwarded-Host: `untrustedForwardedHeaders` drops them
 * otherwise). Null when the Host is missing or not a host.
 */
export function reachedOrigin(req: Request): string | null {
  const first = (value: string | undefined) => value?.split(',')[0]!.trim() || undefined
  const isTls = (req.socket as { encrypted?: boolean }).encrypted === true
  const scheme = (first(req.get('x-forwarded-proto')) ?? (isTls ? 'https' : 'http')).toLowerCase()
  const host = first(req.get('x-forwarded-host')) ?? req.get('host')
  if (!host || (scheme !== 'http' && scheme !== 'https')) return null
  try {
    const url = new URL(`${scheme}://${host}`)
    // a host only: no user, path, query or fragment smuggled into it
    const isHostOnly =
      !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash && !/[/?#@\\]/.test(host)
    return isHostOnly ? url.origin : null
  } catch {
    return null
  }
}

/**
 * CSRF beyond SameSite: a state-changing request (POST, PUT, PATCH, DELETE) whose browser-stated
 * origin is not the one the user reached (scheme and host: `reachedOrigin`) is refused with 403 and
 * a page that says why, before it reaches an action. A request that states no origin at all (curl,
 * scripts, tests) is not a browser's cross-site request and passes; the session cookie is
 * SameSite=Strict besides.
 */
export function sameOriginWrites(basePath = '', logger?: Logger) {
  let hasWarnedOfProxy = false
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const origin = claimedOrigin(req)
    if (origin === null) return next()
    const reached = reachedOrigin(req)
    let claimed: URL | null = null
    try {
      claimed = origin === 'null' ? null : new URL(origin)
    } catch {
      claimed = null
    }
    if (claimed && reached && claimed.origin === reached) return next()
    // The same host over https while this connection is http: a TLS proxy in front that TRUST_PROXY does not name.
    if (!hasWarnedOfProxy && claimed?.protocol === 'https:' && reached === `http://${claimed.host}`) {
      hasWarnedOfProxy = true
      logger?.warn(
        `A write from ${claimed.origin} was refused: it reached the console over http. Behind a ` +
          `proxy that serves https, set TRUST_PROXY (README, Configuration).`,
      )
    }
    res
      .status(403)
      .type('html')
      .setHeader('Cache-Control', 'no-store')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused · Cluster Console</title></head>' +
          '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">' +
          '<h1>Request refused</h1><p>This change was sent from another site, so the console did not make it. ' +
          `If you meant to make it, open the console and send the form from there.</p><p><a ` +
          `href="${basePath}/">Go to the console</a></p></body></html>`,
      )
  }
}

/**
 * The health checks and the fingerprinted files, at the root or under `basePath`: not logged, and
 * never waiting in admission's line (they cost next to nothing, and a supervisor must see a busy
 * process as alive).
 */
function isHousekeeping(path: string, basePath: string): boolean {
  const local = basePath && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path
  return local === '/healthz' || local === '/readyz' || local.startsWith('/assets/')
}

/** The console's logger: JSON lines on stdout, level from LOG_LEVEL (default info). */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'cluster-console' } })
}

/** A path as logged: the token of a reset or invite link (`/verifyaccount/<uuid>/<token>`) redacted. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0]!
  return path.replace(/(\/verifyaccount\/[^/]*\/)[^/]+/, '$1[redacted]')
}

/**
 * One JSON log line per request: request id (X-Request-Id when a proxy sent one, echoed back),
 * method, path, status, duration and the time spent waiting on the cluster. Never a header, a
 * cookie, a body or a query string (they can carry tokens, passwords and SQL), nor the token of a
 * reset or invite link in a path.
 */
export function requestLogs(logger: Logger, basePath = '') {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id']
      const id = typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID()
      res.setHeader('X-Request-Id', id)
      return id
    },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: loggedPath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customProps: (_req, res) => {
      const context = (res as unknown as { locals?: { requestContext?: RequestContext } }).locals?.requestContext
      if (!context) return {}
      const calls = {
        clusterMs: Math.round(context.clusterMs),
        clusterCalls: context.clusterCalls,
        ...(context.keptReads ? { keptReads: context.keptReads } : {}),
      }
      return context.clusterCallList ? { ...calls, clusterCallList: context.clusterCallList } : calls
    },
    autoLogging: { ignore: (req) => isHousekeeping(req.url ?? '', basePath) },
  })
}

/**
 * Admission in arrival order (decision 042): at most `limit` requests are worked on at once, later
 * ones wait in line. Under overload every request then waits about as long as the others, instead of
 * a hundred of them taking turns on one thread in small slices, where a page with more steps (more
 * cluster calls, a render) finishes last and the tail grows. A request gives its place back when its
 * answer is finished or the client went away, or after `leaseMs` at the latest, so a slow cluster
 * answer (a long query, a stream of rows) cannot hold the line. A request that leaves while waiting
 * loses its place. `limit` 0 turns it off.
 */
export function admission({
  limit,
  leaseMs,
  bypass,
}: {
  limit: number
  leaseMs: number
  bypass?: (req: Request) => boolean
}) {
  let active = 0
  const line: { start: () => void; isGone: boolean }[] = []
  const admitNext = () => {
    while (active < limit && line.length) {
      const next = line.shift()!
      if (next.isGone) continue
      active++
      next.start()
    }
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (limit <= 0 || bypass?.(req)) return next()
    let isReleased = false
    let lease: NodeJS.Timeout | undefined
    const release = () => {
      if (isReleased) return
      isReleased = true
      clearTimeout(lease)
      active--
      admitNext()
    }
    const start = () => {
      lease = setTimeout(release, leaseMs)
      lease.unref()
      res.once('finish', release)
      res.once('close', release)
      next()
    }
    if (active < limit) {
      active++
      return start()
    }
    // started later from another request's end: in this request's own async context (its log's cluster time)
    const place = { start: AsyncResource.bind(start), isGone: false }
    line.push(place)
    res.once('close', () => {
      place.isGone = true
    })
  }
}

/**
 * The Express app without the Remix handler: forwarded headers dropped unless from a trusted proxy,
 * request logs, compression, security headers, the CSRF origin check, the request body's type and
 * size (`guardRequestBody`), and the health checks: `/healthz` (the process answers) and `/readyz` (the
 * cluster answers too). The caller mounts static files and the Remix handler after it.
 */
export function createBaseApp({
  allowEmbedding,
  scriptNonces,
  logger,
  clusterUrl,
  basePath = '',
  maxConcurrent = 0,
  trustProxy = false,
}: {
  /** TRUST_PROXY: which peers are proxies whose X-Forwarded-* headers are believed (default: none). */
  trustProxy?: TrustProxy
  /**
   * Requests worked on at once, later ones wait in line (`admission`). The server passes
   * MAX_CONCURRENT_REQUESTS, 16 unless set (decisions 052, 053); here, unset or 0: no limit.
   */
  maxConcurrent?: number
  allowEmbedding: boolean
  /** The sub-path the console is served under ('' at the root): the health checks answer there too. */
  basePath?: string
  /** Nonces in the CSP's script-src (default); false for the dev server. */
  scriptNonces?: boolean
  logger?: Logger
  /** The cluster's origin for /readyz (ready when it answers at all); without it /readyz answers as /healthz does. */
  clusterUrl?: () => string | undefined
}): Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', trustProxy)
  app.use(untrustedForwardedHeaders())
  app.use((_req, res, next) => {
    res.locals.requestContext = withRequestContext(next)
  })
  if (logger) app.use(requestLogs(logger, basePath))
  // after the request log, so a logged duration includes the wait in line; not mounted when off
  if (maxConcurrent > 0)
    app.use(
      admission({
        limit: maxConcurrent,
        leaseMs: ADMISSION_LEASE_MS,
        bypass: (req) => isHousekeeping(req.path, basePath),
      }),
    )
  // gzip level 4: a quarter of the default level's (6) CPU time for pages 3-6% bigger (decision 033).
  app.use(compression({ level: 4 }))
  app.use(securityHeaders(allowEmbedding, { scriptNonces }))
  app.use(sameOriginWrites(basePath, logger))
  app.use(guardRequestBody(basePath))
  const at = (route: string) => (basePath ? [route, `${basePath}${route}`] : route)
  app.get(at('/healthz'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  app.get(at('/readyz'), async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const origin = clusterUrl?.()
    if (!origin) return void res.json({ status: 'ready' })
    try {
      // Any answer means the cluster is up: without credentials a cluster may answer 401 (the local
      // one does), and an orchestrator waiting for readiness must still send traffic (issue 37).
      // Only no answer, or none within 3 s, is not ready.
      const answer = await fetch(`${origin}/version`, { signal: AbortSignal.timeout(3000) })
      const text = (await answer.text()).trim()
      res.json(answer.ok ? { status: 'ready', cluster: text } : { status: 'ready', clusterStatus: answer.status })
    } catch (error) {
      res.status(503).json({ status: 'unavailable', reason: error instanceof Error ? error.message : String(error) })
    }
  })
  return app
}

/**
 * Stops taking new connections and resolves once the requests in flight have finished, or after
 * `graceMs`, when the connections still open are closed.
 */
export function closeGracefully(server: Server, graceMs = 5000): Promise<void> {
  const force = setTimeout(() => server.closeAllConnections(), graceMs)
  force.unref()
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  return closed.finally(() => clearTimeout(force))
}
