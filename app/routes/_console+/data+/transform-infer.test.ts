import { describe, expect, it } from 'vitest'
import { inferTransform } from './__transform-infer'

const summary = (sample: string, type?: 'csv' | 'json', delimiter?: string) => {
  const inferred = inferTransform(sample, type, delimiter)!
  return inferred.columns.map(
    (c) =>
      `${c.name}:${c.type}${c.format ? `(${c.format})` : ''}${c.elements ? `<${c.elements}>` : ''}${c.primary ? '*' : ''}`,
  )
}

describe('inferTransform', () => {
  it('CloudFront-style tab-separated log: date and time apart joined by a virtual primary timestamp, numbers', () => {
    const tsv = [
      'date\ttime\tx-edge-location\tsc-bytes\tc-ip\tcs-method\tcs(Host)\tcs-uri-stem\tsc-status\ttime-taken',
      '2024-05-01\t10:00:00\tFRA2-C1\t2048\t10.0.0.1\tGET\td111.cloudfront.net\t/index.html\t200\t0.012',
      '2024-05-01\t10:00:01\tFRA2-C1\t512\t10.0.0.2\tGET\td111.cloudfront.net\t/app.js\t304\t0.001',
    ].join('\n')
    expect(summary(tsv, 'csv', '\t')).toEqual([
      'timestamp:datetime(2006-01-02 15:04:05)*',
      'date:string',
      'time:string',
      'x-edge-location:string',
      'sc-bytes:uint64',
      'c-ip:string',
      'cs-method:string',
      'cs(Host):string',
      'cs-uri-stem:string',
      'sc-status:uint64',
      'time-taken:double',
    ])
  })

  it('nested JSON web logs: dotted names, arrays, maps with varying keys, an RFC 3339 timestamp with milliseconds', () => {
    const lines = [
      '{"@timestamp":"2024-05-01T10:00:00.123Z","http":{"method":"GET","status":200,' +
        '"bytes":512},"tags":["web","eu"],"labels":{"team":"a"},"user":null}',
      '{"@timestamp":"2024-05-01T10:00:01.456Z","http":{"method":"POST","status":500,"bytes":0},' +
        '"tags":[],"labels":{"team":"b","env":"prod"},"user":"kim"}',
    ].join('\n')
    const inferred = inferTransform(lines)!
    expect(inferred.flattening).toBe(true)
    expect(summary(lines)).toEqual([
      '@timestamp:datetime(2006-01-02T15:04:05.000Z)*',
      'http.method:string',
      'http.status:uint64',
      'http.bytes:uint64',
      'tags:array<string>',
      'labels:map<string, string>',
      'user:string',
    ])
  })

  it('CSV with epoch milliseconds, negative numbers, booleans and an Apache time', () => {
    const csv = [
      'ts,delta,ok,seen',
      '1714557600123,-5,true,01/May/2024:10:00:00 +0000',
      '1714557600456,7,false,01/May/2024:10:00:01 +0000',
    ].join('\n')
    expect(summary(csv)).toEqual([
      'ts:epoch(ms)*',
      'delta:int64',
      'ok:boolean',
      'seen:datetime(02/Jan/2006:15:04:05 -0700)',
    ])
  })

  it('says so when there is no timestamp, and reads nothing from an empty sample', () => {
    expect(inferTransform('a,b\n1,2')!.notes[0]).toMatch(/No timestamp column was recognised/)
    expect(inferTransform('   ')).toBeNull()
  })
})
