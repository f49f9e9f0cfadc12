import { z } from 'zod'
import { NAME_MAX_LENGTH } from './table'
import { VIEW_MESSAGES } from './view-values'

// The view form's words and names have no zod: its pages import them from there (decision 077).
export { AUTO_VIEW_NAME, VIEW_MESSAGES } from './view-values'

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
