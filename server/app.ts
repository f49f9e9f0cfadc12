import compression from 'compression'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'

/** Security headers on every answer (spec section 7: frames denied unless embedding is allowed). */
export function securityHeaders(allowEmbedding: boolean) {
  return (_req: Request, res: Response, next: NextFunction) => {
    if (!allowEmbedding) {
      res.setHeader('X-Frame-Options', 'DENY')
      res.setHeader('Content-Security-Policy', "frame-ancestors 'none'")
    }
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    next()
  }
}

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

/**
 * CSRF beyond SameSite: a state-changing request (POST, PUT, PATCH, DELETE) whose browser-stated
 * origin is another site's is refused with 403 and a page that says why, before it reaches an
 * action. A request that states no origin at all (curl, scripts, tests) is not a browser's
 * cross-site request and passes; the session cookie is SameSite=Strict besides. The host compared
 * is the one the user reached (X-Forwarded-Host behind a proxy, as `trust proxy` is set).
 */
export function sameOriginWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const origin = claimedOrigin(req)
    if (origin === null) return next()
    const host = (req.get('x-forwarded-host') ?? req.get('host') ?? '').split(',')[0]!.trim()
    let isSameSite = false
    try {
      isSameSite = origin !== 'null' && new URL(origin).host === host
    } catch {
      isSameSite = false
    }
    if (isSameSite) return next()
    res
      .status(403)
      .type('html')
      .setHeader('Cache-Control', 'no-store')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused · Cluster Console</title></head>' +
          '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">' +
          '<h1>Request refused</h1><p>This change was sent from another site, so the console did not make it. ' +
          'If you meant to make it, open the console and send the form from there.</p><p><a href="/">Go to the console</a></p></body></html>',
      )
  }
}

/**
 * The Express app without the Remix handler: compression, security headers and the health check.
 * The caller mounts static files and the Remix handler after it.
 */
export function createBaseApp({ allowEmbedding }: { allowEmbedding: boolean }): Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', true)
  app.use(compression())
  app.use(securityHeaders(allowEmbedding))
  app.use(sameOriginWrites())
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  return app
}
