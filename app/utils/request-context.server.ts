import { AsyncLocalStorage } from 'node:async_hooks'

/** What one console request spent on the cluster, for its log line. */
export type RequestContext = {
  clusterMs: number
  clusterCalls: number
  /** Reads answered from what the console kept, the cluster having named the same generation (decision 113). */
  keptReads?: number
  /** Each call's method and path (no query), in order, when LOG_CLUSTER_CALLS=1 (for the bench). */
  clusterCallList?: string[]
}

const listsCalls = process.env.LOG_CLUSTER_CALLS === '1'

// The server (server/app.ts, run from source) and the app (bundled into build/server) are separate
// module instances in production: they meet on one store kept under a global symbol.
const KEY = Symbol.for('cluster-console.request-context')
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<RequestContext> }
const storage: AsyncLocalStorage<RequestContext> = (holder[KEY] ??= new AsyncLocalStorage<RequestContext>())

/** Runs `next` with a fresh context and returns that context (read it when the response ends). */
export function withRequestContext(next: () => void): RequestContext {
  const context: RequestContext = listsCalls
    ? { clusterMs: 0, clusterCalls: 0, clusterCallList: [] }
    : { clusterMs: 0, clusterCalls: 0 }
  storage.run(context, next)
  return context
}

/** Adds one cluster call's duration to the current request's context (no-op outside a request). */
export function recordClusterCall(ms: number, method?: string, url?: string): void {
  const context = storage.getStore()
  if (!context) return
  context.clusterMs += ms
  context.clusterCalls += 1
  if (context.clusterCallList && url)
    context.clusterCallList.push(`${method} ${url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?')[0]} ${Math.round(ms)} ms`)
}

/** The current console request's context (undefined outside a request: a test calling a loader). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore()
}

/** Counts one read answered from a kept answer in the current request's context (no-op outside a request). */
export function recordKeptRead(): void {
  const context = storage.getStore()
  if (context) context.keptReads = (context.keptReads ?? 0) + 1
}
