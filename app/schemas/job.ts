import { z } from 'zod'
import { sqlName, tableRef } from '~/utils/sql'
import { FORCE_MESSAGE } from './confirm'
import { NAME_MAX_LENGTH } from './table'

export { FORCE_WORD } from './confirm'

export const JOB_MESSAGES = {
  sqlRequired: 'SQL is required',
  sqlNotAlter: 'Only ALTER TABLE project.table UPDATE … WHERE … or DELETE WHERE … statements create alter jobs',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  urlRequired: 'URL is required',
  tableRequired: 'Table is required',
  transformRequired: 'Transform is required',
  transformOfTable: 'Pick a transform of the selected table',
  bucketNameRequired: 'Bucket name is required',
  cloudRequired: 'Cloud is required',
  regionRequired: 'Region is required',
  endpointRequired: 'Endpoint is required',
  bucketPathRequired: 'Bucket path is required',
  wholeNumber: 'Must be a whole number, 0 or more',
  regexInvalid: 'Regex filter must be a valid regular expression',
  forceRequired: FORCE_MESSAGE,
} as const

/** `ALTER TABLE p.t UPDATE|DELETE …` or `DELETE FROM p.t WHERE …`: what the query API turns into a job. */
const TABLE_REF = String.raw`(?:\`(?:[^\`\\]|\\.)*\`|[^\s\`])+`
const ALTER_SQL = new RegExp(String.raw`^\s*(ALTER\s+TABLE\s+${TABLE_REF}\s+(UPDATE|DELETE)\b|DELETE\s+FROM\s+${TABLE_REF}\s+WHERE\b)`, 'i')

/** Whether `sql` is a statement the query API turns into an alter job (rather than running it). */
export function isAlterJobSql(sql: string): boolean {
  return ALTER_SQL.test(sql)
}

/** Returns the SQL template for a new alter job on `table` (`project.table`). */
export function alterTemplate(table: string): string {
  const dot = table.indexOf('.')
  const ref = dot > 0 ? tableRef(table.slice(0, dot), table.slice(dot + 1)) : sqlName(table)
  return `ALTER TABLE ${ref} DELETE WHERE `
}

/** Whether `sql` is empty or one of the templates, i.e. nothing the user typed would be lost by replacing it. */
export function isTemplateOrEmpty(sql: string): boolean {
  return !sql.trim() || /^ALTER TABLE (`(?:[^`\\]|\\.)*`|[^\s.`]+)\.(`(?:[^`\\]|\\.)*`|[^\s`]+) DELETE WHERE\s*$/.test(sql)
}

/** The new alter job form: a table to fill the template and the SQL that makes the job. */
export const AlterJobFormSchema = z.object({
  table: z.string().optional(),
  sql: z
    .string({ error: JOB_MESSAGES.sqlRequired })
    .trim()
    .min(1, { error: JOB_MESSAGES.sqlRequired, abort: true })
    .refine((sql) => ALTER_SQL.test(sql), { error: JOB_MESSAGES.sqlNotAlter }),
})

const wholeNumber = z
  .number({ error: JOB_MESSAGES.wholeNumber })
  .refine((value) => Number.isSafeInteger(value) && value >= 0, { error: JOB_MESSAGES.wholeNumber })
  .optional()

export const CLOUDS = [
  { value: 'aws', label: 'AWS (s3://)', scheme: 's3', subtype: 'aws s3' },
  { value: 'gcp', label: 'Google Cloud (gs://)', scheme: 'gs', subtype: 'gcp gcs' },
  { value: 'azure', label: 'Azure (azure://)', scheme: 'azure', subtype: 'azure blob' },
  { value: 'linode', label: 'Linode (s3://)', scheme: 's3', subtype: 'linode s3' },
] as const

/** Where the files come from: one URL, or a bucket described field by field. */
export const SOURCE_KINDS = ['url', 'bucket'] as const

/**
 * The new batch job form. The source is a URL (`sourceKind=url`) or a bucket (`sourceKind=bucket`:
 * cloud, bucket name, bucket path, region and endpoint, from which the URL is built).
 */
