import { describe, expect, it } from 'vitest'
import { kindOfPool, kindOfService, parseCpu, parseReplicas, parseSize, replicasValue } from './pool'

describe('pool sizes', () => {
  it('reads Kubernetes quantities as bytes and cores', () => {
    expect(parseSize('2Gi')).toBe(2 * 2 ** 30)
    expect(parseSize('512Mi')).toBe(512 * 2 ** 20)
    expect(parseSize('1G')).toBe(1e9)
    expect(parseSize('0.5Gi')).toBe(2 ** 29)
    expect(parseSize(1024)).toBe(1024)
    expect(parseSize('lots')).toBeNull()
    expect(parseSize('-1Gi')).toBeNull()
    expect(parseCpu('500m')).toBe(0.5)
    expect(parseCpu('2')).toBe(2)
    expect(parseCpu(1.5)).toBe(1.5)
    expect(parseCpu('2 cores')).toBeNull()
  })

  it('reads replicas as a range, a fixed count being min = max', () => {
    expect(parseReplicas('3')).toEqual({ min: 3, max: 3 })
    expect(parseReplicas(2)).toEqual({ min: 2, max: 2 })
    expect(parseReplicas('1-5')).toEqual({ min: 1, max: 5 })
    expect(parseReplicas('1 - 5')).toEqual({ min: 1, max: 5 })
    expect(parseReplicas('many')).toBeNull()
    expect(parseReplicas(1.5)).toBeNull()
    expect(replicasValue({ minReplicas: 0, maxReplicas: 4 })).toBe('0-4')
    expect(replicasValue({ replicas: 0 })).toBe('0')
    expect(replicasValue({})).toBeUndefined()
  })

  it('sorts pools into ingest, search and core by type, else by service', () => {
    expect(kindOfService('query-peer')).toBe('search')
    expect(kindOfService('stream-head')).toBe('ingest')
    expect(kindOfService('nope')).toBeNull()
    expect(kindOfPool('search', 'merge-peer')).toBe('search')
    expect(kindOfPool(null, 'merge-peer')).toBe('core')
    expect(kindOfPool('weird', 'kafka-peer')).toBe('ingest')
    expect(kindOfPool(undefined, undefined)).toBe('core')
  })
})
