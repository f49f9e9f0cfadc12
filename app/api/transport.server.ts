import http from 'node:http'
import https from 'node:https'
import zlib from 'node:zlib'
import type { Readable } from 'node:stream'

/*
 * The wire under callCluster: one keep-alive agent per scheme and node:http, not fetch. A small
 * JSON call costs about half the CPU this way (144 against 292 µs measured in one process, decision
 * 044), and a page makes several. fetch stays for what needs a Web body: FormData uploads and the
 * streamed answers of `send`.
 */

/**
 * `timeout` is past any call's own time-out (the client's timer ends a call first), so it only
 * matters to idle sockets: with it set, Node's agent keeps an idle socket no longer than the
 * server's `Keep-Alive: timeout=N` says it will, instead of reusing one the server has closed.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 24 * 60 * 60 * 1000 }
const agents = {
  'http:': new http.Agent(AGENT_OPTIONS),
  'https:': new https.Agent(AGENT_OPTIONS),
}

/** Methods a reset on a reused keep-alive socket may be sent again for: the cluster never saw them. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/** Why an exchange failed, and whether the answer's head had arrived (`status` then holds it). */
export class TransportFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'aborted' | 'network',
    readonly afterHead: { status: number; statusText: string } | null,
    readonly abortReason?: unknown,
  ) {
    super(`cluster call failed: ${reason}${afterHead ? ` after HTTP ${afterHead.status}` : ''}`)
    this.name = 'TransportFailure'
  }
}

/**
 * `etag`: the answer's ETag header when it has one (a conditional read keeps it: decision 102);
 * `headers`: all of the answer's headers (a query's `x-hdx-query-stats`, say).
 */
export type Answer = {
  status: number
  statusText: string
  text: string
  etag?: string
  headers?: http.IncomingHttpHeaders
}

type ExchangeOptions = {
  timeoutMs: number
  /** The caller's signal (the console request going away). */
  signal?: AbortSignal
  /** Called once when the answer's head arrives (the cluster's time, for the request log). */
  onHead?: () => void
}

/**
 * Sends one request and reads the whole answer as text (gzip, deflate and br undone). Rejects with
 * TransportFailure: `timeout` after `timeoutMs` from the start, `aborted` when `signal` aborts,
 * `network` when the connection fails. A GET (or other idempotent call) whose reused keep-alive
 * socket was reset before any answer is sent once more on a fresh one.
 */
export function exchange(
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: ExchangeOptions,
): Promise<Answer> {
  const url = new URL(target)
  const agent = agents[url.protocol as keyof typeof agents]
  if (!agent) return Promise.reject(new TransportFailure('network', null))
  const { signal } = options
  if (signal?.aborted) return Promise.reject(new TransportFailure('aborted', null, signal.reason))
  const send = url.protocol === 'https:' ? https.request : http.request
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))

  return new Promise<Answer>((resolve, reject) => {
    let head: { status: number; statusText: string } | null = null
    let current: http.ClientRequest | undefined
    let settled = false
    const finish = (error: TransportFailure | null, answer?: Answer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (error) {
        current?.destroy()
        reject(error)
      } else resolve(answer!)
    }
    const timer = setTimeout(() => finish(new TransportFailure('timeout', head)), options.timeoutMs)
    const onAbort = () => finish(new TransportFailure('aborted', head, signal!.reason))
    signal?.addEventListener('abort', onAbort, { once: true })

    const attempt = (isRetry: boolean) => {
      const request = send(url, { method, headers, agent })
      current = request
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return
        if (
          !head &&
          !isRetry &&
          request.reusedSocket &&
          IDEMPOTENT.has(method) &&
          (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        ) {
          attempt(true)
          return
        }
        finish(new TransportFailure('network', head))
      })
      request.on('response', (response) => {
        if (settled) {
          response.resume()
          return
        }
        head = { status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' }
        options.onHead?.()
        const chunks: Buffer[] = []
        const decoded = decode(response)
        decoded.on('data', (chunk: Buffer) => chunks.push(chunk))
        const etag = response.headers.etag
        decoded.on('end', () =>
          finish(null, {
            ...head!,
            text: Buffer.concat(chunks).toString('utf8'),
            ...(etag ? { etag } : {}),
            headers: response.headers,
          }),
        )
        decoded.on('error', () => finish(new TransportFailure('network', head)))
        // A connection closed before the whole body came: 'close' without 'end'.
        response.on('close', () => {
          if (!response.complete) finish(new TransportFailure('network', head))
        })
      })
      request.end(body)
    }
    attempt(false)
  })
}

function decode(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null
  if (!decoder) return response
  response.on('error', (error) => decoder.destroy(error))
  return response.pipe(decoder)
}
