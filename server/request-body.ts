import { createRequire } from 'node:module'
import type { NextFunction, Request, Response } from 'express'
import { MAX_UPLOAD_BYTES } from '../app/schemas/file-values'

/**
 * What the console reads of a request body, before any action does (issue 49, decision 094): the
 * type must be a form's (415 otherwise), the size its route's limit at most (413, refused on the
 * Content-Length before a byte is read, or at the limit when the body streams without one), and
 * the bytes what the type says (400 for a broken multipart or urlencoded body, or one cut short).
 */

/** The sign-in forms anyone can post (login, password reset, set password) and the two preference forms: a few hundred bytes each. */
export const PUBLIC_FORM_LIMIT = 64 * 1024
/**
 * Every other form. The biggest the console sends: a transform of 1,128 columns, 969 KB as the
 * editor posts it (multipart), 354 KB urlencoded; a sample or key file attached to a form counts
 * here too.
 */
export const FORM_LIMIT = 4 * 1024 * 1024
/** A file or dictionary upload: the file's own limit (MAX_UPLOAD_BYTES) and the form around it. */
export const UPLOAD_LIMIT = MAX_UPLOAD_BYTES + 1024 * 1024

/** Routes whose form carries an upload (readMultipart: `__file-upload.server.ts`, `__dictionary-editor.server.ts`). */
const UPLOAD_ROUTES = [
  /^\/data\/files\/new-file$/,
  /^\/data\/files\/[^/]+\/[^/]+\/update-file$/,
  /^\/data\/dictionaries\/new-data-dictionary$/,
  /^\/data\/dictionaries\/[^/]+\/[^/]+\/edit-dictionary$/,
  /^\/resources\/dictionary-file-upload$/,
  /^\/resources\/dictionary-create$/,
]

/** Forms posted without a session, or small by nature. */
const PUBLIC_ROUTES = [
  /^\/login$/,
  /^\/password-reset$/,
  /^\/verifyaccount\/[^/]+\/[^/]+$/,
  /^\/logout$/,
  /^\/resources\/theme$/,
  /^\/resources\/local-zone$/,
]

/** The route's own path: without the base path and without single fetch's `.data` (`/_root.data` is `/`). */
export function routePath(path: string, basePath = ''): string {
  let local = basePath && (path === basePath || path.startsWith(`${basePath}/`)) ? path.slice(basePath.length) : path
  if (local === '/_root.data') return '/'
  local = local.replace(/\.data$/, '').replace(/\/+$/, '')
  return local || '/'
}

/** The most bytes a request to `path` may send. */
export function bodyLimitFor(path: string, basePath = ''): number {
  const local = routePath(path, basePath)
  if (UPLOAD_ROUTES.some((route) => route.test(local))) return UPLOAD_LIMIT
  if (PUBLIC_ROUTES.some((route) => route.test(local))) return PUBLIC_FORM_LIMIT
  return FORM_LIMIT
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** How a body is checked as it streams to the action (see `checkedBody`). */
export type BodyCheck = {
  limit: number
  type: 'urlencoded' | 'multipart'
  boundary?: string
  /** The Content-Length the client declared, when it did. */
  declaredLength?: number
  /** Answers the refusal (once), stops what Remix is doing with the request, closes the connection. */
  refuse: (status: 400 | 413, message: string) => void
}

const TOO_LARGE = (limit: number) =>
  `This form is too big for the console: at most ${formatBytes(limit)} can be sent here. ` +
  `Send less (a smaller sample or file), or upload a file where the console takes files.`
const UNREADABLE =
  'The console could not read this form: its contents are not what its type says. Send it again from the console.'

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`
}

const TITLES: Record<number, string> = {
  400: 'The form could not be read',
  413: 'The form is too big',
  415: 'Not a form the console reads',
}

/** A Remix single fetch request (`/x.data`): its answer is read by the page's scripts, not shown. */
function isDataRequest(req: Request): boolean {
  return /\.data$/.test(req.path)
}

// turbo-stream as the Remix runtime has it (the very copy, so the page's scripts decode what it writes)
const runtimeRequire = createRequire(createRequire(import.meta.url).resolve('@remix-run/server-runtime'))
const turboStream = runtimeRequire('turbo-stream') as {
  encode: (
    value: unknown,
    options: { plugins: ((value: unknown) => unknown[] | false | undefined)[] },
  ) => ReadableStream
}

/** A refusal the page's scripts show in the route's error boundary, as a thrown `data({message}, {status})` is. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

async function singleFetchError(status: number, message: string): Promise<string> {
  const stream = turboStream.encode(
    { error: new Refusal(status, message) },
    {
      plugins: [
        (value) =>
          value instanceof Refusal
            ? ['ErrorResponse', { message: value.message }, value.status, TITLES[value.status]]
            : false,
      ],
    },
  )
  return new Response(stream).text()
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * Answers a refused request: a page for a browser (HTML), the route's error for a page's scripts
 * (single fetch), plain text otherwise. The connection is closed after the answer, so an unread
 * body is never read.
 */
export async function sendRefusal(req: Request, res: Response, status: number, message: string, basePath = '') {
  if (res.headersSent) return
  res.status(status).setHeader('Cache-Control', 'no-store').setHeader('Connection', 'close')
  if (isDataRequest(req)) {
    res.type('text/x-script').send(await singleFetchError(status, message))
    return
  }
  if (!req.accepts('html')) {
    res.type('text/plain').send(`${message}\n`)
    return
  }
  const title = TITLES[status] ?? 'Request refused'
  res
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Cluster Console</title></head>` +
        '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">' +
        `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${basePath}/">Go to the console</a></p></body></html>`,
    )
}

