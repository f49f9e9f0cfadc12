import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import { TABLE_MESSAGES, tableNameField } from './table'
import { AGGREGATIONS, SUMMARY_MESSAGES, TIME_UNITS } from './summary-values'

// The summary forms' words and choices have no zod: their pages import them from there (decision 077).
export { AGGREGATION_LABELS, AGGREGATIONS, SUMMARY_MESSAGES, TIME_UNITS } from './summary-values'

/** The Summary Form tab (create): project, name, description, parent table (`<projectId>/<tableId>`), SQL. */
export const SummaryFormSchema = z.object({
  project: z.string({ error: TABLE_MESSAGES.projectRequired }),
  name: tableNameField(),
  description: z.string().trim().optional(),
  parent: z.string({ error: SUMMARY_MESSAGES.parentRequired }),
  sql: z.string({ error: SUMMARY_MESSAGES.sqlRequired }).trim().min(1, { error: SUMMARY_MESSAGES.sqlRequired }),
  /** The Summary Settings tab of a new table: "on" when enabled (a hidden field on the Form tab). */
  enabled: setByThePage().optional(),
  /** "on" once that tab was shown (before, the table is enabled whatever `enabled` says): hidden. */
  settingsShown: setByThePage().optional(),
})

/** The Summary Settings tab (edit): enabled and the SQL. */
export const SummarySettingsSchema = z.object({
  enabled: z.string().optional(),
  sql: z.string({ error: SUMMARY_MESSAGES.sqlRequired }).trim().min(1, { error: SUMMARY_MESSAGES.sqlRequired }),
})

/** Where each Summary Settings field is written in the table's `settings.summary`. */
export const SUMMARY_SETTINGS_PLACES: FieldPlaces = { enabled: [['enabled']], sql: [['sql']] }

/** The Summary Settings fields posted as rendered from the stored summary (browser and action alike). */
export function keptSummarySettingsFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, SUMMARY_SETTINGS_PLACES, ['sql'])
}

/** The Summary Settings schema with `kept` fields not checked again (an unchanged SQL is not run again either). */
export function summarySettingsSchema(kept: readonly string[] = []) {
  if (!kept.includes('sql')) return SummarySettingsSchema
  return SummarySettingsSchema.extend({ sql: z.string().optional() }) as unknown as typeof SummarySettingsSchema
}

/** The Summary Settings tab's lossless rule (decision 103): the browser's check and the action's parse. */
export const summarySettingsEditForm = defineEditForm({
  name: 'summary settings',
  kept: keptSummarySettingsFields,
  schemaOf: (formData) => summarySettingsSchema(keptSummarySettingsFields(formData)),
  // a summary whose SQL another tool left blank (stored, it is the cluster's to say)
  example: { rendered: { enabled: 'on', sql: '' }, context: undefined, strict: SummarySettingsSchema },
})

const positiveInt = (required: string | undefined, positive: string) =>
  (required ? z.string({ error: required }) : z.string()).refine(
    (text) => /^\d+$/.test(text.trim()) && Number(text) > 0,
    { error: positive },
  )

/**
 * The Column Analysis tab: the parent, the timestamp column bucketed by `timestampValue`
 * `timestampUnit`, each column's aggregation, an optional WHERE clause and an optional timeframe
 * (only rows of the last `timeframeValue` `timeframeUnit`s).
 */
export const ColumnAnalysisSchema = z
  .object({
    parent: z.string({ error: SUMMARY_MESSAGES.parentRequired }),
    timestampColumn: z.string({ error: SUMMARY_MESSAGES.timestampColumnRequired }),
    timestampValue: positiveInt(SUMMARY_MESSAGES.timestampRequired, SUMMARY_MESSAGES.timestampPositive),
    timestampUnit: z.enum(TIME_UNITS),
    timeframeValue: positiveInt(undefined, SUMMARY_MESSAGES.timeframePositive).optional(),
    timeframeUnit: z.enum(TIME_UNITS).optional(),
    where: z.string().trim().optional(),
    columns: z.array(z.object({ name: z.string(), aggregation: z.enum(AGGREGATIONS).optional() })).optional(),
  })
  .superRefine((value, ctx) => {
    const used = (value.columns ?? []).filter((column) => column.aggregation && column.aggregation !== 'skip')
    if (!used.length) ctx.addIssue({ code: 'custom', path: ['columns'], message: SUMMARY_MESSAGES.columnsRequired })
    if (value.where) {
      const aggregated = used.filter(
        (column) =>
          column.aggregation !== 'group' &&
          new RegExp(`(^|[^\\w.])\`?${column.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?([^\\w.]|$)`).test(
            value.where!,
          ),
      )
      if (aggregated.length)
        ctx.addIssue({ code: 'custom', path: ['where'], message: SUMMARY_MESSAGES.illegalAggregation })
    }
  })

export type ColumnAnalysis = z.infer<typeof ColumnAnalysisSchema>

const quote = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '\\`')}\``)

/** The summary SQL a column analysis stands for (`parentRef` is `project.table`, quoted as needed). */
export function buildSummarySql(analysis: ColumnAnalysis, parentRef: string): string {
  const bucket =
    `toStartOfInterval(${quote(analysis.timestampColumn)}, ` +
    `INTERVAL ${Number(analysis.timestampValue)} ${analysis.timestampUnit.toUpperCase()})`
  const used = (analysis.columns ?? []).filter(
    (column) => column.aggregation && column.aggregation !== 'skip' && column.name !== analysis.timestampColumn,
  )
  const groups = used.filter((column) => column.aggregation === 'group').map((column) => quote(column.name))
  const aggregates = used
    .filter((column) => column.aggregation !== 'group')
    .map((column) =>
      column.aggregation === 'count'
        ? `count() AS ${quote(`count_${column.name}`.replace(/\W/g, '_'))}`
        : `${column.aggregation}(${quote(column.name)}) AS ${quote(`${column.aggregation}_${column.name}`.replace(/\W/g, '_'))}`,
    )
  const where = [
    analysis.where ? `(${analysis.where})` : '',
    analysis.timeframeValue
      ? `${quote(analysis.timestampColumn)} >= now() - ` +
        `INTERVAL ${Number(analysis.timeframeValue)} ${(analysis.timeframeUnit ?? 'day').toUpperCase()}`
      : '',
  ].filter(Boolean)
  return [
    `SELECT ${[`${bucket} AS time_bucket`, ...groups, ...aggregates].join(', ')}`,
    `FROM ${parentRef}`,
    where.length ? `WHERE ${where.join(' AND ')}` : '',
    `GROUP BY ${['time_bucket', ...groups].join(', ')}`,
    `SETTINGS hdx_primary_key='time_bucket'`,
  ]
    .filter(Boolean)
    .join('\n')
}
