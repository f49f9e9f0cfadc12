/*
 * The transform form's choices, words and column rules without zod (decision 077): the form renders
 * with them before its schema (`transform.ts`, which re-exports this module) loads.
 */
import {
  ALL_COLUMN_TYPES,
  elementsProblem,
  isChanged,
  parseOriginal,
  parseTypeList,
  renderedColumnOf,
} from './transform-value'

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

/** The spec's rule a transform name breaks, if any (the name is not blank). */
export function transformNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z]/.test(name)) return TRANSFORM_MESSAGES.nameStart
  if (!/^.[A-Za-z0-9_]*$/.test(name)) return TRANSFORM_MESSAGES.nameCharacters
  if (name.length > TRANSFORM_NAME_MAX) return TRANSFORM_MESSAGES.nameTooLong
  return undefined
}