/**
 * Refuses, before any action reads it, a body that is not a form (415), a form without its
 * multipart boundary (400), and one whose Content-Length is past its route's limit (413); a body
 * that is let through is checked as it streams (`checkedBody`, with what this leaves in
 * `res.locals.bodyCheck`).
 */
export function guardRequestBody(basePath = '') {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method)) return next()
    const contentType = req.get('content-type') ?? ''
    const media = contentType.split(';')[0]!.trim().toLowerCase()
    const refuse = (status: number, message: string) => void sendRefusal(req, res, status, message, basePath)
    if (media !== 'application/x-www-form-urlencoded' && media !== 'multipart/form-data') {
      return refuse(
        415,
        `The console takes forms here (application/x-www-form-urlencoded or multipart/form-data), ` +
          `not ${media ? `"${media.slice(0, 100)}"` : 'a body without a type'}.`,
      )
    }
    let boundary: string | undefined
    if (media === 'multipart/form-data') {
      boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType)?.slice(1).find(Boolean)
      if (!boundary) return refuse(400, UNREADABLE)
    }
    const limit = bodyLimitFor(req.path, basePath)
    const lengthHeader = req.get('content-length')
    const declaredLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined
    if (declaredLength !== undefined && declaredLength > limit) return refuse(413, TOO_LARGE(limit))
    let isRefused = false
    const check: BodyCheck = {
      limit,
      type: media === 'multipart/form-data' ? 'multipart' : 'urlencoded',
      boundary,
      declaredLength,
      refuse: (status, message) => {
        if (isRefused) return
        isRefused = true
        res.locals.isBodyRefused = true
        ;(res.locals.abortRemix as (() => void) | undefined)?.()
        void sendRefusal(req, res, status, message, basePath).finally(() => {
          // the rest of the body is never read: the connection ends with the answer
          res.once('finish', () => req.destroy())
        })
      },
    }
    res.locals.bodyCheck = check
    next()
  }
}

/** Thrown into the body stream when the guard refused it: the action stops reading. */
export class BodyRefusedError extends Error {
  constructor(readonly status: number) {
    super(`request body refused (${status})`)
  }
}

/**
 * The body stream an action reads, checked on the way: past the limit, not valid for its type, or
 * ended before its Content-Length, the request is refused (`check.refuse`) and the stream errors,
 * so no action acts on a part of a form.
 */
