import { HttpError, json, methodNotAllowed, notFound } from './http'
import type { ClusterRequest } from './node-http'

export type Params = Record<string, string>

export interface RouteContext {
  request: ClusterRequest
  url: URL
  params: Params
}

export type Handler<C> = (ctx: C) => Response | Promise<Response>

interface Route<C> {
  methods: Set<string>
  pattern: RegExp
  keys: string[]
  handler: Handler<C>
}

/**
 * Method + path routing. Patterns use `:name` segments; a trailing slash on the request is optional,
 * as on a real cluster. An unknown path is a 404, a known path with another method a 405, and an
 * OPTIONS request without its own route answers the allowed methods.
 */
export class Router<C extends RouteContext> {
  private routes: Route<C>[] = []

  add(methods: string | string[], path: string, handler: Handler<C>): this {
    const keys: string[] = []
    const source = path
      .replace(/\/+$/, '')
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) {
          keys.push(segment.slice(1))
          return '([^/]+)'
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      })
      .join('/')
    this.matches.clear()
    this.routes.push({
      methods: new Set((Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase())),
      pattern: new RegExp(`^${source}/?$`),
      keys,
      handler,
    })
    return this
  }

  get = (path: string, handler: Handler<C>) => this.add('GET', path, handler)
  post = (path: string, handler: Handler<C>) => this.add('POST', path, handler)
  put = (path: string, handler: Handler<C>) => this.add('PUT', path, handler)
  patch = (path: string, handler: Handler<C>) => this.add('PATCH', path, handler)
  delete = (path: string, handler: Handler<C>) => this.add('DELETE', path, handler)

  /** Matches by method and path, kept: a cluster's clients call the same paths over and over (/query, a table's ingest). */
  private matches = new Map<string, { handler: Handler<C>; params: Params }>()

  /** Finds the handler for a request, or throws the 404/405 a real cluster would answer. */
  match(method: string, pathname: string): { handler: Handler<C>; params: Params } {
    const key = `${method} ${pathname}`
    const kept = this.matches.get(key)
    if (kept) return { handler: kept.handler, params: { ...kept.params } }
    const found = this.find(method, pathname)
    if (this.matches.size >= 2_000) this.matches.clear()
    this.matches.set(key, found)
    return { handler: found.handler, params: { ...found.params } }
  }

  private find(method: string, pathname: string): { handler: Handler<C>; params: Params } {
    const allowed = new Set<string>()
    for (const route of this.routes) {
      const m = route.pattern.exec(pathname)
      if (!m) continue
      if (route.methods.has(method) || (method === 'HEAD' && route.methods.has('GET'))) {
        const params: Params = {}
        route.keys.forEach((key, i) => (params[key] = decodeURIComponent(m[i + 1])))
        return { handler: route.handler, params }
      }
      route.methods.forEach((x) => allowed.add(x))
    }
    if (allowed.size === 0) throw notFound()
    if (method === 'OPTIONS') {
      const allow = [...allowed, 'OPTIONS'].join(', ')
      return {
        handler: () =>
          json({ name: pathname, renders: ['application/json'], parses: ['application/json'] }, 200, { allow }),
        params: {},
      }
    }
    throw methodNotAllowed(method)
  }
}

export { HttpError }
