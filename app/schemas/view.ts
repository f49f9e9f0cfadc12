import { z } from 'zod'
import { NAME_MAX_LENGTH } from './table'

export const VIEW_MESSAGES = {
  tableRequired: 'Table is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  parentRequired: 'Parent view is required',
  columnsRequired: 'Output columns must not be empty',
  autoViewMissing: 'The table must contain auto_view',
  columnNotInParent: (name: string) => `Column ${name} is not in the parent view`,
} as const

/**
 * The view form (spec section 5): table (`<projectId>/<tableId>`), name, description, parent view
 * (a view of the table), and the output columns picked from the parent view's.
 */
export const ViewFormSchema = z.object({
  table: z
    .string({ error: VIEW_MESSAGES.tableRequired })
    .regex(/^[\w-]+\/[\w-]+$/, { error: VIEW_MESSAGES.tableRequired }),
  name: z
    .string({ error: VIEW_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: VIEW_MESSAGES.nameRequired })
    .max(NAME_MAX_LENGTH, { error: VIEW_MESSAGES.nameTooLong }),
  description: z.string().trim().optional(),
  parentView: z.string({ error: VIEW_MESSAGES.parentRequired }),
  outputColumns: z
    .array(z.string(), { error: VIEW_MESSAGES.columnsRequired })
    .min(1, { error: VIEW_MESSAGES.columnsRequired }),
})

export type ViewForm = z.infer<typeof ViewFormSchema>

/** The view every table with a transform has (all its columns); other views take their columns from a parent view. */
export const AUTO_VIEW_NAME = 'auto_view'
