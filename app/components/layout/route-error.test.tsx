import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { system } from '~/theme'

let thrown: unknown = null
vi.mock('@remix-run/react', async (importOriginal) => {
  const { plainRemixReact } = await import('#tests/remix-plain')
  return { ...(await plainRemixReact(importOriginal)), useRouteError: () => thrown }
})

const { routeErrorBoundary } = await import('./route-error')

/** What the boundary shows when its route threw what `loadFromCluster` throws for `status`. */
async function shown(Boundary: () => React.JSX.Element, status: number, message: string) {
  // a thrown `data({ message }, status)` reaches the boundary as a route error response of this shape
  thrown = { status, statusText: '', internal: false, data: { message } }
  return renderToString(
    <ChakraProvider value={system}>
      <Boundary />
    </ChakraProvider>,
  )
}

describe('routeErrorBoundary (issue 34: one boundary for every page)', () => {
  it("shows the page's title at its level, the catalogue's message, and Try again back to the page", async () => {
    const Boundary = routeErrorBoundary({
      title: 'The roles could not be loaded',
      level: 2,
      tryAgain: '/security/roles',
    })
    const html = await shown(Boundary, 502, 'The cluster is not answering.')
    expect(html).toMatch(/<h2[^>]*>The roles could not be loaded<\/h2>/)
    expect(html).toContain('The cluster is not answering.')
    expect(html).toMatch(/<a href="\/security\/roles"[^>]*>Try again<\/a>/)
    expect(html).toContain('role="alert"')
  })

  it('offers no Try again after a 403 (it would not help), and a fixed link when given one', async () => {
    const again = routeErrorBoundary({ title: 'The users could not be loaded', tryAgain: '/security/users' })
    const denied = await shown(again, 403, 'You do not have permission to do this.')
    expect(denied).toMatch(/<h1[^>]*>The users could not be loaded<\/h1>/)
    expect(denied).not.toContain('Try again')
    const back = routeErrorBoundary({ title: 'The job could not be loaded', back: { to: '/jobs', label: 'All jobs' } })
    expect(await shown(back, 404, 'Not found.')).toMatch(/<a href="\/jobs"[^>]*>All jobs<\/a>/)
  })
})
