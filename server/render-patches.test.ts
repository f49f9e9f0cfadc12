import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// The server loads the CommonJS builds (what patch-package patches); ESM imports here would get the
// unpatched .mjs files, so they are required as the server requires them.
const require = createRequire(import.meta.url)
const { createStaticRouter } = require('react-router-dom/server') as typeof import('react-router-dom/server')
const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router')
type RouteFunction = (args: { request: Request }) => unknown
type LoaderCall = (args: { loader?: RouteFunction; action?: RouteFunction; request: Request; params: object; routeId: string; singleFetch: boolean; loadContext: object }) => Promise<unknown>
const { callRouteLoader, callRouteAction } = require('@remix-run/server-runtime/dist/data.js') as { callRouteLoader: LoaderCall; callRouteAction: LoaderCall }

describe('render patches (decision 045)', () => {
  const routes = [{ id: 'root', path: '/', children: [{ id: 'tables', path: 'data/tables' }, { id: 'table', path: 'data/tables/:id' }] }]
  const context = (id: string) =>
    ({
      basename: '/',
      location: { pathname: '/data/tables/1', search: '', hash: '', state: null, key: 'default' },
      matches: [{ params: {}, pathname: '/', pathnameBase: '/', route: { id: 'root' } }, { params: { id }, pathname: `/data/tables/${id}`, pathnameBase: `/data/tables/${id}`, route: { id: 'table' } }],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    }) as never

  it("gives every render from the same routes the same data routes, and each render's own matches", () => {
    const first = createStaticRouter(routes, context('1'))
    const second = createStaticRouter(routes, context('2'))
    expect(second.routes).toBe(first.routes)
    expect(second.state.matches[1]!.params).toEqual({ id: '2' })
    expect(second.state.matches[1]!.route).toBe(first.state.matches[1]!.route)
    // another routes array gets its own
    expect(createStaticRouter([...routes], context('1')).routes).not.toBe(first.routes)
  })

  it('matches through the shared data routes as before', () => {
    const { routes: dataRoutes } = createStaticRouter(routes, context('1'))
    expect(matchRoutes(dataRoutes, '/data/tables/7')?.map((match) => [match.route.id, match.params.id])).toEqual([
      ['root', '7'],
      ['table', '7'],
    ])
    expect(matchRoutes(dataRoutes, '/data/tables')?.map((match) => match.route.id)).toEqual(['root', 'tables'])
  })

  describe('a loader or action gets the request itself when there is no parameter to strip (decision 050)', () => {
    /** The request the route's function was given (singleFetch off wraps the result in a Response, so it is taken aside). */
    const seen = async (call: LoaderCall, request: Request, singleFetch = true) => {
      let given: Request | undefined
      const take: RouteFunction = ({ request: passed }) => ((given = passed), null)
      await call({ loader: take, action: take, request, params: {}, routeId: 'r', singleFetch, loadContext: {} })
      return { given: given! }
    }

    it('passes the same Request object on, without making two copies of it', async () => {
      const request = new Request('http://console.test/data/tables?q=web%20logs&page=2')
      expect((await seen(callRouteLoader, request)).given).toBe(request)
      expect((await seen(callRouteLoader, request, false)).given).toBe(request)
      const post = new Request('http://console.test/data/new-table', { method: 'POST', body: new URLSearchParams({ name: '1nope' }) })
      const forAction = (await seen(callRouteAction, post)).given
      expect(forAction).toBe(post)
      expect(Object.fromEntries(await forAction.formData())).toEqual({ name: '1nope' })
    })

    it('still strips an empty index, _routes and _data, keeping the rest', async () => {
      const index = (await seen(callRouteLoader, new Request('http://console.test/jobs?index&x=1'))).given
      expect(new URL(index.url).search).toBe('?x=1')
      const routes = (await seen(callRouteLoader, new Request('http://console.test/jobs.data?_routes=root&x=1'))).given
      expect(new URL(routes.url).search).toBe('?x=1')
      const data = (await seen(callRouteLoader, new Request('http://console.test/jobs?_data=root&x=1'), false)).given
      expect(new URL(data.url).search).toBe('?x=1')
      const kept = (await seen(callRouteAction, new Request('http://console.test/jobs?index=2', { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))).given
      expect(new URL(kept.url).search).toBe('?index=2')
      expect(await kept.text()).toBe('a=1')
    })
  })
})
