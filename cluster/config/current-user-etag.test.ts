import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestCluster, type TestCluster } from '../test-helpers'

/*
 * Decision 102: `GET users/current` answers an ETag (the generations of what it reads: users, roles,
 * orgs) and 304 to If-None-Match while none of them changed, so the console revalidates the signed-in
 * user on every page instead of reading it whole, or keeping it for a time.
 */

let t: TestCluster

beforeAll(async () => {
  t = await startTestCluster()
})
afterAll(async () => {
  await t?.close()
})

const current = (headers: Record<string, string> = {}, token?: string | null) =>
  t.api('GET', '/config/v1/users/current', undefined, token, headers)

describe('users/current revalidation', () => {
  test('answers an ETag, and 304 without a body to If-None-Match naming it', async () => {
    const first = await current()
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"u-/)
    const again = await current({ 'if-none-match': etag! })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    // another tag (or none) gets the answer
    expect((await current({ 'if-none-match': '"other"' })).status).toBe(200)
  })

  test('a role change makes a new ETag: the old one is answered in full, with the new permissions', async () => {
    const before = await current()
    const etag = before.headers.get('etag')!
    const role = await t.api('POST', '/config/v1/roles/', {
      name: 'etag_probe',
      policies: [{ permissions: ['view_org'], scope_type: 'org' }],
    })
    expect(role.status, JSON.stringify(role.body)).toBe(201)
    const after = await current({ 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
  })

  test('an unknown token is refused before any 304', async () => {
    const etag = (await current()).headers.get('etag')!
    expect((await current({ 'if-none-match': etag }, 'not-a-token')).status).toBe(401)
  })
})
