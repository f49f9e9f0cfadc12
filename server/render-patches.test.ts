import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// The server loads the CommonJS builds (what patch-package patches); ESM imports here would get the
// unpatched .mjs files, so they are required as the server requires them. (Decision 045's two
// patches, which made a render's routes once per build, were removed by decision 081: the A/B did
// not show their gain beyond the noise. `scripts/check-patches.mjs` checks the built server.)
const require = createRequire(import.meta.url)
const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router')

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
