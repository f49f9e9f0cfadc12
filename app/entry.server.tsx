import { PassThrough } from 'node:stream'
import createCache from '@emotion/cache'
import { CacheProvider } from '@emotion/react'
import createEmotionServer from '@emotion/server/create-instance'
import type { AppLoadContext, EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { getEnv } from '~/utils/env.server'
import { NonceContext } from '~/utils/nonce'
import { newNonce } from '~/utils/csp-nonce.server'
import { securityHeaders } from '~/utils/security-headers.server'
import { asRender, installRenderClockCheck, outsideRender } from '~/utils/render-clock.server'
import { registerCache } from '~/utils/caches.server'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** This request's CSP nonce (server/index.ts getLoadContext); absent under the dev server and in tests. */
    cspNonce?: string
  }
}

export const streamTimeout = 10_000

// With RENDER_CLOCK_CHECK=throw (the e2e server), a render that reads the clock fails (render-clock.server.ts).
installRenderClockCheck()

/** Past this many distinct styles the shared cache starts again (styles built from data, e.g. widths). */
const MAX_CACHED_STYLES = 5000

let emotion = newEmotion()

registerCache({
  name: 'styles',
  file: 'app/entry.server.tsx',
  holds: "a component style Emotion compiled (each page's HTML picks its own class names)",
  key: 'the style',
  lifetime: 'the process',
  bound: `${MAX_CACHED_STYLES} styles, then started again`,
  forgottenBy: 'being full',
  writesChangeIt: false,
  size: () => Object.keys(emotion.cache.inserted).length,
})
registerCache({
  name: 'router-matches',
  file: 'patches/@remix-run+router+1.23.3.patch',
  holds: "a URL's route matches and ranked branches, and compiled route paths (decision 033); each caller gets a copy",
  key: 'the routes array, then the path',
  lifetime: 'the build (the routes array never changes)',
  bound: '1,000 paths per routes array and 2,000 compiled paths, then cleared',
  forgottenBy: 'being full',
  writesChangeIt: false,
})

registerCache({
  name: 'server-routes',
  file: 'patches/@remix-run+react+2.17.5.patch, patches/react-router-dom+6.30.4.patch',
  holds:
    "a build's server routes and their data routes (decision 111), so the router's match caches hit on every render",
  key: "the build's manifest routes (made again when the route modules, future flags or SPA mode differ), then the routes array",
  lifetime: 'the build',
  bound: 'one per build',
  forgottenBy: 'a new build (the manifest is a new object)',
  writesChangeIt: false,
})

function newEmotion() {
  const cache = createCache({ key: 'css' })
  return { cache, server: createEmotionServer(cache) }
}

/**
 * One Emotion cache for every render: each style is compiled once per process, not once per page.
 * Sharing is safe because extraction picks, per page, only the class names found in its HTML (the
 * theme's global CSS, the only unscoped styles, is in the theme stylesheet instead).
 */
function sharedEmotion() {
  if (Object.keys(emotion.cache.inserted).length > MAX_CACHED_STYLES) emotion = newEmotion()
  return emotion
}

/**
 * Renders the whole page before sending it: Emotion cannot extract Chakra's CSS from a live stream,
 * and pages must be fully styled without scripts. The page inlines only its components' styles; the
 * theme's global CSS and tokens are the linked theme stylesheet (root.tsx). The cache key `css`
 * matches the browser's default cache, which adopts the server's style tags on hydration.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext = {},
) {
  // Under server/index.ts the nonce comes with the request (its express layer set the headers);
  // under `remix-serve` the page makes its own and sets the same headers itself.
  const nonce = loadContext.cspNonce ?? newNonce()
  if (!loadContext.cspNonce) {
    for (const [name, value] of securityHeaders(nonce, getEnv().ALLOW_EMBEDDING)) responseHeaders.set(name, value)
  }
  const { cache, server: emotionServer } = sharedEmotion()
  const respond = (page: Buffer<ArrayBuffer>, status: number) => {
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
    // Pages carry one user's data: never store them in shared or browser caches.
    if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'private, no-store')
    return new Response(page, { status, headers: responseHeaders })
  }

  return new Promise<Response>((resolve, reject) => {
    let didError = false
    // Stops a render that has not finished in time. Cleared once it has: a pending timer kept the
    // whole render (its loader data, React's request) alive for 11 s after every page, and its late
    // abort() ended the finished stream again.
    // eslint-disable-next-line prefer-const -- set once the render has started; the callbacks made before it clear it
    let timer: NodeJS.Timeout | undefined
    const { pipe, abort } = asRender(request.url, () =>
      renderToPipeableStream(
        <NonceContext.Provider value={nonce}>
          <CacheProvider value={cache}>
            <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
          </CacheProvider>
        </NonceContext.Provider>,
        {
          nonce,
          onAllReady: () =>
            // React has rendered everything: what follows (the styles) is bookkeeping
            outsideRender(() => {
              const chunks: Buffer[] = []
              const sink = new PassThrough()
              sink.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)))
              sink.on('error', (error) => {
                clearTimeout(timer)
                reject(error)
              })
              // React ends the stream from its own work: the page's bookkeeping runs outside the render
              sink.on('end', () =>
                outsideRender(() => {
                  clearTimeout(timer)
                  const bytes = Buffer.concat(chunks)
                  const styles = emotionServer.constructStyleTagsFromChunks(
                    emotionServer.extractCriticalToChunks(bytes.toString('utf8')),
                  )
                  // The styles go before </head>, joined as bytes: a Response made from a string checks
                  // it character by character (1.5 ms for a 70 KB page with non-ASCII text; decision 036).
                  const head = bytes.indexOf('</head>')
                  const page =
                    head === -1
                      ? bytes
                      : Buffer.concat([bytes.subarray(0, head), Buffer.from(styles), bytes.subarray(head)])
                  resolve(respond(page, didError ? 500 : responseStatusCode))
                }),
              )
              pipe(sink)
            }),
          onShellError(error: unknown) {
            clearTimeout(timer)
            reject(error)
          },
          onError(error: unknown) {
            didError = true
            if (!request.signal.aborted) console.error(error)
          },
        },
      ),
    )
    timer = setTimeout(abort, streamTimeout + 1000)
  })
}

/** Single-fetch data carries the same per-user data as the pages. */
export function handleDataRequest(response: Response) {
  if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-store')
  if (!response.headers.has('X-Content-Type-Options')) response.headers.set('X-Content-Type-Options', 'nosniff')
  return response
}

/** Errors thrown in loaders/actions are logged once, without the token or a stack in any response. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (error instanceof Response) return
  console.error(error)
}
