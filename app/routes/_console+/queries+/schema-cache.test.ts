import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ClusterApi } from '~/api/client.server'
import { forgetOrgReads } from '~/api/read-cache.server'
import { clearSchemaCache, loadSchemaCached, SCHEMA_REFRESH_MS, type Schema } from './__schema.server'

const api = { orgId: 'org', userId: 'user' } as ClusterApi
const schema = (name: string): Schema => ({
  tables: [{ uuid: name, project: 'p', name, columns: [] }],
  functions: [],
  dictionaries: [],
})
const same = async () => 'same'
const names = async (value: Promise<Schema>) => (await value).tables.map((table) => table.name)

afterEach(() => {
  clearSchemaCache()
  vi.useRealTimers()
})

describe('loadSchemaCached (decision 052)', () => {
  it('reads once a minute; in the last quarter a view gets the schema kept and the next read starts behind it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    let version = 1
    const load = vi.fn(async () => schema(`v${version}`))
    expect(await names(loadSchemaCached(api, load, same))).toEqual(['v1'])
    version = 2
    vi.setSystemTime(start + SCHEMA_REFRESH_MS - 1)
    expect(await names(loadSchemaCached(api, load, same))).toEqual(['v1'])
    expect(load).toHaveBeenCalledTimes(1)
    // past 45 s: answered at once with what was kept, one read started
    vi.setSystemTime(start + SCHEMA_REFRESH_MS + 1)
    expect(await names(loadSchemaCached(api, load, same))).toEqual(['v1'])
    expect(await names(loadSchemaCached(api, load, same))).toEqual(['v2'])
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps what it has when the read behind fails, and never answers with a schema older than a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const load = vi.fn(async () => schema('old'))
    await loadSchemaCached(api, load, same)
    vi.setSystemTime(start + SCHEMA_REFRESH_MS + 1)
    const failing = vi.fn(async (): Promise<Schema> => {
      throw new Error('cluster down')
    })
    expect(await names(loadSchemaCached(api, failing, same))).toEqual(['old'])
    await Promise.resolve()
    // the next view tries again (and fails again)
    expect(await names(loadSchemaCached(api, failing, same))).toEqual(['old'])
    expect(failing).toHaveBeenCalledTimes(2)
    // a minute after the read it came from, the view waits for a fresh one
    vi.setSystemTime(start + 60_000)
    const fresh = vi.fn(async () => schema('new'))
    expect(await names(loadSchemaCached(api, fresh, same))).toEqual(['new'])
    expect(fresh).toHaveBeenCalledTimes(1)
  })

  it('a change through the console forgets the schema of every user of the org at once (issue 37)', async () => {
    const other = { orgId: 'org', userId: 'another user' } as ClusterApi
    const elsewhere = { orgId: 'org2', userId: 'user' } as ClusterApi
    let version = 1
    const load = vi.fn(async () => schema(`v${version}`))
    await loadSchemaCached(api, load, same)
    await loadSchemaCached(other, load, same)
    await loadSchemaCached(elsewhere, load, same)
    version = 2
    forgetOrgReads('org')
    expect(await names(loadSchemaCached(api, load, same))).toEqual(['v2'])
    expect(await names(loadSchemaCached(other, load, same))).toEqual(['v2'])
    expect(await names(loadSchemaCached(elsewhere, load, same))).toEqual(['v1'])
  })

  it("reads again at once when the org's projects or tables differ from those it was read with (a change through another replica)", async () => {
    let tables = 'a'
    const fingerprint = async () => tables
    let version = 1
    const load = vi.fn(async () => schema(`v${version}`))
    expect(await names(loadSchemaCached(api, load, fingerprint))).toEqual(['v1'])
    version = 2
    expect(await names(loadSchemaCached(api, load, fingerprint))).toEqual(['v1'])
    tables = 'a,b'
    expect(await names(loadSchemaCached(api, load, fingerprint))).toEqual(['v2'])
  })
})
