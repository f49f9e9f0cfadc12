import { request, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { recordClusterCall } from '../app/utils/request-context.server'
import { AsyncLocalStorage } from 'node:async_hooks'
import express from 'express'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { admission, closeGracefully, createBaseApp, loggedPath } from './app'
import { FORM_LIMIT, PUBLIC_FORM_LIMIT, UPLOAD_LIMIT, bodyLimitFor, multipartValidator } from './request-body'
import { createRemixRequest } from './remix-handler'

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
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          },
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

    it('lets the same origin and a client that states no origin through', async () => {
      const base = await serve(false)
      expect((await postWith(base, { Origin: base })).body).toBe('changed')
      expect((await postWith(base, { Referer: `${base}/data/new-table` })).body).toBe('changed')
      expect((await postWith(base, {})).body).toBe('changed')
    })

    it('refuses the same host over another scheme, and an X-Forwarded-Host or -Proto no trusted proxy sent (issue 49)', async () => {
      const base = await serve(false)
      const host = new URL(base).host
      const attempts: Record<string, string>[] = [
        { Origin: `https://${host}` },
        { Referer: `https://${host}/data/new-table` },
        // an attacker's page on evil.example, its request sent with the headers a proxy would set
        { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
        { Origin: `https://${host}`, 'X-Forwarded-Proto': 'https' },
      ]
      for (const headers of attempts) {
        const answer = await postWith(base, headers)
        expect(answer.status, JSON.stringify(headers)).toBe(403)
        expect(answer.body).not.toContain('changed')
      }
    })

    it('believes X-Forwarded-Host and -Proto from a proxy TRUST_PROXY names, scheme and host compared', async () => {
      for (const trustProxy of [true, ['loopback'], 1] as const) {
        const base = await serve(false, { trustProxy: trustProxy as never })
        const proxied = { 'X-Forwarded-Host': 'console.example', 'X-Forwarded-Proto': 'https' }
        expect((await postWith(base, { ...proxied, Origin: 'https://console.example' })).body).toBe('changed')
        expect((await postWith(base, { ...proxied, Origin: 'http://console.example' })).status).toBe(403)
        expect((await postWith(base, { ...proxied, Origin: 'https://evil.example' })).status).toBe(403)
        server!.closeAllConnections()
        await new Promise<void>((resolve) => server!.close(() => resolve()))
      }
      // a list that does not name this peer: not a proxy
      const base = await serve(false, { trustProxy: ['10.0.0.0/8'] })
      const answer = await postWith(base, {
        'X-Forwarded-Host': 'console.example',
        'X-Forwarded-Proto': 'https',
        Origin: 'https://console.example',
      })
      expect(answer.status).toBe(403)
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

/** Sends one raw request and resolves to what came back (the body unread when the server answered first). */
function rawRequest(
  base: string,
  { method = 'POST', path = '/login', headers = {}, body = [] as (string | Buffer)[], keepOpen = false } = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }))
    })
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? null : reject(error),
    )
    req.flushHeaders()
    for (const part of body) req.write(part)
    if (!keepOpen) req.end()
  })
}

