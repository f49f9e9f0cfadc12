import type { IncomingHttpHeaders } from 'node:http'
import {
  createReadableStreamFromReadable,
  createRequestHandler as createRemixRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from '@remix-run/node'
import type { NextFunction, Request, Response } from 'express'
import { checkedBody, type BodyCheck } from './request-body'

/**
 * @remix-run/express's request handler, with the body an action reads checked as it streams
 * (`checkedBody`: size, type, cut short; decision 094). When the check refuses a body it answers
 * itself and aborts the request Remix works on; what Remix answers then is dropped.
 */
export function createRequestHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode?: string
  getLoadContext?: (req: Request, res: Response) => AppLoadContext | Promise<AppLoadContext>
}) {
  const handleRequest = createRemixRequestHandler(build, mode)
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const request = createRemixRequest(req, res)
      const loadContext = await getLoadContext?.(req, res)
      const response = await handleRequest(request, loadContext)
      if (res.locals.isBodyRefused || res.headersSent) return
      await sendRemixResponse(res, response)
    } catch (error) {
      if (res.locals.isBodyRefused) return
      next(error)
    }
  }
}

/** The Fetch Request Remix handles, as @remix-run/express 2.17.5 makes it (its helpers are not exported), with the body checked. */
export function createRemixRequest(req: Request, res: Response): globalThis.Request {
  // req.hostname has no port: take it from X-Forwarded-Host (present only when a trusted proxy sent it) or Host
  const [, forwardedPort] = req.get('X-Forwarded-Host')?.split(':') ?? []
  const [, hostPort] = req.get('host')?.split(':') ?? []
  const port = [forwardedPort, hostPort].map((text) => Number.parseInt(text ?? '', 10)).find(Number.isSafeInteger)
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
  let controller: AbortController | null = new AbortController()
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: createRemixHeaders(req.headers),
    signal: controller.signal,
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const body = createReadableStreamFromReadable(req)
    const check = res.locals.bodyCheck as BodyCheck | undefined
    init.body = check ? checkedBody(body, check) : body
    init.duplex = 'half'
  }
  // a refused body aborts the request first: the action's read fails quietly (entry.server's handleError)
  res.locals.abortRemix = () => controller?.abort()
  res.on('finish', () => {
    if (!res.locals.isBodyRefused) controller = null
  })
  res.on('close', () => controller?.abort())
  return new Request(url.href, init)
}

function createRemixHeaders(requestHeaders: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue
    if (Array.isArray(values)) for (const value of values) headers.append(key, value)
    else headers.set(key, values)
  }
  return headers
}

async function sendRemixResponse(res: Response, response: globalThis.Response): Promise<void> {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [key, value] of response.headers.entries()) res.append(key, value)
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders()
  if (response.body) await writeReadableStreamToWritable(response.body, res)
  else res.end()
}
