import { isPlainObject } from './util'

/**
 * Field definitions: one description per field serves validation (DRF messages, nested errors)
 * and the OPTIONS metadata clients read (`actions.POST.{field}.{type,required,children}`).
 */

interface Base {
  required?: boolean
  /** null is accepted (and kept). */
  nullable?: boolean
  readOnly?: boolean
  label?: string
  help?: string
  /** Stored when the field is absent from a create or a full update (as a model field's default). */
  default?: unknown
  /** Extra check on a value that passed the type check; returns messages (or nested errors). */
  check?: (value: never) => string | string[] | Record<string, unknown> | undefined
}

export type Field =
  | (Base & {
      type: 'string'
      maxLength?: number
      minLength?: number
      blank?: boolean
      choices?: readonly string[]
      pattern?: RegExp
      patternMessage?: string
    })
  | (Base & { type: 'integer'; min?: number; max?: number })
  | (Base & { type: 'float'; min?: number; max?: number })
  | (Base & { type: 'boolean' })
  | (Base & { type: 'uuid' })
  | (Base & { type: 'datetime' })
  | (Base & { type: 'json' })
  | (Base & { type: 'list'; child?: Field; minItems?: number })
  | (Base & {
      type: 'nested object'
      children: Fields
      /** keys not listed are kept as given (default true) */
      open?: boolean
      /** keys not listed are refused */
      strict?: string
    })

export type Fields = Record<string, Field>

export type Errors = Record<string, unknown>

export const REQUIRED = 'This field is required.'

const typeName = (v: unknown) =>
  Array.isArray(v)
    ? 'list'
    : v === null
      ? 'null'
      : typeof v === 'string'
        ? 'str'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'int'
            : 'float'
          : typeof v === 'boolean'
            ? 'bool'
            : 'dict'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Validates one value against a field; returns the cleaned value or the field's errors. */
