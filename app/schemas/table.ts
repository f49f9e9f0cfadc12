import { z } from 'zod'
import { NEW_PROJECT } from './table-values'

// In a module without zod, for the form pages (decision 032).
export { NEW_PROJECT }

/** Names are under 64 symbols (spec section 9). */
export const NAME_MAX_LENGTH = 63

/**
 * Project and table names are SQL identifiers (`project.table` in every query): a letter first, then
 * letters, digits and underscores, the spec's transform-name rule, which real clusters apply too.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/

export const TABLE_MESSAGES = {
  projectRequired: 'Project is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  projectNameRequired: 'Project name is required',
  projectNameTooLong: 'Project name must be under 64 symbols',
  nameCharacters: 'Name must start with a letter and contain only letters, digits and underscores',
  projectNameCharacters: 'Project name must start with a letter and contain only letters, digits and underscores',
  maxAgeInteger: 'Max age must be an integer',
  sortKeysJson: 'Sort keys must be JSON',
} as const

/** Returns the column names a sort-keys JSON list names, or undefined when it is not one. */
export function parseSortKeys(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (Array.isArray(value) && value.every((key) => typeof key === 'string')) return value
  } catch {
    // not JSON: reported as a field error by the caller
  }
  return undefined
}

/** A table's name as the spec rules it: required, under 64 characters, a letter then letters, digits and underscores. */
export const tableNameField = () =>
  z
    .string({ error: TABLE_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: TABLE_MESSAGES.nameRequired })
    .max(NAME_MAX_LENGTH, { error: TABLE_MESSAGES.nameTooLong })
    .regex(IDENTIFIER_PATTERN, { error: TABLE_MESSAGES.nameCharacters })

/** A project's name, by the same rules with the project's messages. */
export const projectNameField = () =>
  z
    .string({ error: TABLE_MESSAGES.projectNameRequired })
    .trim()
    .min(1, { error: TABLE_MESSAGES.projectNameRequired })
    .max(NAME_MAX_LENGTH, { error: TABLE_MESSAGES.projectNameTooLong })
    .regex(IDENTIFIER_PATTERN, { error: TABLE_MESSAGES.projectNameCharacters })

/**
 * The new-table form. `sortKeys` is JSON text naming columns (see parseSortKeys);
 * `newProjectName` is required only when `project` is {@link NEW_PROJECT}.
 */
export const TableFormSchema = z
  .object({
    project: z.string({ error: TABLE_MESSAGES.projectRequired }),
    newProjectName: z
      .string()
      .trim()
      .max(NAME_MAX_LENGTH, { error: TABLE_MESSAGES.projectNameTooLong })
      .regex(IDENTIFIER_PATTERN, { error: TABLE_MESSAGES.projectNameCharacters })
      .optional(),
    name: tableNameField(),
    description: z.string().trim().optional(),
    maxAgeDays: z
      .number({ error: TABLE_MESSAGES.maxAgeInteger })
      // A refine, not .int(): zod's int check aborts the object's later checks (the project name's).
      .refine((days) => Number.isSafeInteger(days) && days >= 0, { error: TABLE_MESSAGES.maxAgeInteger })
      .optional(),
    sortKeys: z
      .string()
      .optional()
      .refine((text) => text === undefined || parseSortKeys(text) !== undefined, {
        error: TABLE_MESSAGES.sortKeysJson,
      }),
  })
  .refine((value) => value.project !== NEW_PROJECT || Boolean(value.newProjectName), {
    path: ['newProjectName'],
    error: TABLE_MESSAGES.projectNameRequired,
    // Report it beside other field errors, not only once they are fixed.
    when: ({ value }) => {
      const form = value as Partial<Record<'project' | 'newProjectName', unknown>>
      return form.project === NEW_PROJECT && !form.newProjectName
    },
  })

export type TableForm = z.infer<typeof TableFormSchema>

/** The project form (create, rename, describe): the spec's project-name rules. */
export const ProjectFormSchema = z.object({
  name: projectNameField(),
  description: z.string().trim().optional(),
})
