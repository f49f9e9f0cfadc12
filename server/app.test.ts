import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createBaseApp } from './app'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function serve(allowEmbedding: boolean): Promise<string> {
  const app = createBaseApp({ allowEmbedding })
  app.get('/page', (_req, res) => {
    res.send('<p>hello</p>'.repeat(200))
  })
  return new Promise((resolve) => {
    server = app.listen(0, '127.0.0.1', () => {
      const address = server!.address()
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
    })
  })
}

describe('console server', () => {
  it('answers the health check', async () => {
    const base = await serve(false)
    const response = await fetch(`${base}/healthz`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('denies frames and sets the other security headers by default', async () => {
    const base = await serve(false)
    const response = await fetch(`${base}/page`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('x-powered-by')).toBeNull()
    expect(response.headers.get('content-encoding')).toBe('gzip')
  })

  it('allows frames when embedding is allowed', async () => {
    const base = await serve(true)
    const response = await fetch(`${base}/page`)
    expect(response.headers.get('x-frame-options')).toBeNull()
    expect(response.headers.get('content-security-policy')).toBeNull()
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
