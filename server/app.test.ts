import { request, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { recordClusterCall } from '../app/utils/request-context.server'
import { AsyncLocalStorage } from 'node:async_hooks'
import express from 'express'
import { admission, closeGracefully, createBaseApp } from './app'

let server: Server | undefined
/** Resolves when a request reaches /slow (a graceful stop must find it in flight, however busy the machine). */
let slowArrived: Promise<void> = Promise.resolve()
let markSlowArrived = () => {}
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function serve(
  allowEmbedding: boolean,
  options: Omit<Parameters<typeof createBaseApp>[0], 'allowEmbedding'> = {},
): Promise<string> {
  const app = createBaseApp({ allowEmbedding, ...options })
  app.get('/page', (_req, res) => {
    res.send('<p>hello</p>'.repeat(200))
  })
  app.get('/calls-cluster', async (_req, res) => {
    // What the cluster client does around each call, from inside an async continuation.
    await new Promise((resolve) => setTimeout(resolve, 5))
    recordClusterCall(12)
    recordClusterCall(30)
    res.send('ok')
  })
  app.get('/slow', async (_req, res) => {
    markSlowArrived()
    await new Promise((resolve) => setTimeout(resolve, 400))
    res.send('finished')
  })
  app.post('/login', (_req, res) => {
    res.send('changed')
  })
  return listen(app)
}

/** Serves `app` on a free loopback port (closed after each test); resolves to its origin. */
function listen(app: ReturnType<typeof express>): Promise<string> {
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
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='(;|$)/)
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    // a fresh nonce each answer
    const again = (await fetch(`${base}/page`)).headers.get('content-security-policy')
    expect(again?.match(/nonce-([^']+)/)?.[1]).not.toBe(csp.match(/nonce-([^']+)/)?.[1])
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('x-powered-by')).toBeNull()
    expect(response.headers.get('content-encoding')).toBe('gzip')
  })

  it('allows frames when embedding is allowed', async () => {
    const base = await serve(true)
    const response = await fetch(`${base}/page`)
    expect(response.headers.get('x-frame-options')).toBeNull()
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).not.toContain('frame-ancestors')
    expect(csp).toMatch(/script-src 'self' 'nonce-/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  describe('refuses a write from another site (CSRF beyond SameSite)', () => {
    /** POSTs with exactly these headers (node:http sends what it is given, Origin included). */
    function postWith(base: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
      const url = new URL(`${base}/login`)
      return new Promise((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
          (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => (body += chunk))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
          },
        )
        req.on('error', reject)
        req.end('email=a')
      })
    }

    it('answers 403 with a page that says why for another origin, a foreign Referer or Origin: null', async () => {
      const base = await serve(false)
      const foreign: Record<string, string>[] = [
        { Origin: 'https://evil.example' },
        { Referer: 'https://evil.example/page' },
        { Origin: 'null' },
      ]
      for (const headers of foreign) {
        const answer = await postWith(base, headers)
        expect(answer.status).toBe(403)
        expect(answer.body).toContain('Request refused')
        expect(answer.body).not.toContain('changed')
      }
    })

    it('lets the same origin, a proxy-forwarded host and a client that states no origin through', async () => {
      const base = await serve(false)
      expect((await postWith(base, { Origin: base })).body).toBe('changed')
      expect((await postWith(base, { Referer: `${base}/data/new-table` })).body).toBe('changed')
      expect(
        (await postWith(base, { Origin: 'https://console.example', 'X-Forwarded-Host': 'console.example' })).body,
      ).toBe('changed')
      expect((await postWith(base, {})).body).toBe('changed')
    })
  })

  it('logs one JSON line per request with id, path, status, duration and cluster time, and never a header, cookie or query', async () => {
    const lines: Record<string, unknown>[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)))
        done()
      },
    })
    const base = await serve(false, { logger: pino({ level: 'info' }, sink) })
    const response = await fetch(`${base}/calls-cluster?sql=SELECT+secret`, {
      headers: { Cookie: 'cc_session=secret-cookie', Authorization: 'Bearer secret-token', 'X-Request-Id': 'abc-123' },
    })
    expect(response.headers.get('x-request-id')).toBe('abc-123')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const line = lines.find((entry) => (entry.req as { path?: string } | undefined)?.path === '/calls-cluster')
    expect(line).toMatchObject({
      req: { id: 'abc-123', method: 'GET', path: '/calls-cluster' },
      res: { status: 200 },
      clusterMs: 42,
      clusterCalls: 2,
    })
    expect(typeof line?.responseTime).toBe('number')
    const text = JSON.stringify(lines)
    for (const secret of ['secret-cookie', 'secret-token', 'SELECT', 'cookie', 'authorization'])
      expect(text).not.toContain(secret)
  })

  it('never logs a login password, in the body or the query string', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const base = await serve(false, { logger: pino({ level: 'info' }, sink) })
    const response = await fetch(`${base}/login?password=query-password-1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40b.test&password=body-password-1',
    })
    expect(response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lines.some((line) => line.includes('"/login"'))).toBe(true)
    for (const secret of ['query-password-1', 'body-password-1', 'password', 'a@b.test'])
      expect(lines.join('\n')).not.toContain(secret)
  })

  it('answers the health checks under a base path too (decision 023)', async () => {
    const base = await serve(false, { basePath: '/console' })
    for (const path of ['/healthz', '/console/healthz', '/readyz', '/console/readyz'])
      expect((await fetch(`${base}${path}`)).status, path).toBe(200)
  })

  it('/readyz says whether the cluster answers at all: any status is ready, no answer or a time-out is not (issue 37)', async () => {
    const cluster = createBaseApp({ allowEmbedding: false })
    let versionStatus = 200
    cluster.get('/version', (_req, res) => void res.status(versionStatus).send('v5.4.0\n'))
    const clusterServer = await new Promise<Server>((resolve) => {
      const listening = cluster.listen(0, '127.0.0.1', () => resolve(listening))
    })
    const address = clusterServer.address()
    const clusterOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const base = await serve(false, { clusterUrl: () => clusterOrigin })
    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', cluster: 'v5.4.0' })
    // without credentials a cluster may refuse the version: it is up all the same
    for (const status of [401, 403, 500]) {
      versionStatus = status
      const refused = await fetch(`${base}/readyz`)
      expect(refused.status, String(status)).toBe(200)
      expect(await refused.json()).toEqual({ status: 'ready', clusterStatus: status })
    }
    // The cluster stops answering.
    clusterServer.closeAllConnections()
    await new Promise<void>((resolve) => clusterServer.close(() => resolve()))
    const down = await fetch(`${base}/readyz`)
    expect(down.status).toBe(503)
    expect(await down.json()).toMatchObject({ status: 'unavailable' })
  })

  it('with MAX_CONCURRENT_REQUESTS set, the health checks (under a base path too) do not wait behind a request in progress', async () => {
    const base = await serve(false, { maxConcurrent: 1, basePath: '/console' })
    slowArrived = new Promise((resolve) => (markSlowArrived = resolve))
    let isSlowDone = false
    const slow = fetch(`${base}/slow`).then(async (response) => {
      isSlowDone = true
      return response.text()
    })
    await slowArrived
    for (const path of ['/healthz', '/console/healthz']) {
      expect((await fetch(`${base}${path}`)).status).toBe(200)
      expect(isSlowDone).toBe(false)
    }
    expect(await slow).toBe('finished')
  })

  it('a graceful stop lets a request already in flight finish, and refuses new connections', async () => {
    const base = await serve(false)
    slowArrived = new Promise((resolve) => (markSlowArrived = resolve))
    const slow = fetch(`${base}/slow`).then((response) => response.text())
    await slowArrived
    const stopped = closeGracefully(server!, 5000)
    expect(await slow).toBe('finished')
    await stopped
    await expect(fetch(`${base}/page`)).rejects.toThrow()
    server = undefined
  })
})

describe('admission in arrival order (decision 042)', () => {
  /** An app that records each request's arrival (before admission) and start (after it), and holds each answer until told. */
  async function held(options: Parameters<typeof admission>[0]) {
    const arrived: string[] = []
    const started: string[] = []
    const finish = new Map<string, () => void>()
    const app = express()
    // each request's own async context (as the request log's cluster time is kept)
    const context = new AsyncLocalStorage<string>()
    app.use((req, _res, next) => {
      arrived.push(req.path.slice(1))
      context.run(req.path.slice(1), next)
    })
    app.use(admission(options))
    app.get('/healthz', (_req, res) => void res.send('ok'))
    app.get('/:id', (req, res) => {
      started.push(req.params.id)
      // the answer is the context the handler ran in: a request started from the line keeps its own
      const own = context.getStore() ?? 'no context'
      finish.set(req.params.id, () => res.send(own))
    })
    return { base: await listen(app), arrived, started, finish }
  }
  async function until(check: () => boolean, what: string) {
    for (let waited = 0; !check(); waited += 10) {
      if (waited > 5000) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it('works on at most `limit` requests at once; the next one in line starts when one finishes', async () => {
    const { base, arrived, started, finish } = await held({ limit: 2, leaseMs: 60_000 })
    const answers: Promise<string>[] = []
    for (const id of ['a', 'b', 'c', 'd']) {
      answers.push(fetch(`${base}/${id}`).then((response) => response.text()))
      await until(() => arrived.includes(id), `${id} to arrive`)
    }
    await pause(100)
    expect(started).toEqual(['a', 'b'])
    finish.get('b')!()
    await until(() => started.length === 3, 'a third start')
    await pause(50)
    expect(started).toEqual(['a', 'b', 'c'])
    finish.get('a')!()
    await until(() => started.length === 4, 'a fourth start')
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    finish.get('c')!()
    finish.get('d')!()
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('lets what it is told to pass go first (the health checks)', async () => {
    const { base, arrived, finish } = await held({
      limit: 1,
      leaseMs: 60_000,
      bypass: (req) => req.path === '/healthz',
    })
    const a = fetch(`${base}/a`).then((response) => response.text())
    await until(() => arrived.includes('a'), 'a to arrive')
    const b = fetch(`${base}/b`).then((response) => response.text())
    await until(() => arrived.includes('b'), 'b to arrive')
    expect(await (await fetch(`${base}/healthz`)).text()).toBe('ok')
    finish.get('a')!()
    await until(() => finish.has('b'), 'b to start')
    finish.get('b')!()
    expect([await a, await b]).toEqual(['a', 'b'])
  })

  it('a request that takes longer than the lease gives its place to the next one', async () => {
    const { base, arrived, started, finish } = await held({ limit: 1, leaseMs: 200 })
    const a = fetch(`${base}/a`).then((response) => response.text())
    await until(() => started.includes('a'), 'a to start')
    const b = fetch(`${base}/b`).then((response) => response.text())
    await until(() => arrived.includes('b'), 'b to arrive')
    await until(() => started.includes('b'), 'b to start while a is still held')
    expect(finish.has('a')).toBe(true)
    finish.get('b')!()
    expect(await b).toBe('b')
    finish.get('a')!()
    expect(await a).toBe('a')
  })

  it('a request whose client left while it waited is not worked on', async () => {
    const { base, arrived, started, finish } = await held({ limit: 1, leaseMs: 60_000 })
    const a = fetch(`${base}/a`).then((response) => response.text())
    await until(() => started.includes('a'), 'a to start')
    const leaving = new AbortController()
    const b = fetch(`${base}/b`, { signal: leaving.signal }).catch(() => 'left')
    await until(() => arrived.includes('b'), 'b to arrive')
    leaving.abort()
    expect(await b).toBe('left')
    const c = fetch(`${base}/c`).then((response) => response.text())
    await until(() => arrived.includes('c'), 'c to arrive')
    await pause(50)
    finish.get('a')!()
    await until(() => started.includes('c'), 'c to start')
    expect(started).toEqual(['a', 'c'])
    finish.get('c')!()
    expect([await a, await c]).toEqual(['a', 'c'])
  })
})
