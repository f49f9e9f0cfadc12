import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import { IDENTIFIER_PATTERN, NAME_MAX_LENGTH } from './table'

/** Spec section 5, Dictionary. */
export const DICTIONARY_MESSAGES = {
  projectRequired: 'Project is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  nameCharacters: 'Name must start with a letter and contain only letters, digits and underscores',
  primaryKeyRequired: 'Primary key is required',
  primaryKeyJson: 'Primary key must be JSON',
  primaryKeyShape: 'Primary key must be a JSON list of column names, e.g. ["id"]',
  schemaRequired: 'Schema definition is required',
  schemaJson: 'Schema definition must be JSON',
  schemaShape:
    'Schema definition must be a JSON list of columns, e.g. [{"name": "id", "datatype": {"type": "uint64"}}]',
  formatRequired: 'Format is required',
  layoutRequired: 'Layout is required',
  fileRequired: 'File selection is required',
  lifetimeInteger: 'Lifetime must be a whole number of seconds',
} as const

export { DEFAULT_LIFETIME_SECONDS, DICTIONARY_FORMATS, DICTIONARY_LAYOUTS } from './dictionary-values'

/** A column of a schema definition; the cluster's list keeps each column's other keys as typed. */
export type SchemaColumn = { name: string; datatype: { type: string; [key: string]: unknown }; [key: string]: unknown }

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

/**
 * Returns the columns a schema definition names: the cluster's list
 * (`[{"name": "id", "datatype": {"type": "uint64"}}]`) or the short map (`{"id": "uint64"}`);
 * undefined when it is neither.
 */
export function parseSchemaDefinition(text: string): SchemaColumn[] | undefined {
  const parsed = parseJson(text)
  if (!parsed) return undefined
  const { value } = parsed
  if (Array.isArray(value)) {
    const ok =
      value.length > 0 &&
      value.every((column) => {
        const c = column as { name?: unknown; datatype?: { type?: unknown } }
        return c && typeof c.name === 'string' && c.name !== '' && typeof c.datatype?.type === 'string'
      })
    return ok ? (value as SchemaColumn[]) : undefined
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length && entries.every(([, type]) => typeof type === 'string')) {
      return entries.map(([name, type]) => ({ name, datatype: { type: type as string } }))
    }
  }
  return undefined
}

/** Returns the column names a primary-key JSON list names (a lone string is one name); undefined otherwise. */
export function parsePrimaryKey(text: string): string[] | undefined {
  const parsed = parseJson(text)
  if (!parsed) return undefined
  const { value } = parsed
  if (typeof value === 'string' && value) return [value]
  if (Array.isArray(value) && value.length && value.every((key) => typeof key === 'string' && key))
    return value as string[]
  return undefined
}

const jsonField = (required: string, notJson: string, shape: string, parse: (text: string) => unknown) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .superRefine((text, ctx) => {
      if (!parseJson(text)) ctx.addIssue({ code: 'custom', message: notJson })
      else if (parse(text) === undefined) ctx.addIssue({ code: 'custom', message: shape })
    })

/** The dictionary form (create and edit). */
const dictionaryShape = {
  project: z.string({ error: DICTIONARY_MESSAGES.projectRequired }),
  name: z
    .string({ error: DICTIONARY_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: DICTIONARY_MESSAGES.nameRequired })
    .max(NAME_MAX_LENGTH, { error: DICTIONARY_MESSAGES.nameTooLong })
    .regex(IDENTIFIER_PATTERN, { error: DICTIONARY_MESSAGES.nameCharacters }),
  description: z.string().trim().optional(),
  schemaDefinition: jsonField(
    DICTIONARY_MESSAGES.schemaRequired,
    DICTIONARY_MESSAGES.schemaJson,
    DICTIONARY_MESSAGES.schemaShape,
    parseSchemaDefinition,
  ),
  primaryKey: jsonField(
    DICTIONARY_MESSAGES.primaryKeyRequired,
    DICTIONARY_MESSAGES.primaryKeyJson,
    DICTIONARY_MESSAGES.primaryKeyShape,
    parsePrimaryKey,
  ),
  lifetimeSeconds: z
    .number({ error: DICTIONARY_MESSAGES.lifetimeInteger })
    .refine((seconds) => Number.isSafeInteger(seconds) && seconds >= 0, { error: DICTIONARY_MESSAGES.lifetimeInteger })
    .optional(),
  loadLevel: z.string().trim().optional(),
  format: z.string({ error: DICTIONARY_MESSAGES.formatRequired }),
  layout: z.string({ error: DICTIONARY_MESSAGES.layoutRequired }),
  file: z.string({ error: DICTIONARY_MESSAGES.fileRequired }),
}

