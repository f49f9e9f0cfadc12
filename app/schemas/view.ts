import { z } from 'zod'
import { defineEditForm, isTextChanged, parseOriginal } from './lossless'
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

const isSameSet = (a: string[], b: unknown) =>
  Array.isArray(b) && a.length === b.length && a.every((item) => b.includes(item))

/**
 * The view edit form's fields posted as rendered from the stored view (its `original`: name,
 * description and the columns shown ticked, compared as a set); none without it. Browser and action alike.
 */
export function keptViewFields(formData: FormData): string[] {
  const original = parseOriginal(formData.get('original'))
  if (!original) return []
  return [
    ...(isTextChanged(formData.get('name'), original.name) ? [] : ['name']),
    ...(isTextChanged(formData.get('description'), original.description) ? [] : ['description']),
    ...(isSameSet(formData.getAll('outputColumns').map(String), original.outputColumns) ? ['outputColumns'] : []),
  ]
}

/**
 * The view form's schema with `kept` fields not checked again: a kept name takes what was posted;
 * kept columns skip the parent and columns rules (the view's stored columns stay as they are).
 */
export function viewFormSchema(kept: readonly string[] = []) {
  if (!kept.length) return ViewFormSchema
  return ViewFormSchema.extend({
    ...(kept.includes('name') ? { name: z.string().optional() } : {}),
    ...(kept.includes('outputColumns')
      ? { parentView: z.string().optional(), outputColumns: z.array(z.string()).optional() }
      : {}),
  }) as unknown as typeof ViewFormSchema
}

/** The view form's lossless rule (decision 103): the browser's check and the action's parse. */
export const viewEditForm = defineEditForm({
  name: 'view',
  kept: keptViewFields,
  schemaOf: (formData) => viewFormSchema(keptViewFields(formData)),
  // a name longer than the form allows, as a real cluster may hold it
  example: {
    rendered: {
      table: 'p1/t1',
      name: 'v'.repeat(NAME_MAX_LENGTH + 1),
      description: '',
      parentView: 'auto',
      outputColumns: ['timestamp'],
    },
    context: undefined,
    strict: ViewFormSchema,
  },
})
