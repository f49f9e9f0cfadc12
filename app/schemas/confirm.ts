import { z } from 'zod'
import { FORCE_MESSAGE, FORCE_WORD } from './confirm-values'

export { FORCE_CONSTRAINT, FORCE_MESSAGE, FORCE_WORD } from './confirm-values'

/** A force confirmation's form: `confirm` must be FORCE exactly. The same on both sides. */
export const ForceConfirmSchema = z.object({
  confirm: z.string({ error: FORCE_MESSAGE }).refine((text) => text === FORCE_WORD, { error: FORCE_MESSAGE }),
})

export type ForceConfirm = z.infer<typeof ForceConfirmSchema>
