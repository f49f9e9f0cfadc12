import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// The server loads the CommonJS builds (what patch-package patches); ESM imports here would get the
// unpatched .mjs files, so they are required as the server requires them.
const require = createRequire(import.meta.url)
const { createStaticRouter } = require('react-router-dom/server') as typeof import('react-router-dom/server')
const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router')

describe('render patches (decision 045)', () => {
  const routes = [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'tables', path: 'data/tables' },
        { id: 'table', path: 'data/tables/:id' },
      ],
    },
  ]
  const context = (id: string) =>
    ({
      basename: '/',
      location: { pathname: '/data/tables/1', search: '', hash: '', state: null, key: 'default' },
      matches: [
        { params: {}, pathname: '/', pathnameBase: '/', route: { id: 'root' } },
        { params: { id }, pathname: `/data/tables/${id}`, pathnameBase: `/data/tables/${id}`, route: { id: 'table' } },
      ],
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

  it("keeps a routes array's matches by path (decision 033), each caller getting its own copy", () => {
    const local = [{ id: 'root', path: '/', children: [{ id: 'a', path: 'a/:id' }] }]
    const first = matchRoutes(local, '/a/1')!
    ;(first[1]!.params as Record<string, string>).id = 'changed'
    first.pop()
    expect(matchRoutes(local, '/a/1')?.map((match) => [match.route.id, match.params.id])).toEqual([
      ['root', '1'],
      ['a', '1'],
    ])
    // the server never changes a routes array; the cache keys on it, so a change is not seen (only
    // with the patch in effect: unpatched, every call ranks the routes again)
    expect(matchRoutes(local, '/b')).toBeNull()
    local[0]!.children.push({ id: 'b', path: 'b' })
    expect(matchRoutes(local, '/b')).toBeNull()
    expect(matchRoutes([...local], '/b')?.map((match) => match.route.id)).toEqual(['root', 'b'])
  })
})
