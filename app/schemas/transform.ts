import { z } from 'zod'
import {
  ALL_COLUMN_TYPES,
  ALL_COMPRESSIONS,
  elementsProblem,
  isChanged,
  parseOriginal,
  parseTypeList,
  renderedColumnOf,
  renderedOf,
} from './transform-value'

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
  bufferSizeInteger: 'Buffer size must be a whole number greater than 0',
  compression: 'Unknown compression',
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
  elementsType: 'Unknown element type (write map<string, string> for nested types)',
  extraJson: 'Other keys must be a JSON object',
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

/** A column row's values as the rules read them. */
type ColumnRuleInput = {
  name?: string
  type?: string
  format?: string
  resolution?: string
  primary?: boolean
  ignore?: boolean
  index?: boolean
  fulltext?: boolean
  elements?: string
  extra?: string
}

/** The spec's column rules, each with the fields it reads (a rule on unchanged stored values does not block a save). */
export function columnRuleIssues(column: ColumnRuleInput): { path: string; message: string; fields: string[] }[] {
  const issues: { path: string; message: string; fields: string[] }[] = []
  const add = (path: string, message: string, fields: string[]) => issues.push({ path, message, fields })
  const type = column.type ?? ''
  if (!column.name) add('name', COLUMN_MESSAGES.nameRequired, ['name'])
  if (!(ALL_COLUMN_TYPES as readonly string[]).includes(type)) add('type', COLUMN_MESSAGES.typeRequired, ['type'])
  const isTime = TIME_TYPES.includes(type)
  if (isTime && !column.format) add('format', COLUMN_MESSAGES.formatRequired, ['type', 'format'])
  if (column.primary && !isTime) add('primary', COLUMN_MESSAGES.primaryTime, ['type', 'primary'])
  if (column.fulltext && !column.index) add('fulltext', COLUMN_MESSAGES.fulltextIndex, ['fulltext', 'index'])
  if (column.resolution && !(RESOLUTIONS as readonly string[]).includes(column.resolution))
    add('resolution', COLUMN_MESSAGES.resolution, ['resolution'])
  if (column.primary && column.ignore) add('ignore', COLUMN_MESSAGES.primaryIgnored, ['primary', 'ignore'])
  if (column.index && type === 'double') add('index', COLUMN_MESSAGES.indexDouble, ['type', 'index'])
  const problem = elementsProblem(type, parseTypeList(column.elements))
  const elementMessages = {
    only: COLUMN_MESSAGES.elementsOnly,
    needed: COLUMN_MESSAGES.elementsNeeded,
    type: COLUMN_MESSAGES.elementsType,
  }
  if (problem) add('elements', elementMessages[problem], ['type', 'elements'])
  if (column.extra && !parseOriginal(column.extra)) add('extra', COLUMN_MESSAGES.extraJson, ['extra'])
  return issues
}

/** A rendered row (strings and "on") as the rules read it. */
export function columnRuleInputOf(row: Record<string, unknown>): ColumnRuleInput {
  const text = (key: string) => (typeof row[key] === 'string' ? (row[key] as string).trim() : undefined)
  const flag = (key: string) => row[key] === 'on' || row[key] === true
  return {
    name: text('name'),
    type: text('type'),
    format: text('format'),
    resolution: text('resolution'),
    primary: flag('primary'),
    ignore: flag('ignore'),
    index: flag('index'),
    fulltext: flag('fulltext'),
    elements: text('elements'),
    extra: text('extra'),
  }
}

/** The rules a row's stored (unchanged) values break: shown at the row, not blocking a save. */
export function storedRuleNotes(row: Record<string, unknown>): { path: string; message: string }[] {
  const rendered = renderedColumnOf(row.original)
  if (!rendered) return []
  return columnRuleIssues(columnRuleInputOf(row)).filter((issue) =>
    issue.fields.every((field) => !isChanged(field, row[field], rendered)),
  )
}

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

/** The spec's rule a transform name breaks, if any (the name is not blank). */
export function transformNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z]/.test(name)) return TRANSFORM_MESSAGES.nameStart
  if (!/^.[A-Za-z0-9_]*$/.test(name)) return TRANSFORM_MESSAGES.nameCharacters
  if (name.length > TRANSFORM_NAME_MAX) return TRANSFORM_MESSAGES.nameTooLong
  return undefined
}

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
