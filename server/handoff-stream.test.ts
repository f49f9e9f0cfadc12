import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// The server loads the CommonJS build of the runtime (what patch-package patches), so it is required.
const require = createRequire(import.meta.url)
const { createRequestHandler } = require('@remix-run/server-runtime') as typeof import('@remix-run/server-runtime')

type Seen = { made: boolean; stream?: ReadableStream<Uint8Array>; again?: boolean }

/** A one-route build whose entry either reads the data's stream (a render) or does not (a kept page). */
function handlerFor(readStream: boolean, seen: Seen[]) {
  const entry = {
    streamTimeout: 5000,
    default(_request: Request, status: number, headers: Headers, context: Record<string, unknown>) {
      const property = Object.getOwnPropertyDescriptor(context, 'serverHandoffStream')
      const record: Seen = { made: !!property && 'value' in property }
      if (readStream) {
        record.stream = context.serverHandoffStream as ReadableStream<Uint8Array>
        record.again = context.serverHandoffStream === record.stream
      }
      seen.push(record)
      return new Response('<html></html>', { status, headers })
    },
  }
  const build = {
    mode: 'production',
    entry: { module: entry },
    routes: {
      root: { id: 'root', path: '', module: { default: () => null, loader: () => ({ table: 'web_logs', rows: 7 }) } },
    },
    assets: {
      url: '/assets/manifest.js',
      version: 'v1',
      entry: { module: '/assets/entry.js', imports: [] },
      routes: {
        root: {
          id: 'root',
          path: '',
          module: '/assets/root.js',
          hasLoader: true,
          hasAction: false,
          hasErrorBoundary: false,
          hasClientLoader: false,
          hasClientAction: false,
        },
      },
    },
    future: { v3_singleFetch: true },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    isSpaMode: false,
    basename: undefined,
  }
  return createRequestHandler(build as never, 'production')
}

describe("the page data's stream is made when the render reads it (decision 051)", () => {
  it('is not made for a page answered without rendering', async () => {
    const seen: Seen[] = []
    const response = await handlerFor(false, seen)(new Request('http://console.test/'))
    expect(response.status).toBe(200)
    expect(seen).toEqual([{ made: false }])
  })

  it('is made on first read, once, and carries the loader data', async () => {
    const seen: Seen[] = []
    await handlerFor(true, seen)(new Request('http://console.test/'))
    expect(seen[0]!.made).toBe(false)
    expect(seen[0]!.again).toBe(true)
    const text = await new Response(seen[0]!.stream).text()
    expect(text).toContain('web_logs')
  })
})
