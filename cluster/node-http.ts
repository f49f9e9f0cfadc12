/**
 * The cluster over node:http without the Web `Request`/`Response` bridge on the hot path
 * (decision 054). A route reads its request through `ClusterRequest`, the part of the Web `Request`
 * the cluster uses, so the in-process handler still takes a real `Request` (tests, the seed) while
 * the server hands it a `NodeRequest` over the body it has already read: no body stream, no
 * second copy of the bytes. An answer made by `http.ts`'s helpers carries its bytes and headers
 * beside the `Response` (`replyOf`), and is written with one `res.end` (a list's kept parts corked
 * together: decision 090).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { replyOf } from './http'

/** What the cluster's routes read of a request: a Web `Request` is one. Headers are only looked up. */
export type ClusterRequest = Pick<
  Request,
  'method' | 'url' | 'signal' | 'text' | 'arrayBuffer' | 'formData' | 'json'
> & {
  headers: Pick<Headers, 'get'>
}

/** The headers node has already parsed, looked up as `Headers.get` does (names in any case; repeated values joined). */
class NodeHeaders implements Pick<Headers, 'get'> {
  constructor(
    private readonly parsed: IncomingHttpHeaders,
    private readonly extra: Record<string, string> = {},
  ) {}

  get(name: string): string | null {
    const key = name.toLowerCase()
    const value = this.extra[key] ?? this.parsed[key]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}

/** A request the node server has read whole: its body is the bytes, read without a stream. */
export class NodeRequest implements ClusterRequest {
  private readonly controller = new AbortController()

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Pick<Headers, 'get'>,
    /** the body, or undefined when there is none (GET, HEAD) */
    readonly raw: Buffer | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** The client went away before its answer was written (a running query stops). */
  abort() {
    this.controller.abort()
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const raw = this.raw ?? Buffer.alloc(0)
    return raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length) as ArrayBuffer
  }

  async text(): Promise<string> {
    return this.raw ? this.raw.toString('utf8') : ''
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }

  /** Multipart and URL-encoded bodies (dictionary uploads): parsed by undici, as a Request would. */
  async formData(): Promise<FormData> {
    return new Response((this.raw ?? null) as BodyInit | null, {
      headers: { 'content-type': this.headers.get('content-type') ?? '' },
    }).formData()
  }
}

/** A request's body as bytes: the node server's without a copy, else the Web request's. */
export async function bodyBytes(request: ClusterRequest): Promise<Buffer> {
  if (request instanceof NodeRequest) return request.raw ?? Buffer.alloc(0)
  return Buffer.from(await request.arrayBuffer())
}

/** A request's whole body, as one Buffer (the chunk itself when it came in one). */
export function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/**
 * The node:http listener for a fetch-style `handler`. An answer of `Response.error()` drops the
 * connection (the fault switch's "drop"); a handler that throws answers 500.
 */
export function nodeListener(handler: (request: ClusterRequest) => Promise<Response>, fallbackHost: string) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = `http://${req.headers.host ?? fallbackHost}${req.url}`
      const method = req.method ?? 'GET'
      const hasBody = method !== 'GET' && method !== 'HEAD'
      // The body, read whole here: every handler reads it whole.
      let raw: Buffer | undefined
      if (hasBody || Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'])
        raw = await readWhole(req)
      // A GET with a body (auth_logs filters, as a real cluster takes them): a Web Request cannot
      // carry one, so it travels in a header the config API reads, as it does in process.
      const extra =
        !hasBody && raw?.length && raw.length < 64 * 1024 ? { 'x-cluster-get-body': raw.toString('base64') } : undefined
      const headers = new NodeHeaders(req.headers, extra)
      const request = new NodeRequest(method, url, headers, hasBody ? raw : undefined)
      // A client that goes away before the answer is written aborts the request (a query stops).
      res.on('close', () => {
        if (!res.writableFinished) request.abort()
      })
      const response = await handler(request)
      if (response.type === 'error') {
        req.socket.destroy()
        return
      }
      const reply = replyOf(response)
      if (reply) {
        res.writeHead(response.status, reply.headers)
        if (Array.isArray(reply.body)) {
          // a list's parts, written together (one writev of the kept bytes, no copy made here)
          res.cork()
          for (const part of reply.body) res.write(part)
          res.end() // uncorks: node itself sends no body to a HEAD
        } else res.end(reply.body) // node itself sends no body to a HEAD
        return
      }
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body)
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk)
      res.end()
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ detail: 'Internal server error.' }))
      console.error(error)
    }
  }
}
