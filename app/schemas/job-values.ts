import { sqlName, tableRef } from '~/utils/sql'
import type { BatchJobForm } from './job'

// The job forms' values and helpers, without zod: the form pages import them, and the schemas in
// job.ts, which the browser loads only after hydration (decision 032).

/** `ALTER TABLE p.t UPDATE|DELETE …` or `DELETE FROM p.t WHERE …`: what the query API turns into a job. */
const TABLE_REF = String.raw`(?:\`(?:[^\`\\]|\\.)*\`|[^\s\`])+`
export const ALTER_SQL = new RegExp(
  String.raw`^\s*(ALTER\s+TABLE\s+${TABLE_REF}\s+(UPDATE|DELETE)\b|DELETE\s+FROM\s+${TABLE_REF}\s+WHERE\b)`,
  'i',
)

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
  return (
    !sql.trim() || /^ALTER TABLE (`(?:[^`\\]|\\.)*`|[^\s.`]+)\.(`(?:[^`\\]|\\.)*`|[^\s`]+) DELETE WHERE\s*$/.test(sql)
  )
}

export const CLOUDS = [
  { value: 'aws', label: 'AWS (s3://)', scheme: 's3', subtype: 'aws s3' },
  { value: 'gcp', label: 'Google Cloud (gs://)', scheme: 'gs', subtype: 'gcp gcs' },
  { value: 'azure', label: 'Azure (azure://)', scheme: 'azure', subtype: 'azure blob' },
  { value: 'linode', label: 'Linode (s3://)', scheme: 's3', subtype: 'linode s3' },
] as const

/** Where the files come from: one URL, or a bucket described field by field. */
export const SOURCE_KINDS = ['url', 'bucket'] as const

/** A transform option's value: the table it belongs to and its name (`project.table:name`). */
export function transformValue(table: string, name: string): string {
  return `${table}:${name}`
}

/** The transform name of a `project.table:name` value when it belongs to `table`, else null. */
export function transformOf(table: string | undefined, value: string | undefined): string | null {
  if (!table || !value || !value.startsWith(`${table}:`)) return null
  return value.slice(table.length + 1) || null
}

/** The URL a batch job reads: the URL field, or `{scheme}://{bucket}/{path}` built from the bucket fields. */
export function sourceUrl(form: BatchJobForm): string {
  if (form.sourceKind !== 'bucket') return form.url ?? ''
  const cloud = CLOUDS.find((entry) => entry.value === form.cloud)
  const path = (form.bucketPath ?? '').replace(/^\/+/, '')
  return `${cloud?.scheme ?? form.cloud}://${form.bucketName}/${path}`
}

/** The cluster's source subtype for a URL or cloud ("aws s3" for s3://, …). */
export function sourceSubtype(form: BatchJobForm): string {
  if (form.sourceKind === 'bucket')
    return CLOUDS.find((entry) => entry.value === form.cloud)?.subtype ?? String(form.cloud)
  const scheme = /^([a-z0-9]+):\/\//i.exec(form.url ?? '')?.[1]?.toLowerCase()
  if (!scheme || scheme === 'file') return 'local'
  return CLOUDS.find((entry) => entry.scheme === scheme)?.subtype ?? scheme
}
