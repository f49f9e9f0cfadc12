import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// The server loads the CommonJS builds (what patch-package patches); ESM imports here would get the
// unpatched .mjs files, so they are required as the server requires them. `scripts/check-patches.mjs`
// checks the built server. (Decision 045's patches that made a render's routes once per build were
// removed by 081, weighed with the page cache on; without it, decision 111 brought them back.)
const require = createRequire(import.meta.url)
const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router')
const { createStaticHandler, createStaticRouter } =
  require('react-router-dom/server.js') as typeof import('react-router-dom/server')

describe('render patches (decision 033)', () => {
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

describe('render patches (decision 111)', () => {
  it("makes a routes array's data routes once: every render's router has the same routes, so its matches are kept", async () => {
    const routes = [{ id: 'root', path: '/', children: [{ id: 'a', path: 'a/:id' }] }]
    const handler = createStaticHandler(routes)
    const render = async (path: string) => {
      const context = await handler.query(new Request(`http://localhost${path}`))
      if (context instanceof Response) throw new Error('not a render')
      return createStaticRouter(routes, context)
    }
    const first = await render('/a/1')
    const second = await render('/a/2')
    // unpatched, each render converts the routes again: a new array, which the match cache never hits
    expect(second.routes).toBe(first.routes)
    // and each render's state is its own
    expect(first.state.matches.at(-1)?.params.id).toBe('1')
    expect(second.state.matches.at(-1)?.params.id).toBe('2')
    expect(second.state.matches.map((match) => match.route)).toEqual([first.routes[0], first.routes[0]!.children![0]])
  })
})
