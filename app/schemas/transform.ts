import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { ALL_COMPRESSIONS, isChanged, renderedColumnOf, renderedOf } from './transform-value'
import {
  COLUMN_MESSAGES,
  columnRuleIssues,
  TRANSFORM_MESSAGES,
  TRANSFORM_TYPES,
  transformNameProblem,
} from './transform-rules'

export {
  COLUMN_MESSAGES,
  COLUMN_TYPES,
  columnRuleInputOf,
  columnRuleIssues,
  COMPRESSIONS,
  parseElements,
  RESOLUTIONS,
  storedRuleNotes,
  TIME_TYPES,
  TRANSFORM_MESSAGES,
  TRANSFORM_NAME_MAX,
  TRANSFORM_TYPES,
  transformNameProblem,
} from './transform-rules'
export type { TransformType } from './transform-rules'

/** Transform form: the spec's rules (section 5), word for word where the spec gives the words. */

const optionalText = z.string().trim().optional()

/** What the form's intents that refill it from the server (infer, upload) are checked by: nothing. */
export const LooseFormSchema = z.object({}).passthrough()

export const ColumnSchema = z
  .object({
    // Checked in superRefine, so that one missing name does not hide the row's other rules.
    name: z.string().trim().default(''),
    type: z.string().default(''),
    format: optionalText,
    resolution: z.string().trim().optional(),
    primary: z.boolean().optional(),
    ignore: z.boolean().optional(),
    index: z.boolean().optional(),
    fulltext: z.boolean().optional(),
    elements: optionalText,
    /** The column's other datatype keys (source, default, script…) as JSON, edited as text. */
    extra: optionalText,
    /** The stored column (JSON) this row was rendered from; absent for a new row. */
    original: z.string().optional(),
  })
  .superRefine((column, ctx) => {
    const rendered = renderedColumnOf(column.original)
    const posted = formValueOfColumn(column)
    for (const issue of columnRuleIssues(column)) {
      // an unchanged stored value does not block a save: the rules are for what the operator types
      if (rendered && issue.fields.every((field) => !isChanged(field, posted[field], rendered))) continue
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message })
    }
  })

/** A parsed row back as the strings a browser posted (to compare with the rendered original). */
function formValueOfColumn(column: ColumnForm): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(column))
    out[key] = value === true ? 'on' : value === false ? undefined : value
  return out
}

export type ColumnForm = z.infer<typeof ColumnSchema>

const wholeNumber = (message: string) =>
  z
    .number({ error: message })
    .refine((value) => Number.isSafeInteger(value) && value >= 0, { error: message })
    .optional()

export const TransformFormSchema = z
  .object({
    /** `projectId/tableId` of the table the transform belongs to. */
    table: z.string({ error: TRANSFORM_MESSAGES.tableRequired }).min(1, { error: TRANSFORM_MESSAGES.tableRequired }),
    // the spec's name rules are checked in superRefine (not on a stored name left unchanged)
    name: z
      .string({ error: TRANSFORM_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: TRANSFORM_MESSAGES.nameRequired }),
    description: optionalText,
    type: z.enum(TRANSFORM_TYPES, { error: TRANSFORM_MESSAGES.typeRequired }),
    columns: z
      .array(ColumnSchema, { error: TRANSFORM_MESSAGES.columnsRequired })
      .min(1, { error: TRANSFORM_MESSAGES.columnsRequired }),
    // CSV format options
    delimiter: z.string().optional(),
    quote: z.string().optional(),
    comment: z.string().optional(),
    escape: z.string().optional(),
    skipHead: wholeNumber(TRANSFORM_MESSAGES.skipHeadInteger),
    skipComments: z.boolean().optional(),
    windowsEnding: z.boolean().optional(),
    bufferSize: wholeNumber(TRANSFORM_MESSAGES.bufferSizeInteger).refine((value) => value !== 0, {
      error: TRANSFORM_MESSAGES.bufferSizeInteger,
    }),
    // JSON flattening
    flatteningActive: z.boolean().optional(),
    depth: wholeNumber(TRANSFORM_MESSAGES.depthInteger),
    mapLeft: z.string().optional(),
    mapRight: z.string().optional(),
    sliceLeft: z.string().optional(),
    sliceRight: z.string().optional(),
    // settings
    isDefault: z.boolean().optional(),
    nullValues: z.string().optional(),
    compression: z.string().optional(),
    sql: z.string().optional(),
    sampleData: z.string().optional(),
    /** The stored transform (JSON, without its columns) the form was rendered from; absent on create. */
    original: z.string().optional(),
  })
  .superRefine(
    (form, ctx) => {
      const rendered = renderedOf(form.original)
      const columns = Array.isArray(form.columns) ? form.columns : []
      if (typeof form.name === 'string' && form.name && isChanged('name', form.name, rendered)) {
        const nameProblem = transformNameProblem(form.name)
        if (nameProblem) ctx.addIssue({ code: 'custom', path: ['name'], message: nameProblem })
      }
      if (isChanged('compression', form.compression, rendered) && !ALL_COMPRESSIONS.includes(form.compression ?? ''))
        ctx.addIssue({ code: 'custom', path: ['compression'], message: TRANSFORM_MESSAGES.compression })
      // a row the operator added, or whose name / primary / type they changed, brings the transform-wide rules
      const touched = columns.map((column) => {
        if (!column) return true
        const before = renderedColumnOf(column.original)
        const posted = formValueOfColumn(column)
        return !before || ['name', 'primary', 'type'].some((field) => isChanged(field, posted[field], before))
      })
      const seen = new Map<string, number>()
      columns.forEach((column, index) => {
        const first = seen.get(column.name)
        if (first !== undefined && (touched[index] || touched[first]))
          ctx.addIssue({ code: 'custom', path: ['columns', index, 'name'], message: COLUMN_MESSAGES.duplicate })
        if (first === undefined) seen.set(column.name, index)
      })
      const primaries = columns.filter((column) => column?.primary).length
      if (columns.length && primaries !== 1 && (touched.some(Boolean) || !rendered))
        ctx.addIssue({ code: 'custom', path: ['columns'], message: COLUMN_MESSAGES.onePrimary })
    },
    // also when other fields fail, so that every rule answers at once
    { when: () => true },
  )

