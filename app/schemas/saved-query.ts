import { z } from 'zod'

/** The longest name a saved query may have. */
export const SAVED_QUERY_NAME_MAX = 100

export const SAVED_QUERY_NAME_REQUIRED = 'Give the query a name to save it'
export const SAVED_QUERY_NAME_TOO_LONG = `A name has at most ${SAVED_QUERY_NAME_MAX} characters`
export const SAVED_QUERY_SQL_REQUIRED = 'Enter a query to save'

/** The editor's Save: a name and the SQL (the options are read and checked as a run's are). */
export const SavedQueryFormSchema = z.object({
  name: z
    .string({ error: SAVED_QUERY_NAME_REQUIRED })
    .trim()
    .min(1, { error: SAVED_QUERY_NAME_REQUIRED })
    .max(SAVED_QUERY_NAME_MAX, { error: SAVED_QUERY_NAME_TOO_LONG }),
  sql: z
    .string({ error: SAVED_QUERY_SQL_REQUIRED })
    .refine((sql) => sql.trim() !== '', { error: SAVED_QUERY_SQL_REQUIRED }),
})

export type SavedQueryForm = z.infer<typeof SavedQueryFormSchema>
