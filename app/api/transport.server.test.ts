import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import zlib from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { exchange, TransportFailure } from './transport.server'

// A real server on loopback: what the transport does with sockets (reuse, resets, broken bodies)
// cannot be seen through msw.
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void
let server: http.Server | undefined

async function serve(handler: Handler): Promise<{ base: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>()
  server = http.createServer(handler)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets }
}

afterEach(async () => {
  const closing = server
  server = undefined
  if (!closing?.listening) return
  closing.closeAllConnections()
  await new Promise((resolve) => closing.close(resolve))
})

async function failureOf(promise: Promise<unknown>): Promise<TransportFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(TransportFailure)
  return error as TransportFailure
}

const OPTIONS = { timeoutMs: 2000 }

describe('exchange', () => {
  it('sends the method, headers and body, reads the answer, and keeps the connection for the next call', async () => {
    const seen: string[] = []
    const { base } = await serve((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        seen.push(
          `${req.method} ${req.url} ${req.headers.authorization} ${req.headers['content-length']} ${body} ${req.socket.remotePort}`,
        )
        res.writeHead(201, 'Made', { 'content-type': 'application/json' }).end('{"ok":"é"}')
      })
    })
    const first = await exchange(
      'POST',
      `${base}/config/v1/x?a=1`,
      { authorization: 'Bearer t' },
      '{"name":"é"}',
      OPTIONS,
    )
    expect(first).toMatchObject({ status: 201, statusText: 'Made', text: '{"ok":"é"}' })
    expect(first.headers?.['content-type']).toBe('application/json')
    await exchange('POST', `${base}/config/v1/x?a=1`, { authorization: 'Bearer t' }, '{"name":"é"}', OPTIONS)
    const [one, two] = seen.map((line) => line.split(' '))
    expect(one!.slice(0, 5)).toEqual(['POST', '/config/v1/x?a=1', 'Bearer', 't', '13'])
    expect(seen[0]).toContain('{"name":"é"}')
    // the same client port: the keep-alive socket was reused
    expect(two!.at(-1)).toBe(one!.at(-1))
  })

  it('undoes gzip and br', async () => {
    const { base } = await serve((req, res) => {
      const encoding = req.url === '/gz' ? 'gzip' : 'br'
      const body = encoding === 'gzip' ? zlib.gzipSync('{"zipped":true}') : zlib.brotliCompressSync('{"zipped":true}')
      res.writeHead(200, { 'content-encoding': encoding }).end(body)
    })
    expect((await exchange('GET', `${base}/gz`, {}, undefined, OPTIONS)).text).toBe('{"zipped":true}')
    expect((await exchange('GET', `${base}/br`, {}, undefined, OPTIONS)).text).toBe('{"zipped":true}')
  })

  it('sends a GET again on a fresh socket when its reused keep-alive socket closes without an answer, but never a POST', async () => {
    // The keep-alive race: the server closes an idle socket just as the client sends on it. Here the
    // server closes every reused socket when the next request arrives, without answering it.
    const served: string[] = []
    const { base } = await serve((req, res) => {
      const socket = req.socket as Socket & { requests?: number }
      socket.requests = (socket.requests ?? 0) + 1
      if (socket.requests > 1) {
        served.push(`${req.method} dropped`)
        socket.destroy()
        return
      }
      served.push(`${req.method} answered`)
      req.resume()
      req.on('end', () => res.end('fine'))
    })
    await exchange('GET', `${base}/a`, {}, undefined, OPTIONS)
    expect((await exchange('GET', `${base}/a`, {}, undefined, OPTIONS)).text).toBe('fine')
    expect(served).toEqual(['GET answered', 'GET dropped', 'GET answered'])

    served.length = 0
    const failure = await failureOf(exchange('POST', `${base}/a`, {}, 'x', OPTIONS))
    expect(failure.reason).toBe('network')
    expect(served).toEqual(['POST dropped'])
  })

  it('fails as a time-out after timeoutMs, with no head', async () => {
    const { base } = await serve(() => {
      // never answers
    })
    const failure = await failureOf(exchange('GET', `${base}/slow`, {}, undefined, { timeoutMs: 50 }))
    expect(failure.reason).toBe('timeout')
    expect(failure.afterHead).toBeNull()
  })

  it('fails as network, with the head, when the body breaks off', async () => {
    const { base } = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '100' })
      res.write('{"part')
      setTimeout(() => res.socket?.destroy(), 10)
    })
    const failure = await failureOf(exchange('GET', `${base}/half`, {}, undefined, OPTIONS))
    expect(failure.reason).toBe('network')
    expect(failure.afterHead).toEqual({ status: 200, statusText: 'OK' })
  })

  it('fails as network when nothing listens', async () => {
    const { base } = await serve(() => undefined)
    await new Promise((resolve) => server!.close(resolve))
    const failure = await failureOf(exchange('GET', `${base}/gone`, {}, undefined, OPTIONS))
    expect(failure.reason).toBe('network')
    expect(failure.afterHead).toBeNull()
  })

  it("stops when the caller's signal aborts and hands back its reason", async () => {
    const { base } = await serve(() => undefined)
    const controller = new AbortController()
    const pending = exchange('GET', `${base}/slow`, {}, undefined, { ...OPTIONS, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('left the page')), 20)
    const failure = await failureOf(pending)
    expect(failure.reason).toBe('aborted')
    expect((failure.abortReason as Error).message).toBe('left the page')
  })
})
