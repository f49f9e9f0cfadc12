import { afterEach, describe, expect, it, vi } from 'vitest'

async function load(baseUrl: string) {
  vi.resetModules()
  vi.stubEnv('BASE_URL', baseUrl)
  return import('./base-path')
}

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

describe('base path (decision 023)', () => {
  it('at the root changes nothing', async () => {
    const { BASE_PATH, COOKIE_PATH, withBase, withoutBase } = await load('/')
    expect(BASE_PATH).toBe('')
    expect(COOKIE_PATH).toBe('/')
    expect(withBase('/data/files')).toBe('/data/files')
    expect(withoutBase('/console/data')).toBe('/console/data')
  })

  it('under /console adds and removes the sub-path', async () => {
    const { BASE_PATH, COOKIE_PATH, withBase, withoutBase } = await load('/console/')
    expect(BASE_PATH).toBe('/console')
    expect(COOKIE_PATH).toBe('/console')
    expect(withBase('/resources/query-csv?sql=1')).toBe('/console/resources/query-csv?sql=1')
    expect(withoutBase('/console/data/tables')).toBe('/data/tables')
    expect(withoutBase('/console')).toBe('/')
    expect(withoutBase('/console?x=1')).toBe('/?x=1')
    // Another path that only starts with the same letters is not under it.
    expect(withoutBase('/consoles/x')).toBe('/consoles/x')
  })

  it('a login redirect from under /console comes back without the sub-path (Remix adds it again)', async () => {
    vi.resetModules()
    vi.stubEnv('BASE_URL', '/console/')
    const { loginUrlFor } = await import('./session.server')
    expect(loginUrlFor(new Request('http://x/console/data/tables?page=2'))).toBe(
      '/login?prevUrl=%2Fdata%2Ftables%3Fpage%3D2',
    )
  })
})
