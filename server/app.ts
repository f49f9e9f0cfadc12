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
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  return app
}
