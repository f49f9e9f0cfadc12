import { z } from 'zod'
import { isSameJson, isTextChanged, parseOriginal } from './lossless'
import { parseSortKeys, TABLE_MESSAGES, tableNameField } from './table'
import { isTextareaField, SETTINGS_MESSAGES, type SettingField, type SettingsGroupDef } from './table-settings-values'

/*
 * The table page's advanced options, one form per group (spec sections 2, 3 and 5): each group is a
 * list of fields, each field a place in the table's `settings`. The same definitions build the zod
 * schema (browser and server), the form, the request body and the cluster-error rename map.
 */

export { SETTINGS_GROUPS, SETTINGS_MESSAGES, isTextareaField, settingsGroup } from './table-settings-values'
export type { SettingField, SettingKind, SettingsGroupDef, SettingsGroupKey } from './table-settings-values'

const INTEGER = /^-?\d+$/

/** One field's zod type: the text as typed (or "on" for a checkbox), checked by its kind's rule. */
function fieldSchema(field: SettingField): z.ZodType<string | undefined> {
  if (field.kind === 'bool') return z.string().optional()
  const label = field.label.replace(/ \((JSON|one per line)\)$/, '')
  const rule = (text: string): string | undefined => {
    if (field.kind === 'text' && !text.trim()) return SETTINGS_MESSAGES.notBlank(label)
    if (field.kind === 'int' && !INTEGER.test(text.trim())) {
      return field.path.join('.') === 'age.max_age_days'
        ? TABLE_MESSAGES.maxAgeInteger
        : SETTINGS_MESSAGES.integer(label)
    }
    if (field.kind === 'number' && (text.trim() === '' || !Number.isFinite(Number(text)))) {
      return field.name === 'memory_coefficient' ? SETTINGS_MESSAGES.memoryCoefficient : SETTINGS_MESSAGES.number(label)
    }
    if (field.kind === 'sortKeys' && parseSortKeys(text) === undefined) return TABLE_MESSAGES.sortKeysJson
    if (field.kind === 'json') {
      try {
        JSON.parse(text)
      } catch {
        return SETTINGS_MESSAGES.json(label)
      }
    }
    return field.check?.(text)
  }
  const base = z.string().superRefine((text, ctx) => {
    const message = rule(text)
    if (message) ctx.addIssue({ code: 'custom', message })
  })
  if (field.required) return z.string({ error: SETTINGS_MESSAGES.required(label) }).pipe(base) as z.ZodType<string>
  if (field.notBlank) return z.string({ error: SETTINGS_MESSAGES.notBlank(label) }).pipe(base) as z.ZodType<string>
  return base.optional()
}

/** The zod schema of one group's form (fields by name, all text). */
export function settingsSchema(
  group: SettingsGroupDef,
  options: {
    lockedFields?: string[]
    /** Fields the stored object does not set: a "not blank" field may stay blank (kept unset, issue 32). */
    unsetFields?: string[]
  } = {},
) {
  const shape: Record<string, z.ZodType<string | undefined>> = {}
  for (const field of group.fields) {
    shape[field.name] = options.lockedFields?.includes(field.name)
      ? z.string().optional()
      : fieldSchema(field.notBlank && options.unsetFields?.includes(field.name) ? { ...field, notBlank: false } : field)
  }
  return z.object(shape)
}

/**
 * Lossless (decision 072): the group's fields posted as the form rendered them from the stored value
 * (the form's `original`), by name. They keep the stored value (null, absent, a type or a key the
 * form cannot show, a value the form's rules refuse) and are not checked again, in the browser as
 * on the server. `posted`: the group edited as JSON, compared value by value.
 */
export function keptSettingFields(group: SettingsGroupDef, formData: FormData, posted?: unknown): string[] {
  const original = parseOriginal(formData.get('original'))
  if (original === undefined) return []
  return group.fields
    .filter((field) =>
      posted === undefined
        ? !isTextChanged(
            formData.get(field.name),
            toFormText(field, valueAt(original, field.path)),
            isTextareaField(field),
          )
        : isSameJson(valueAt(posted, field.path), valueAt(original, field.path)),
    )
    .map((field) => field.name)
}

/** The rename form: name and description. */
export const RenameTableSchema = z.object({
  name: tableNameField(),
  description: z.string().trim().optional(),
})

/** Reads a value at `path` of a nested record. */
export function valueAt(record: unknown, path: string[]): unknown {
  let value: unknown = record
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** A setting's value as the form shows it: digits, JSON, one token per line, "on" for true. */
export function toFormText(field: SettingField, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  switch (field.kind) {
    case 'bool':
      return (field.inverted ? !value : Boolean(value)) ? 'on' : undefined
    case 'lines':
      return Array.isArray(value) ? value.join('\n') : String(value)
    case 'json':
    case 'sortKeys':
      return JSON.stringify(value)
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
}

/**
 * The value a field's text stands for: undefined when empty (the caller fills the default).
 */
export function fromFormText(field: SettingField, text: string | undefined): unknown {
  if (field.kind === 'bool') return field.inverted ? text !== 'on' : text === 'on'
  if (text === undefined || text === '') return undefined
  switch (field.kind) {
    case 'int': {
      return Number(text.trim())
    }
    case 'number':
      return Number(text)
    case 'lines':
      return text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
    case 'json':
    case 'sortKeys':
      return JSON.parse(text)
    default:
      return text.trim()
  }
}

/** A settings group edited as JSON: an object shaped like the table's `settings` (only the group's keys are read). */
export const JsonSettingsSchema = z.object({
  json: z.string({ error: 'Settings JSON is required' }).transform((text, ctx) => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: jsonSyntaxMessage(text, error) })
      return z.NEVER
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
    ctx.addIssue({ code: 'custom', message: 'Settings must be a JSON object' })
    return z.NEVER
  }),
})

/**
 * What a JSON syntax error says, with where it broke: "Settings are not valid JSON: it breaks at
 * line 2, column 3". The place comes from the parser's message (a position in V8, a line and column
 * in Firefox), worked out here so every browser and the server say the same.
 */
export function jsonSyntaxMessage(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  const lineColumn = /line (\d+) column (\d+)/.exec(message)
  const position = /position (\d+)/.exec(message)
  let where: { line: number; column: number } | null = null
  const endsEarly = /end of (JSON )?(input|data)/i.test(message) || !text.trim()
  if (!endsEarly && lineColumn) where = { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
  else if (!endsEarly && position && Number(position[1]) < text.trimEnd().length) {
    const before = text.slice(0, Number(position[1])).split('\n')
    where = { line: before.length, column: before[before.length - 1]!.length + 1 }
  } else if (endsEarly || position) {
    return 'Settings are not valid JSON: it ends too early (a closing } or ] or " is missing)'
  }
  return where
    ? `Settings are not valid JSON: it breaks at line ${where.line}, column ${where.column}`
    : 'Settings are not valid JSON'
}
