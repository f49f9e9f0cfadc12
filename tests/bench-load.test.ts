import { describe, expect, it } from 'vitest'
import { parseEnvList } from '../bench/against'
import { ROLE_MIX } from '../bench/bench-users'
import { clusterCallsOf } from '../bench/sessions'

describe('the load bench (issue 52, decision 102)', () => {
  it("reads each step's clusterCalls from the console's request log, the table page by its path", () => {
    const log = [
      { req: { method: 'GET', path: '/dashboard' }, clusterCalls: 3 },
      { req: { method: 'GET', path: '/dashboard' }, clusterCalls: 5 },
      { req: { method: 'GET', path: '/data/tables/0b4e8a2c-1111-4c4c-9d9d-123456789abc?project=x' }, clusterCalls: 19 },
      { req: { method: 'GET', path: '/healthz' }, clusterCalls: 0 },
      { req: { method: 'POST', path: '/profile/settings' }, clusterCalls: 0 },
    ]
      .map((line) => JSON.stringify(line))
      .concat(['not json', '{"broken":'])
      .join('\n')
    const calls = clusterCallsOf(log)
    expect(calls.dashboard).toEqual({ mean: 4, max: 5 })
    expect(calls.table).toEqual({ mean: 19, max: 19 })
    expect(calls['save setting']).toEqual({ mean: 0, max: 0 })
    // a build whose log has no clusterCalls (or no such request) says so rather than 0
    expect(calls['batch jobs']).toBeNull()
  })

  it("takes a side's switches as NAME=value pairs", () => {
    expect(parseEnvList('MAX_CONCURRENT_REQUESTS=0,LOG_LEVEL=warn')).toEqual({
      MAX_CONCURRENT_REQUESTS: '0',
      LOG_LEVEL: 'warn',
    })
    expect(parseEnvList(undefined)).toEqual({})
  })

  it('signs in as the roles of a real org, a project-scoped one among them', () => {
    expect(new Set(ROLE_MIX)).toEqual(new Set(['org_admin', 'operator', 'publisher', 'reader', 'project:reader']))
  })
})
