import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ClusterApi } from '~/api/client.server'
import { clearSchemaCache, loadSchemaCached, SCHEMA_REFRESH_MS, type Schema } from './__schema.server'

const api = { orgId: 'org', userId: 'user' } as ClusterApi
const schema = (name: string): Schema => ({
  tables: [{ uuid: name, project: 'p', name, columns: [] }],
  functions: [],
  dictionaries: [],
})
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
    expect(await names(loadSchemaCached(api, load))).toEqual(['v1'])
    version = 2
    vi.setSystemTime(start + SCHEMA_REFRESH_MS - 1)
    expect(await names(loadSchemaCached(api, load))).toEqual(['v1'])
    expect(load).toHaveBeenCalledTimes(1)
    // past 45 s: answered at once with what was kept, one read started
    vi.setSystemTime(start + SCHEMA_REFRESH_MS + 1)
    expect(await names(loadSchemaCached(api, load))).toEqual(['v1'])
    expect(await names(loadSchemaCached(api, load))).toEqual(['v2'])
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps what it has when the read behind fails, and never answers with a schema older than a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const load = vi.fn(async () => schema('old'))
    await loadSchemaCached(api, load)
    vi.setSystemTime(start + SCHEMA_REFRESH_MS + 1)
    const failing = vi.fn(async (): Promise<Schema> => {
      throw new Error('cluster down')
    })
    expect(await names(loadSchemaCached(api, failing))).toEqual(['old'])
    await Promise.resolve()
    // the next view tries again (and fails again)
    expect(await names(loadSchemaCached(api, failing))).toEqual(['old'])
    expect(failing).toHaveBeenCalledTimes(2)
    // a minute after the read it came from, the view waits for a fresh one
    vi.setSystemTime(start + 60_000)
    const fresh = vi.fn(async () => schema('new'))
    expect(await names(loadSchemaCached(api, fresh))).toEqual(['new'])
    expect(fresh).toHaveBeenCalledTimes(1)
  })
})