export const BatchJobFormSchema = z
  .object({
    name: z
      .string({ error: JOB_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: JOB_MESSAGES.nameRequired })
      .max(NAME_MAX_LENGTH, { error: JOB_MESSAGES.nameTooLong }),
    description: z.string().trim().optional(),
    table: z.string({ error: JOB_MESSAGES.tableRequired }),
    transform: z.string({ error: JOB_MESSAGES.transformRequired }),
    sourceKind: z.enum(SOURCE_KINDS).default('url'),
    url: z.string().trim().optional(),
    cloud: z.string().optional(),
    bucketName: z.string().trim().optional(),
    bucketPath: z.string().trim().optional(),
    region: z.string().trim().optional(),
    endpoint: z.string().trim().optional(),
    credential: z.string().optional(),
    pool: z.string().optional(),
    sql: z.string().trim().optional(),
    dryRun: z.literal('on').optional(),
    maxFiles: wholeNumber,
    maxMinutes: wholeNumber,
    maxRows: wholeNumber,
    maxActive: wholeNumber,
    inputAggregation: wholeNumber,
    inputConcurrency: wholeNumber,
    regexFilter: z
      .string()
      .optional()
      .refine((text) => text === undefined || isRegExp(text), { error: JOB_MESSAGES.regexInvalid }),
  })
  .refine(...requiredFor('url', 'url', JOB_MESSAGES.urlRequired))
  .refine(...requiredFor('bucket', 'cloud', JOB_MESSAGES.cloudRequired))
  .refine(...requiredFor('bucket', 'bucketName', JOB_MESSAGES.bucketNameRequired))
  .refine(...requiredFor('bucket', 'bucketPath', JOB_MESSAGES.bucketPathRequired))
  .refine(...requiredFor('bucket', 'region', JOB_MESSAGES.regionRequired))
  .refine(...requiredFor('bucket', 'endpoint', JOB_MESSAGES.endpointRequired))
  .refine((value) => transformOf(value.table, value.transform) !== null, {
    path: ['transform'],
    error: JOB_MESSAGES.transformOfTable,
    when: ({ value }) => {
      const form = (value ?? {}) as { table?: unknown; transform?: unknown }
      return typeof form.table === 'string' && typeof form.transform === 'string' && transformOf(form.table, form.transform) === null
    },
  })

/** A transform option's value: the table it belongs to and its name (`project.table:name`). */
export function transformValue(table: string, name: string): string {
  return `${table}:${name}`
}

/** The transform name of a `project.table:name` value when it belongs to `table`, else null. */
export function transformOf(table: string | undefined, value: string | undefined): string | null {
  if (!table || !value || !value.startsWith(`${table}:`)) return null
  return value.slice(table.length + 1) || null
}

type SourceField = 'url' | 'cloud' | 'bucketName' | 'bucketPath' | 'region' | 'endpoint'

/**
 * A refine that requires `field` when the source is `kind`. `when` makes zod run it beside other
 * fields' errors (by default an object's refine waits until every field passes).
 */
function requiredFor(kind: (typeof SOURCE_KINDS)[number], field: SourceField, message: string) {
  const applies = (value: { sourceKind?: unknown }) => (value.sourceKind === 'bucket' ? 'bucket' : 'url') === kind
  const check = (value: Partial<Record<SourceField | 'sourceKind', unknown>>) => !applies(value) || Boolean(value[field])
  const params = {
      path: [field] as PropertyKey[],
      error: message,
      when: ({ value }: { value: unknown }) => {
        const form = (value ?? {}) as Partial<Record<SourceField | 'sourceKind', unknown>>
        return applies(form) && !form[field]
      },
    }
  return [check, params] as const
}

function isRegExp(text: string): boolean {
  try {
    new RegExp(text)
    return true
  } catch {
    return false
  }
}

export type BatchJobForm = z.infer<typeof BatchJobFormSchema>

/** The URL a batch job reads: the URL field, or `{scheme}://{bucket}/{path}` built from the bucket fields. */
export function sourceUrl(form: BatchJobForm): string {
  if (form.sourceKind !== 'bucket') return form.url ?? ''
  const cloud = CLOUDS.find((entry) => entry.value === form.cloud)
  const path = (form.bucketPath ?? '').replace(/^\/+/, '')
  return `${cloud?.scheme ?? form.cloud}://${form.bucketName}/${path}`
}

/** The cluster's source subtype for a URL or cloud ("aws s3" for s3://, …). */
export function sourceSubtype(form: BatchJobForm): string {
  if (form.sourceKind === 'bucket') return CLOUDS.find((entry) => entry.value === form.cloud)?.subtype ?? String(form.cloud)
  const scheme = /^([a-z0-9]+):\/\//i.exec(form.url ?? '')?.[1]?.toLowerCase()
  if (!scheme || scheme === 'file') return 'local'
  return CLOUDS.find((entry) => entry.scheme === scheme)?.subtype ?? scheme
}

export type PurgeForm = { confirm: string }