describe('request bodies (issue 49)', () => {
  /** The base app with an action that reads its form as Remix does (the checked body), answering what it read. */
  async function serveForms(options: Omit<Parameters<typeof createBaseApp>[0], 'allowEmbedding'> = {}) {
    const app = createBaseApp({ allowEmbedding: false, ...options })
    const reads: string[] = []
    app.post(/.*/, async (req, res) => {
      try {
        const form = await createRemixRequest(req, res).formData()
        reads.push('read')
        res.send(`read ${[...form.keys()].join(',')}`)
      } catch (error) {
        reads.push('failed')
        if (!res.locals.isBodyRefused) res.status(500).send(`failed: ${String(error)}`)
      }
    })
    return { base: await listen(app), reads }
  }

  it('answers 415 with a clear page for a body that is not a form, before any action', async () => {
    const { base, reads } = await serveForms()
    for (const [type, body] of [
      ['application/json', '{"email":"a@b.test","password":"x"}'],
      ['text/plain', 'email=a'],
      ['application/xml', '<login/>'],
      [undefined, 'email=a'],
    ] as const) {
      const answer = await rawRequest(base, {
        headers: { ...(type ? { 'Content-Type': type } : {}), Accept: 'text/html' },
        body: [body],
      })
      expect(answer.status, String(type)).toBe(415)
      expect(answer.headers['content-type']).toMatch(/^text\/html/)
      expect(answer.body).toContain('Not a form the console reads')
      expect(answer.body).toContain('application/x-www-form-urlencoded or multipart/form-data')
    }
    // another method that changes things, and a path of any action
    const put = await rawRequest(base, {
      method: 'PUT',
      path: '/data/new-table',
      headers: { 'Content-Type': 'application/json' },
      body: ['{}'],
    })
    expect(put.status).toBe(415)
    expect(reads).toEqual([])
  })

  it("answers 413 from the Content-Length, without reading the body, past the route's limit", async () => {
    const { base, reads } = await serveForms()
    // 25 MB announced, 1 KB sent: the answer comes without waiting for the rest
    const answer = await rawRequest(base, {
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(25 * 1024 * 1024),
        Accept: 'text/html',
      },
      body: ['email=a%40b.test&password=', 'a'.repeat(1024)],
      keepOpen: true,
    })
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(answer.body).toContain('The form is too big')
    expect(answer.body).toContain('at most 64 KB')
    expect(reads).toEqual([])
  })

  it('stops reading a body without Content-Length at the limit: 413, and the action reads nothing', async () => {
    const { base, reads } = await serveForms()
    const chunk = 'a'.repeat(16 * 1024)
    const answer = await rawRequest(base, {
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Transfer-Encoding': 'chunked',
        Accept: 'text/html',
      },
      body: ['password=', ...Array.from({ length: 5 }, () => chunk)],
      keepOpen: true,
    })
    expect(answer.status).toBe(413)
    expect(answer.body).toContain('The form is too big')
    expect(reads).toEqual(['failed'])
  })

  it("answers a page's scripts (single fetch, /x.data) with the route error they show, not a page", async () => {
    const { base } = await serveForms()
    const answer = await rawRequest(base, {
      path: '/login.data',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(PUBLIC_FORM_LIMIT + 1) },
      keepOpen: true,
    })
    expect(answer.status).toBe(413)
    expect(answer.headers['content-type']).toMatch(/^text\/x-script/)
    expect(answer.body).toContain('ErrorResponse')
    expect(answer.body).toContain('This form is too big for the console')
  })

  it('answers 400 for a multipart body without a boundary, broken, or cut short, and urlencoding that is not UTF-8', async () => {
    const { base, reads } = await serveForms()
    const multipart = (body: string, type = 'multipart/form-data; boundary=abc') =>
      rawRequest(base, {
        path: '/data/new-table',
        headers: { 'Content-Type': type, Accept: 'text/html' },
        body: [body],
      })
    const part = '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n'
    for (const [label, answer] of [
      ['no boundary', await multipart(`${part}--abc--\r\n`, 'multipart/form-data')],
      ['garbage', await multipart('garbage')],
      ['no closing boundary', await multipart(part)],
      ['no Content-Disposition', await multipart('--abc\r\nContent-Type: text/plain\r\n\r\nx\r\n--abc--\r\n')],
      [
        'not UTF-8',
        await rawRequest(base, {
          path: '/data/new-table',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
          body: ['name=%E0%A4'],
        }),
      ],
    ] as const) {
      expect(answer.status, label).toBe(400)
      expect(answer.body, label).toContain('The form could not be read')
    }
    expect(reads.filter((read) => read === 'read')).toEqual([])
    // well-formed ones are read as before
    expect((await multipart(`${part}--abc--\r\n`)).body).toBe('read a')
    const ok = await rawRequest(base, {
      path: '/data/new-table',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: ['name=%C3%A9t%C3%A9&x=a%zz+b'],
    })
    expect(ok.body).toBe('read name,x')
  })

  it('a body cut before its Content-Length is refused, not read as a whole form', async () => {
    const { base, reads } = await serveForms()
    const url = new URL(base)
    await new Promise<void>((resolve) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: '/data/new-table',
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '100' },
      })
      req.on('error', () => resolve())
      req.write('name=half')
      setTimeout(() => {
        req.destroy()
        resolve()
      }, 100)
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(reads).not.toContain('read')
  })

  it('gives each route its limit: sign-in forms 64 KB, forms 4 MB, uploads the file limit and 1 MB, under a base path too', () => {
    expect(bodyLimitFor('/login')).toBe(PUBLIC_FORM_LIMIT)
    expect(bodyLimitFor('/login.data')).toBe(PUBLIC_FORM_LIMIT)
    expect(bodyLimitFor('/console/password-reset', '/console')).toBe(PUBLIC_FORM_LIMIT)
    expect(bodyLimitFor('/verifyaccount/abc/def')).toBe(PUBLIC_FORM_LIMIT)
    expect(bodyLimitFor('/data/new-transform')).toBe(FORM_LIMIT)
    expect(bodyLimitFor('/result.data')).toBe(FORM_LIMIT)
    expect(bodyLimitFor('/data/files/new-file')).toBe(UPLOAD_LIMIT)
    expect(bodyLimitFor('/console/data/files/p1/a%20b.csv/update-file.data', '/console')).toBe(UPLOAD_LIMIT)
    expect(bodyLimitFor('/resources/dictionary-file-upload')).toBe(UPLOAD_LIMIT)
    expect(UPLOAD_LIMIT).toBe(201 * 1024 * 1024)
  })

  it('names as upload routes exactly the routes that read an upload (readMultipart)', () => {
    const routes = readdirSync('app/routes', { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !/(^|\/)__/.test(file) && !/\.test\./.test(file),
    )
    const readers = ['__file-upload.server', '__dictionary-editor.server']
    const uploads = routes.filter((file) => {
      const text = readFileSync(path.join('app/routes', file), 'utf8')
      return readers.some((reader) => text.includes(`/${reader}'`)) && /export (async function|const) action/.test(text)
    })
    expect(uploads.length).toBeGreaterThanOrEqual(5)
    for (const file of uploads) {
      // remix-flat-routes: `+` folders and `_` layouts are not in the URL, `.` is `/`, `$x` a segment
      const url = `/${file
        .replace(/\.tsx?$/, '')
        .split('/')
        .map((part) => part.replace(/\+$/, ''))
        .filter((part) => !part.startsWith('_'))
        .join('.')}`
        .replace(/\./g, '/')
        .replace(/\$\w+/g, 'x')
      expect(bodyLimitFor(url), `${file} (${url})`).toBe(UPLOAD_LIMIT)
    }
    expect(bodyLimitFor('/data/new-transform')).not.toBe(UPLOAD_LIMIT)
  })

  it('checks multipart framing across chunk boundaries', () => {
    const body = Buffer.from(
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\n\r\n' +
        'a,b\r\n--b0undar not yet\r\n' +
        '\r\n--b0undary\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b0undary--\r\n',
    )
    for (const size of [1, 2, 3, 7, 64, body.length]) {
      const validator = multipartValidator('b0undary')
      let ok = true
      for (let i = 0; i < body.length; i += size) ok &&= validator.write(body.subarray(i, i + size))
      expect(ok && validator.end(), `chunks of ${size}`).toBe(true)
    }
  })
})

