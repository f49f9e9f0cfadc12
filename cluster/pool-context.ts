/**
 * Which resource pool serves the work in hand, so that the cluster's counters and logs carry a
 * `pool` label as a real cluster's do (the console's System Health filters by it). A request runs
 * inside `withPool(name, …)`; whatever it counts or logs meanwhile is labelled with that pool,
 * without every counter having to be told. Work outside a request (a batch job) names its pool itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Store } from './store'

const current = new AsyncLocalStorage<string>()

/** Runs `work` with `pool` as the pool of everything it counts and logs. */
export function withPool<T>(pool: string | undefined, work: () => T): T {
  return pool ? current.run(pool, work) : work()
}

/** The pool of the work in hand, or undefined outside one (the config API runs on no pool). */
export function currentPool(): string | undefined {
  return current.getStore()
}

type PoolItem = { name: string; settings?: { is_default?: boolean; k8s_deployment?: { service?: string } } }

/**
 * The pool a service's work goes to by default: the default pool of the first of `services` that
 * has pools (else its first pool), else the first service's name.
 */
export function defaultPool(store: Store, ...services: string[]): string {
  for (const service of services) {
    // the stored pools are read in place (every data-plane request asks)
    let first: string | undefined
    for (const pool of store.values<PoolItem>('pool')) {
      if (pool.settings?.k8s_deployment?.service !== service) continue
      if (pool.settings?.is_default) return pool.name
      first ??= pool.name
    }
    if (first) return first
  }
  return services[0]
}

/**
 * The pool a request to the data plane runs on: the one its path names (`/pool/{name}/…`), the
 * query pool it asks for (`hdx_query_pool_name`), or the default pool of the service that answers it.
 */
export function poolOfRequest(store: Store, url: URL): string | undefined {
  const named = /^\/pool\/([^/]+)\//.exec(url.pathname)?.[1]
  if (named) return decodeURIComponent(named)
  if (url.pathname.startsWith('/query') || url.pathname === '/')
    return url.searchParams.get('hdx_query_pool_name') || defaultPool(store, 'query-peer')
  if (url.pathname.startsWith('/ingest') || url.pathname.startsWith('/validator'))
    return defaultPool(store, 'intake-head')
  return undefined
}