export function validateValue(field: Field, value: unknown): { value?: unknown; errors?: unknown } {
  if (value === null) {
    if (field.nullable) return { value: null }
    return { errors: ['This field may not be null.'] }
  }
  let out: unknown = value
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') {
        if (typeof value === 'number' && !field.choices) out = String(value)
        else return { errors: ['Not a valid string.'] }
      }
      const s = out as string
      if (!s.trim() && field.blank === false) return { errors: ['This field may not be blank.'] }
      if (field.maxLength !== undefined && s.length > field.maxLength)
        return { errors: [`Ensure this field has no more than ${field.maxLength} characters.`] }
      if (field.minLength !== undefined && s.length < field.minLength)
        return { errors: [`Ensure this field has at least ${field.minLength} characters.`] }
      if (field.choices && !field.choices.includes(s)) return { errors: [`"${s}" is not a valid choice.`] }
      if (field.pattern && s && !field.pattern.test(s))
        return { errors: [field.patternMessage ?? 'Enter a valid value.'] }
      break
    }
    case 'integer':
    case 'float': {
      let n = value
      if (typeof n === 'string' && n.trim() !== '' && !Number.isNaN(Number(n))) n = Number(n)
      if (typeof n !== 'number' || !Number.isFinite(n) || typeof value === 'boolean') {
        return { errors: [field.type === 'integer' ? 'A valid integer is required.' : 'A valid number is required.'] }
      }
      if (field.type === 'integer' && !Number.isInteger(n)) return { errors: ['A valid integer is required.'] }
      if (field.min !== undefined && n < field.min)
        return { errors: [`Ensure this value is greater than or equal to ${field.min}.`] }
      if (field.max !== undefined && n > field.max)
        return { errors: [`Ensure this value is less than or equal to ${field.max}.`] }
      out = n
      break
    }
    case 'boolean': {
      if (value === 'true' || value === 1) out = true
      else if (value === 'false' || value === 0) out = false
      else if (typeof value !== 'boolean') return { errors: ['Must be a valid boolean.'] }
      break
    }
    case 'uuid':
      if (typeof value !== 'string' || !UUID_RE.test(value)) return { errors: ['Must be a valid UUID.'] }
      break
    case 'datetime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
        return { errors: ['Datetime has wrong format.'] }
      break
    case 'json':
      break
    case 'list': {
      if (!Array.isArray(value)) return { errors: [`Expected a list of items but got type "${typeName(value)}".`] }
      if (field.minItems && value.length < field.minItems)
        return {
          errors: [
            field.minItems === 1
              ? 'This list may not be empty.'
              : `Ensure this field has at least ${field.minItems} elements.`,
          ],
        }
      if (field.child) {
        const items: unknown[] = []
        const errs: unknown[] = []
        let bad = false
        for (const item of value) {
          const r = validateValue(field.child, item)
          items.push(r.value)
          errs.push(r.errors ?? {})
          if (r.errors) bad = true
        }
        if (bad) {
          // DRF: a list of dicts answers one dict per item; a list of scalars answers {index: [msgs]}
          if (field.child.type === 'nested object') return { errors: errs }
          return { errors: Object.fromEntries(errs.map((e, i) => [String(i), e]).filter(([, e]) => Array.isArray(e))) }
        }
        out = items
      }
      break
    }
    case 'nested object': {
      if (!isPlainObject(value))
        return { errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(value)}.`] } }
      const r = validateObject(field.children, value, { partial: false, open: field.open !== false })
      const unknown = field.strict ? Object.keys(value).filter((k) => !(k in field.children)) : []
      if (r.errors || unknown.length) {
        return {
          errors: {
            ...Object.fromEntries(unknown.map((k) => [k, [field.strict!.replace('{name}', k)]])),
            ...(r.errors ?? {}),
          },
        }
      }
      out = r.value
      break
    }
  }
  if (field.check) {
    const problem = (field.check as (v: unknown) => unknown)(out)
    if (problem !== undefined) return { errors: typeof problem === 'string' ? [problem] : problem }
  }
  return { value: out }
}

/**
 * Validates an object: required fields, types, nested children. `partial` (PATCH) skips required
 * checks for absent fields. `open` keeps keys that have no definition (settings stay extensible).
 */
export function validateObject(
  fields: Fields,
  data: Record<string, unknown>,
  options: { partial?: boolean; open?: boolean } = {},
) {
  const errors: Errors = {}
  const value: Record<string, unknown> = options.open ? { ...data } : {}
  for (const [key, field] of Object.entries(fields)) {
    if (field.readOnly) {
      if (options.open) delete value[key]
      continue
    }
    if (!(key in data) || data[key] === undefined) {
      if (field.required && !options.partial) errors[key] = [REQUIRED]
      else if (field.default !== undefined && !options.partial) value[key] = structuredClone(field.default)
      continue
    }
    const r = validateValue(field, data[key])
    if (r.errors) errors[key] = r.errors
    else value[key] = r.value
  }
  return Object.keys(errors).length ? { errors } : { value }
}

/** DRF OPTIONS metadata for a set of fields. */
export function describe(fields: Fields, readOnly: Record<string, string> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, label] of Object.entries(readOnly))
    out[key] = {
      type: key === 'created' || key === 'modified' ? 'datetime' : 'string',
      required: false,
      read_only: true,
      label,
    }
  for (const [key, field] of Object.entries(fields)) out[key] = describeField(key, field)
  return out
}

function describeField(key: string, field: Field): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    type: field.type === 'string' && field.choices ? 'choice' : field.type === 'json' ? 'field' : field.type,
    required: !!field.required,
    read_only: !!field.readOnly,
    label: field.label ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
  }
  if (field.nullable) meta.allow_null = true
  if (field.help) meta.help_text = field.help
  if (field.type === 'string') {
    if (field.maxLength !== undefined) meta.max_length = field.maxLength
    if (field.minLength !== undefined) meta.min_length = field.minLength
    if (field.choices) meta.choices = field.choices.map((c) => ({ value: c, display_name: c }))
  }
  if (field.type === 'integer' || field.type === 'float') {
    if (field.min !== undefined) meta.min_value = field.min
    if (field.max !== undefined) meta.max_value = field.max
  }
  if (field.type === 'nested object') meta.children = describe(field.children)
  if (field.type === 'list' && field.child) meta.child = describeField('child', field.child)
  return meta
}

/** Shorthands for the field definitions. */
export const f = {
  str: (o: Partial<Extract<Field, { type: 'string' }>> = {}): Field => ({ type: 'string', ...o }),
  int: (o: Partial<Extract<Field, { type: 'integer' }>> = {}): Field => ({ type: 'integer', ...o }),
  float: (o: Partial<Extract<Field, { type: 'float' }>> = {}): Field => ({ type: 'float', ...o }),
  bool: (o: Partial<Extract<Field, { type: 'boolean' }>> = {}): Field => ({ type: 'boolean', ...o }),
  uuid: (o: Partial<Extract<Field, { type: 'uuid' }>> = {}): Field => ({ type: 'uuid', ...o }),
  json: (o: Partial<Extract<Field, { type: 'json' }>> = {}): Field => ({ type: 'json', ...o }),
  list: (child?: Field, o: Partial<Extract<Field, { type: 'list' }>> = {}): Field => ({ type: 'list', child, ...o }),
  obj: (children: Fields, o: Partial<Extract<Field, { type: 'nested object' }>> = {}): Field => ({
    type: 'nested object',
    children,
    ...o,
  }),
}

/**
 * Names the engine uses as SQL identifiers (projects, tables, transforms): a letter first, then
 * letters, digits and underscores, so `project.table` never needs quoting.
 */
export const IDENTIFIER_NAME = {
  pattern: /^[A-Za-z][A-Za-z0-9_]*$/,
  message: 'The name must start with a letter and contain only letters, digits and underscores.',
}

/** Names: required, under 64 characters (ingest sources: at most 27). */
export const nameField = (max = 63, extra: Partial<Extract<Field, { type: 'string' }>> = {}): Field =>
  f.str({ required: true, blank: false, maxLength: max, ...extra })

/** Descriptions: optional, answered as "" when never given (clients such as hydrolix_helpers read a string). */
export const descriptionField = (): Field => f.str({ nullable: true, blank: true, maxLength: 1024, default: '' })

/** Puts `errors` at `path` (e.g. ['settings','shard_key']) in a nested error object. */
export function nestError(path: string[], messages: unknown): Errors {
  let out: unknown = messages
  for (const key of [...path].reverse()) out = { [key]: out }
  return out as Errors
}

/** Reads a value at a dotted path. */
export function getPath(obj: unknown, path: string[]): unknown {
  let cur = obj
  for (const key of path) {
    if (!isPlainObject(cur)) return undefined
    cur = cur[key]
  }
  return cur
}