export const DictionaryFormSchema = z.object(dictionaryShape)

/** A file input's value: the browser's File, or the name the server's upload handler gave it. */
const uploadValue = z.custom<File | string>(
  (value) => typeof value === 'string' || (typeof File !== 'undefined' && value instanceof File),
)

/** Whether a file input's value holds a file (a browser posts an empty part when none is chosen). */
const isChosen = (value: unknown) =>
  typeof value === 'string' ? value !== '' : typeof File !== 'undefined' && value instanceof File && value.size > 0

/**
 * The new dictionary form (issue 35): the file is picked among the project's or uploaded in the same
 * form (`upload`); one of them is required (spec: file selection and file upload required).
 */
export const DictionaryNewFormSchema = z
  .object({ ...dictionaryShape, file: z.string().optional(), upload: uploadValue.optional() })
  .check(
    z.superRefine(
      (form: { file?: string; upload?: unknown }, ctx) => {
        if (!form.file && !isChosen(form.upload))
          ctx.addIssue({ code: 'custom', path: ['file'], message: DICTIONARY_MESSAGES.fileRequired })
      },
      // beside the other fields' errors, not only once they pass
      { when: () => true },
    ),
  )

export type DictionaryForm = z.infer<typeof DictionaryFormSchema>

/**
 * The edit form's schema: fields posted as the form rendered them from the stored dictionary
 * (`kept`, decision 073) take whatever was posted, so a stored value the form's rules refuse stays
 * as stored unless the operator changes it.
 */
export function dictionaryFormSchema(kept: readonly string[] = []) {
  // the project is the stored one's, a hidden field the page sets
  const shape: Record<string, z.ZodType> = { ...dictionaryShape, project: setByThePage() }
  for (const key of kept) if (key in shape && key !== 'project') shape[key] = z.string().optional()
  return z.object(shape) as unknown as typeof DictionaryFormSchema
}

/** Where each form field is written in the dictionary. */
export const DICTIONARY_PLACES: FieldPlaces = {
  name: [['name']],
  description: [['description']],
  file: [['settings', 'filename']],
  format: [['settings', 'format']],
  layout: [['settings', 'layout']],
  schemaDefinition: [['settings', 'output_columns']],
  primaryKey: [['settings', 'primary_key']],
  lifetimeSeconds: [['settings', 'lifetime_seconds']],
  loadLevel: [['settings', 'load_level']],
}

/** The edit form's fields posted as rendered from the stored dictionary (browser and action alike). */
export function keptDictionaryFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, DICTIONARY_PLACES, ['description', 'schemaDefinition'])
}

/** The schema a posted dictionary form is checked by: the edit form's (it carries `original`) or the strict one. */
export function dictionarySchemaOf(formData: FormData) {
  return formData.has('original') ? dictionaryFormSchema(keptDictionaryFields(formData)) : DictionaryFormSchema
}

/** The dictionary edit form's lossless rule (decisions 092 and 103): the browser's check and the action's parse. */
export const dictionaryEditForm = defineEditForm({
  name: 'dictionary',
  kept: keptDictionaryFields,
  schemaOf: dictionarySchemaOf,
  // the cluster takes a name with a leading underscore; the form's rule does not (decision 092)
  example: {
    rendered: {
      project: 'p',
      name: '_made_elsewhere',
      description: '',
      schemaDefinition: '{"id": "UInt32"}',
      primaryKey: '["id"]',
      format: 'CSV',
      layout: 'hashed',
      file: 'ids.csv',
    },
    context: undefined,
    strict: DictionaryFormSchema,
  },
})
