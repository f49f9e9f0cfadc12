import './env'
import { delay, http, HttpResponse, type JsonBodyType } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { renewStamps } from '../cluster/http'
import { startCluster, type TestClusterHandle } from './cluster'
import { TEST_CLUSTER_URL } from './env'

/** Every request to http://cluster.test goes to `current` (the local cluster's handler). */
let current: TestClusterHandle | undefined

const clusterRoute = http.all(`${TEST_CLUSTER_URL}/*`, async ({ request }) => {
  if (!current) throw new Error('No test cluster: call useTestCluster() in this test file')
  return current.handler(request)
})

/** The msw server: the cluster route plus whatever faults a test adds with `server.use`. */
export const server = setupServer(clusterRoute)

// A fault added (or taken away) stands for a cluster that changed under the console: the local
// cluster's stamps are made new, so nothing kept from before is shown instead of meeting it, as the
// cluster's own /__faults does (decision 113).
const use = server.use.bind(server)
const resetHandlers = server.resetHandlers.bind(server)
server.use = (...handlers) => {
  renewStamps()
  use(...handlers)
}
server.resetHandlers = (...handlers) => {
  renewStamps()
  resetHandlers(...handlers)
}

/** The paths of the cluster calls `load` makes that `pick` keeps (a test's count of a page's reads). */
export async function callPaths(load: () => Promise<unknown>, pick: (path: string) => boolean): Promise<string[]> {
  const seen: string[] = []
  const listener = ({ request }: { request: Request }) => {
    const path = new URL(request.url).pathname
    if (pick(path)) seen.push(path)
  }
  server.events.on('request:start', listener)
  try {
    await load()
  } finally {
    server.events.removeListener('request:start', listener)
  }
  return seen
}

/**
 * Wires msw and a fresh local cluster for this test file; returns a getter for the cluster.
 * Faults added in a test are removed after it.
 */
export function useTestCluster(): () => TestClusterHandle {
  beforeAll(async () => {
    current = await startCluster()
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterEach(() => server.resetHandlers())
  afterAll(async () => {
    server.close()
    await current?.close()
    current = undefined
  })
  return () => {
    if (!current) throw new Error('The test cluster is not started yet')
    return current
  }
}

/** Wires msw with only the handlers a test adds (no cluster), for pure client tests. */
export function useMswOnly() {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
}

type Method = 'all' | 'get' | 'post' | 'put' | 'patch' | 'delete'
/** `path` is under the cluster's origin, e.g. `/config/v1/users/:userId`; msw path params allowed. */
const url = (path: string) => `${TEST_CLUSTER_URL}${path}`

/** The next matching call answers `status` with `body` (JSON unless a string). */
export function failWith(
  path: string,
  status: number,
  body?: JsonBodyType,
  method: Method = 'all',
  statusText?: string,
) {
  server.use(
    http[method](
      url(path),
      () =>
        typeof body === 'string'
          ? new HttpResponse(body, { status, statusText, headers: { 'content-type': 'text/plain' } })
          : body === undefined
            ? new HttpResponse(null, { status, statusText })
            : HttpResponse.json(body, { status, statusText }),
      { once: true },
    ),
  )
}

/** The next matching call never answers in time (it answers after `ms`, default 5 s). */
export function hang(path: string, ms = 5000, method: Method = 'all') {
  server.use(
    http[method](
      url(path),
      async () => {
        await delay(ms)
        return HttpResponse.json({ late: true })
      },
      { once: true },
    ),
  )
}

/** The next matching call gets no answer at all (a network error). */
export function dropConnection(path: string, method: Method = 'all') {
  server.use(http[method](url(path), () => HttpResponse.error(), { once: true }))
}
