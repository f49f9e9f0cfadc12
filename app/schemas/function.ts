import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import { IDENTIFIER_PATTERN, NAME_MAX_LENGTH } from './table'
import type { ArgumentType } from './function-values'

/** Spec section 5, Function: word for word where the spec gives words. */
export const FUNCTION_MESSAGES = {
  projectRequired: 'Project must be selected',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  nameCharacters: 'Name must start with a letter and contain only letters, digits and underscores',
  sqlRequired: 'SQL expression is required',
} as const

const functionShape = {
  project: z.string({ error: FUNCTION_MESSAGES.projectRequired }),
  name: z
    .string({ error: FUNCTION_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: FUNCTION_MESSAGES.nameRequired })
    .max(NAME_MAX_LENGTH, { error: FUNCTION_MESSAGES.nameTooLong })
    .regex(IDENTIFIER_PATTERN, { error: FUNCTION_MESSAGES.nameCharacters }),
  description: z.string().trim().optional(),
  // a browser posts a textarea's line breaks as CR LF: stored as LF
  sql: z
    .string({ error: FUNCTION_MESSAGES.sqlRequired })
    .trim()
    .min(1, { error: FUNCTION_MESSAGES.sqlRequired })
    .transform((sql) => sql.replace(/\r\n?/g, '\n')),
}

/** The function form (create and edit): project, name, description, SQL expression. */
export const FunctionFormSchema = z.object(functionShape)

export type FunctionForm = z.infer<typeof FunctionFormSchema>

/**
 * The edit form's schema: fields posted as the form rendered them from the stored function (`kept`,
 * decision 073) take whatever was posted, so a stored value the form's rules refuse stays as stored.
 */
export function functionFormSchema(kept: readonly string[] = []) {
  // the project is the stored one's, a hidden field the page sets
  const shape: Record<string, z.ZodType> = { ...functionShape, project: setByThePage() }
  for (const key of kept) if (key in shape && key !== 'project') shape[key] = z.string().optional()
  return z.object(shape) as unknown as typeof FunctionFormSchema
}

/** Where each form field is written in the function. */
export const FUNCTION_PLACES: FieldPlaces = { name: [['name']], description: [['description']], sql: [['sql']] }

/** The edit form's fields posted as rendered from the stored function (browser and action alike). */
export function keptFunctionFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, FUNCTION_PLACES, ['description', 'sql'])
}

/** The schema a posted function form is checked by: the edit form's (it carries `original`) or the new one's. */
export function functionSchemaOf(formData: FormData) {
  return formData.has('original') ? functionFormSchema(keptFunctionFields(formData)) : FunctionFormSchema
}

/** The function edit form's lossless rule (decision 103): the browser's check and the action's parse. */
export const functionEditForm = defineEditForm({
  name: 'function',
  kept: keptFunctionFields,
  schemaOf: functionSchemaOf,
  // the cluster takes a name with a leading underscore; the form's rule does not (decision 092)
  example: {
    rendered: { project: 'p', name: '_made_elsewhere', description: '', sql: '(x) -> x + 1' },
    context: undefined,
    strict: FunctionFormSchema,
  },
})

/**
 * The parameters a lambda expression names (`(x, k, b) -> k*x + b` → x, k, b; `x -> x + 1` → x);
 * empty when the expression is not a lambda.
 */
export function lambdaParameters(sql: string): string[] {
  const match = /^\s*(?:\(([^()]*)\)|([A-Za-z_][A-Za-z0-9_]*))\s*->/.exec(sql)
  if (!match) return []
  const list = match[1] ?? match[2] ?? ''
  return list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
}

export { ARGUMENT_TYPES, type ArgumentType } from './function-values'

export const TRY_MESSAGES = {
  notNumber: 'Not a number',
  notBoolean: 'Type true or false',
} as const

/**
 * Returns the SQL literal for one "try it" argument, or an error message: numbers as themselves
 * (checked), strings quoted and escaped, booleans as true/false, null as NULL.
 */
export function argumentLiteral(value: string, type: ArgumentType): { literal: string } | { error: string } {
  const text = value.trim()
  switch (type) {
    case 'number':
      return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)
        ? { literal: text }
        : { error: TRY_MESSAGES.notNumber }
    case 'boolean':
      return /^(true|false)$/i.test(text) ? { literal: text.toLowerCase() } : { error: TRY_MESSAGES.notBoolean }
    case 'null':
      return { literal: 'NULL' }
    default:
      return { literal: `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` }
  }
}
