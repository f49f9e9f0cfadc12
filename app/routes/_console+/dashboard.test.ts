import { beforeAll, describe, expect, it } from 'vitest'
import { failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, responseFrom } from '#tests/session'
import { loader } from './dashboard'

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const load = () => loader(args(get('/dashboard', cookie)))

describe('/dashboard', () => {
  it("shows the org summary's counts as cards, with links to their pages", async () => {
    const data = await load()
    expect(data.error).toBeNull()
    const byLabel = Object.fromEntries(data.resources.map((card) => [card.label, card]))
    expect(byLabel.Projects).toMatchObject({ value: 0, href: '/data/tables' })
    expect(byLabel.Tables).toMatchObject({ value: 0 })
    expect(byLabel.Users).toMatchObject({ value: 1, href: '/security/users' })
    // a fresh cluster has what a real install has: five pools and the default bucket
    expect(byLabel['Resource pools']).toMatchObject({ value: 5, href: '/scale' })
    expect(byLabel.Buckets).toMatchObject({ value: 1, href: '/security/buckets' })
    expect(data.activity.some((card) => card.label === 'Rows stored')).toBe(true)
  })

  it('shows a failed summary in place of the cards, with the catalogue message', async () => {
    failWith('/config/v1/orgs/:org/summary', 503, { detail: 'down' })
    const data = await load()
    expect(data).toMatchObject({ resources: [], activity: [], error: 'Service Unavailable.' })
  })

  it('ends the session on a 401', async () => {
    failWith('/config/v1/orgs/:org/summary', 401, { detail: 'Token expired.' })
    const thrown = await responseFrom(load)
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
  })

  it('needs a session', async () => {
    const thrown = await responseFrom(() => loader(args(get('/dashboard'))))
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdashboard')
  })
})