describe('forwarded headers (TRUST_PROXY, issue 49)', () => {
  async function serveEcho(trustProxy?: Parameters<typeof createBaseApp>[0]['trustProxy']) {
    const app = createBaseApp({ allowEmbedding: false, trustProxy })
    app.get('/echo', (req, res) => {
      res.json({
        ip: req.ip,
        forwardedFor: req.get('x-forwarded-for') ?? null,
        host: req.get('x-forwarded-host') ?? null,
        protocol: req.protocol,
      })
    })
    return listen(app)
  }
  const spoofed = { 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }

  it('drops them when no proxy is trusted (the default): the client address is the peer', async () => {
    const base = await serveEcho()
    const echo = (await (await fetch(`${base}/echo`, { headers: spoofed })).json()) as Record<string, unknown>
    expect(echo).toEqual({ ip: '127.0.0.1', forwardedFor: null, host: null, protocol: 'http' })
  })

  it('believes them from a trusted proxy', async () => {
    const base = await serveEcho(['loopback'])
    const echo = (await (await fetch(`${base}/echo`, { headers: spoofed })).json()) as Record<string, unknown>
    expect(echo).toEqual({ ip: '203.0.113.7', forwardedFor: '203.0.113.7', host: 'evil.example', protocol: 'https' })
  })
})

describe('request log paths (issue 49)', () => {
  it('redacts the token of a reset or invite link', async () => {
    expect(loggedPath('/verifyaccount/YWJj/c3-secret-token?x=1')).toBe('/verifyaccount/YWJj/[redacted]')
    expect(loggedPath('/console/verifyaccount/YWJj/c3-secret-token.data')).toBe(
      '/console/verifyaccount/YWJj/[redacted]',
    )
    expect(loggedPath('/data/tables')).toBe('/data/tables')
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const app = createBaseApp({ allowEmbedding: false, logger: pino({ level: 'info' }, sink) })
    app.get(/.*/, (_req, res) => void res.send('ok'))
    const base = await listen(app)
    await fetch(`${base}/verifyaccount/NGQ1Yy05/5f1-a-reset-token-9c2`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lines.join('')).toContain('/verifyaccount/NGQ1Yy05/[redacted]')
    expect(lines.join('')).not.toContain('a-reset-token')
  })
})
