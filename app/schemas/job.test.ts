import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import {
  AlterJobFormSchema,
  alterTemplate,
  BatchJobFormSchema,
  isTemplateOrEmpty,
  sourceSubtype,
  sourceUrl,
  transformOf,
  transformValue,
  type BatchJobForm,
} from './job'

const form = (fields: Partial<BatchJobForm>): BatchJobForm =>
  ({ name: 'n', table: 'p.t', transform: 'p.t:x', sourceKind: 'url', ...fields }) as BatchJobForm

describe('job schemas', () => {
  it('templates and recognises an untouched template', () => {
    expect(alterTemplate('p.t')).toBe('ALTER TABLE p.t DELETE WHERE ')
    expect(isTemplateOrEmpty('')).toBe(true)
    expect(isTemplateOrEmpty(alterTemplate('a.b'))).toBe(true)
    expect(isTemplateOrEmpty('ALTER TABLE a.b DELETE WHERE x = 1')).toBe(false)
  })

  it('keeps a transform only when it belongs to the table', () => {
    expect(transformOf('p.t', transformValue('p.t', 'json_in'))).toBe('json_in')
    expect(transformOf('p.t', 'p.other:json_in')).toBeNull()
    expect(transformOf('p.t', 'p.t:')).toBeNull()
    expect(transformOf(undefined, 'p.t:x')).toBeNull()
  })

  it('builds the URL and subtype from the bucket fields, or reads them from the URL', () => {
    const bucket = form({ sourceKind: 'bucket', cloud: 'gcp', bucketName: 'logs', bucketPath: '/2026/01/' })
    expect(sourceUrl(bucket)).toBe('gs://logs/2026/01/')
    expect(sourceSubtype(bucket)).toBe('gcp gcs')
    expect(sourceUrl(form({ url: 's3://sample-bucket/web-logs/' }))).toBe('s3://sample-bucket/web-logs/')
    expect(sourceSubtype(form({ url: 's3://sample-bucket/web-logs/' }))).toBe('aws s3')
    expect(sourceSubtype(form({ url: 'file:///data/in/' }))).toBe('local')
    expect(sourceSubtype(form({ url: '/data/in/' }))).toBe('local')
  })

  it('asks for the URL or for every bucket field, depending on the source kind', () => {
    const parse = (fields: Record<string, string>) => {
      const data = new FormData()
      for (const [key, value] of Object.entries({ name: 'n', table: 'p.t', transform: 'p.t:x', ...fields }))
        data.set(key, value)
      return parseWithZod(data, { schema: BatchJobFormSchema }).reply().error ?? {}
    }
    expect(parse({ sourceKind: 'url' })).toEqual({ url: ['URL is required'] })
    expect(Object.keys(parse({ sourceKind: 'bucket', cloud: 'aws', bucketName: 'b' }))).toEqual([
      'bucketPath',
      'region',
      'endpoint',
    ])
    expect(parse({ sourceKind: 'url', url: 's3://b/p/' })).toEqual({})
  })
})

describe('alter templates quote names that are not plain identifiers', () => {
  it('backticks each part, and the quoted template still counts as a template and as alter SQL', () => {
    const sql = alterTemplate('my-proj.My Table')
    expect(sql).toBe('ALTER TABLE `my-proj`.`My Table` DELETE WHERE ')
    expect(isTemplateOrEmpty(sql)).toBe(true)
    expect(AlterJobFormSchema.safeParse({ sql: `${sql}status = 500` }).success).toBe(true)
  })
})