export function checkedBody(body: ReadableStream<Uint8Array>, check: BodyCheck): ReadableStream<Uint8Array> {
  let size = 0
  const validator = check.type === 'multipart' ? multipartValidator(check.boundary!) : urlencodedValidator()
  const fail = (controller: TransformStreamDefaultController<Uint8Array>, status: 400 | 413, message: string) => {
    check.refuse(status, message)
    controller.error(new BodyRefusedError(status))
  }
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength
        if (size > check.limit) return fail(controller, 413, TOO_LARGE(check.limit))
        if (!validator.write(chunk)) return fail(controller, 400, UNREADABLE)
        controller.enqueue(chunk)
      },
      flush(controller) {
        const isCut = check.declaredLength !== undefined && size < check.declaredLength
        if (isCut || !validator.end()) fail(controller, 400, UNREADABLE)
      },
    }),
  )
}

type Validator = { write: (chunk: Uint8Array) => boolean; end: () => boolean }

const HEX = /^[0-9a-fA-F]{2}$/

/**
 * An urlencoded body whose percent-decoded bytes are UTF-8 (what a browser sends for a UTF-8 page).
 * A `%` not followed by two hex digits is kept as is, as the parser does.
 */
export function urlencodedValidator(): Validator {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let carry = ''
  const decode = (text: string, isLast: boolean) => {
    const bytes: number[] = []
    let i = 0
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i)
      if (code === 0x25 /* % */) {
        if (!isLast && i + 2 >= text.length) break // an escape cut between chunks
        const hex = text.slice(i + 1, i + 3)
        if (HEX.test(hex)) {
          bytes.push(parseInt(hex, 16))
          i += 2
          continue
        }
      }
      bytes.push(code)
    }
    carry = text.slice(i)
    decoder.decode(Uint8Array.from(bytes), { stream: !isLast })
  }
  return {
    write(chunk) {
      try {
        // latin1 keeps each byte as one char: raw bytes past ASCII are checked as UTF-8 too
        decode(carry + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'), false)
        return true
      } catch {
        return false
      }
    },
    end() {
      try {
        decode(carry, true)
        return true
      } catch {
        return false
      }
    },
  }
}

/**
 * The framing of a multipart body as the form parsers need it: it starts with the boundary, every
 * part has a Content-Disposition with a name in a header block of at most 16 KB, and the closing
 * boundary comes. The parts' contents are not looked at.
 */
export function multipartValidator(boundary: string): Validator {
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  const MAX_HEADERS = 16 * 1024
  // the body starts with the delimiter less its CR LF: pretend one came before it
  let pending: Buffer = Buffer.from('\r\n')
  let state: 'delimiter' | 'after-delimiter' | 'headers' | 'content' | 'done' = 'delimiter'
  let isValid = true
  const step = (): boolean => {
    for (;;) {
      if (state === 'delimiter') {
        if (pending.length < delimiter.length) return true
        if (!pending.subarray(0, delimiter.length).equals(delimiter)) return false
        pending = pending.subarray(delimiter.length)
        state = 'after-delimiter'
      } else if (state === 'after-delimiter') {
        if (pending.length < 2) return true
        const next = pending.subarray(0, 2).toString('latin1')
        pending = pending.subarray(2)
        if (next === '--') state = 'done'
        else if (next === '\r\n') state = 'headers'
        else return false
      } else if (state === 'headers') {
        const end = pending.indexOf('\r\n\r\n')
        if (end < 0) return pending.length <= MAX_HEADERS
        if (end > MAX_HEADERS) return false
        const headers = pending.subarray(0, end).toString('latin1')
        if (!/^content-disposition:\s*form-data\s*;(?:.*;)?\s*name=/im.test(headers)) return false
        pending = pending.subarray(end + 4)
        state = 'content'
      } else if (state === 'content') {
        const at = pending.indexOf(delimiter)
        if (at < 0) {
          // keep only what may be the start of a delimiter
          pending = pending.subarray(Math.max(0, pending.length - delimiter.length + 1))
          return true
        }
        pending = pending.subarray(at)
        state = 'delimiter'
      } else {
        pending = Buffer.alloc(0) // the epilogue: ignored
        return true
      }
    }
  }
  return {
    write(chunk) {
      if (!isValid) return false
      pending = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk)
      isValid = step()
      return isValid
    },
    end() {
      return isValid && state === 'done'
    },
  }
}
