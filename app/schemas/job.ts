import { z } from 'zod'
import { FORCE_MESSAGE } from './confirm'
import { ALTER_SQL, SOURCE_KINDS, transformOf } from './job-values'
import { NAME_MAX_LENGTH } from './table'

export { FORCE_WORD } from './confirm'
// The job forms' values and helpers live in a module without zod, which form pages import (decision 032).
export {
  alterTemplate,
  CLOUDS,
  isAlterJobSql,
  isTemplateOrEmpty,
  sourceSubtype,
  sourceUrl,
  SOURCE_KINDS,
  transformOf,
  transformValue,
} from './job-values'

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
      return (
        typeof form.table === 'string' &&
        typeof form.transform === 'string' &&
        transformOf(form.table, form.transform) === null
      )
    },
  })

type SourceField = 'url' | 'cloud' | 'bucketName' | 'bucketPath' | 'region' | 'endpoint'

/**
 * A refine that requires `field` when the source is `kind`. `when` makes zod run it beside other
 * fields' errors (by default an object's refine waits until every field passes).
 */
function requiredFor(kind: (typeof SOURCE_KINDS)[number], field: SourceField, message: string) {
  const applies = (value: { sourceKind?: unknown }) => (value.sourceKind === 'bucket' ? 'bucket' : 'url') === kind
  const check = (value: Partial<Record<SourceField | 'sourceKind', unknown>>) =>
    !applies(value) || Boolean(value[field])
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

export type PurgeForm = { confirm: string }