/**
 * The edit form's schema: its table is the transform's own, a hidden field the page sets (a refusal
 * of it says the form could not be read as sent, at the top of the form).
 */
export const TransformEditSchema = TransformFormSchema.safeExtend({ table: setByThePage() })

export type TransformForm = z.infer<typeof TransformFormSchema>

/** What a form keeps as text: every field a string (or a list of column records), as conform holds it. */
export type TransformFormValue = Record<string, unknown> & { columns?: Record<string, unknown>[] }

/** How sample data reads: JSON (one value, an array or JSON lines), CSV, or neither. */
export function sampleKind(text: string): 'json' | 'csv' | 'empty' | 'invalid' {
  const trimmed = text.trim()
  if (!trimmed) return 'empty'
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed)
      return 'json'
    } catch {
      const lines = trimmed.split(/\r?\n/).filter((line) => line.trim())
      try {
        lines.forEach((line) => JSON.parse(line))
        return 'json'
      } catch {
        return 'invalid'
      }
    }
  }
  return 'csv'
}

/** The spec's "must match the transform type" check; returns the error or undefined. */
export function sampleError(text: string, type: string): string | undefined {
  const kind = sampleKind(text)
  if (kind === 'empty') return TRANSFORM_MESSAGES.sampleRequired
  if (kind === 'invalid') return TRANSFORM_MESSAGES.sampleInvalid
  if (type === 'csv' && kind !== 'csv') return TRANSFORM_MESSAGES.sampleInvalid
  if (type !== 'csv' && kind !== 'json') return TRANSFORM_MESSAGES.sampleInvalid
  return undefined
}

/** A transform given as JSON text: an object with a type and settings.output_columns; else undefined. */
export function parseTransformJson(
  text: string,
): { name?: string; type?: string; settings: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(text) as { name?: unknown; type?: unknown; settings?: { output_columns?: unknown } }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
    if (!value.settings || typeof value.settings !== 'object' || !Array.isArray(value.settings.output_columns))
      return undefined
    return {
      name: typeof value.name === 'string' ? value.name : undefined,
      type: typeof value.type === 'string' ? value.type : undefined,
      settings: value.settings as Record<string, unknown>,
    }
  } catch {
    return undefined
  }
}

/** /data/validate-transform: a transform (JSON) and sample data, checked by the cluster's /validator. */
export const ValidateTransformSchema = z
  .object({
    table: z.string().optional(),
    schema: z
      .string({ error: TRANSFORM_MESSAGES.schemaJson })
      .refine((text) => parseTransformJson(text) !== undefined, { error: TRANSFORM_MESSAGES.schemaJson }),
    sampleData: z.string({ error: TRANSFORM_MESSAGES.sampleRequired }),
  })
  .superRefine((form, ctx) => {
    const transform = parseTransformJson(form.schema)
    if (!transform) return
    const problem = sampleError(form.sampleData, transform.type ?? 'json')
    if (problem) ctx.addIssue({ code: 'custom', path: ['sampleData'], message: problem })
  })
