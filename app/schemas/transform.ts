import { z } from 'zod'

/** Transform form: the spec's rules (section 5), word for word where the spec gives the words. */

export const TRANSFORM_TYPES = ['csv', 'json', 'hdx'] as const
export type TransformType = (typeof TRANSFORM_TYPES)[number]

export const COLUMN_TYPES = [
  'string',
  'boolean',
  'int8',
  'uint8',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'double',
  'datetime',
  'epoch',
  'array',
  'map',
  'json',
] as const
export const TIME_TYPES = ['datetime', 'epoch']
export const RESOLUTIONS = ['ms', 's'] as const
export const COMPRESSIONS = ['none', 'gzip', 'zip', 'zlib', 'bzip2'] as const

/** Transform names: a letter first, then alphanumerics and underscores; under 64 symbols, as every name (spec section 9). */
export const TRANSFORM_NAME_MAX = 63

export const TRANSFORM_MESSAGES = {
  tableRequired: 'Table is required',
  nameRequired: 'Name is required',
  nameStart: 'Name must not begin with a digit or special character',
  nameCharacters: 'Name may contain only alphanumerics and underscores',
  nameTooLong: 'Name must be under 64 symbols',
  typeRequired: 'Type is required',
  columnsRequired: 'Add at least one output column',
  sampleCsvRequired: 'A sample CSV with headers is required',
  fileRequired: 'A file is required for upload',
  sampleInvalid: 'Sample data must be valid JSON or CSV and must match the transform type',
  schemaJson: 'Schema must be valid JSON',
  nonJsonUpload: 'The uploaded data is a non-json file',
  downloadFailed: 'Error during the download of the transform.',
  downloadInvalid: 'The downloaded transform is invalid',
  publishFailed: 'Error publishing transform',
  sampleRequired: 'Paste or upload sample data to validate',
  depthInteger: 'Depth must be a whole number',
  skipHeadInteger: 'Skip head must be a whole number',
} as const

export const COLUMN_MESSAGES = {
  nameRequired: 'Column name is required',
  typeRequired: 'Column type is required',
  formatRequired: 'Format is required if type is datetime or epoch',
  primaryTime: 'Primary only if datetime or epoch',
  fulltextIndex: 'Fulltext needs index enabled',
  resolution: 'Resolution must be ms or s',
  primaryIgnored: 'A primary column cannot be ignored',
  indexDouble: 'Index cannot be enabled for double',
  elementsOnly: 'Elements only for array or map',
  elementsNeeded: 'Array needs one element type, map two (key, value)',
  elementsType: 'Unknown element type',
  onePrimary: 'Exactly one output column must be primary',
  duplicate: 'Column names must be unique',
} as const

/** "string" or "string, uint64" → the element types; blank → []. */
export function parseElements(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

const optionalText = z.string().trim().optional()

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
    /** The column's other datatype keys (source, default, script…), kept as JSON across edits. */
    extra: optionalText,
  })
  .superRefine((column, ctx) => {
    if (!column.name) ctx.addIssue({ code: 'custom', path: ['name'], message: COLUMN_MESSAGES.nameRequired })
    if (!(COLUMN_TYPES as readonly string[]).includes(column.type))
      ctx.addIssue({ code: 'custom', path: ['type'], message: COLUMN_MESSAGES.typeRequired })
    const isTime = TIME_TYPES.includes(column.type)
    if (isTime && !column.format)
      ctx.addIssue({ code: 'custom', path: ['format'], message: COLUMN_MESSAGES.formatRequired })
    if (column.primary && !isTime)
      ctx.addIssue({ code: 'custom', path: ['primary'], message: COLUMN_MESSAGES.primaryTime })
    if (column.fulltext && !column.index)
      ctx.addIssue({ code: 'custom', path: ['fulltext'], message: COLUMN_MESSAGES.fulltextIndex })
    if (column.resolution && !(RESOLUTIONS as readonly string[]).includes(column.resolution)) {
      ctx.addIssue({ code: 'custom', path: ['resolution'], message: COLUMN_MESSAGES.resolution })
    }
    if (column.primary && column.ignore)
      ctx.addIssue({ code: 'custom', path: ['ignore'], message: COLUMN_MESSAGES.primaryIgnored })
    if (column.index && column.type === 'double')
      ctx.addIssue({ code: 'custom', path: ['index'], message: COLUMN_MESSAGES.indexDouble })
    const elements = parseElements(column.elements)
    if (elements.length && column.type !== 'array' && column.type !== 'map') {
      ctx.addIssue({ code: 'custom', path: ['elements'], message: COLUMN_MESSAGES.elementsOnly })
    } else if ((column.type === 'array' && elements.length !== 1) || (column.type === 'map' && elements.length !== 2)) {
      ctx.addIssue({ code: 'custom', path: ['elements'], message: COLUMN_MESSAGES.elementsNeeded })
    } else if (elements.some((type) => !(COLUMN_TYPES as readonly string[]).includes(type))) {
      ctx.addIssue({ code: 'custom', path: ['elements'], message: COLUMN_MESSAGES.elementsType })
    }
  })

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
    name: z
      .string({ error: TRANSFORM_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: TRANSFORM_MESSAGES.nameRequired })
      .regex(/^[A-Za-z]/, { error: TRANSFORM_MESSAGES.nameStart })
      .regex(/^.[A-Za-z0-9_]*$/, { error: TRANSFORM_MESSAGES.nameCharacters })
      .max(TRANSFORM_NAME_MAX, { error: TRANSFORM_MESSAGES.nameTooLong }),
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
    compression: z.enum(COMPRESSIONS).optional(),
    sql: z.string().optional(),
    sampleData: z.string().optional(),
  })
  .superRefine((form, ctx) => {
    const seen = new Set<string>()
    form.columns.forEach((column, index) => {
      if (seen.has(column.name))
        ctx.addIssue({ code: 'custom', path: ['columns', index, 'name'], message: COLUMN_MESSAGES.duplicate })
      seen.add(column.name)
    })
    const primaries = form.columns.filter((column) => column.primary).length
    if (form.columns.length && primaries !== 1)
      ctx.addIssue({ code: 'custom', path: ['columns'], message: COLUMN_MESSAGES.onePrimary })
  })

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
