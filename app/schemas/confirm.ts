import { z } from 'zod'

/** The word a force operation (purge, a delete that loses data) must be confirmed with (spec section 4). */
export const FORCE_WORD = 'FORCE'

export const FORCE_MESSAGE = `Type ${FORCE_WORD} to confirm`

/** A force confirmation's form: `confirm` must be FORCE exactly. The same on both sides. */
export const ForceConfirmSchema = z.object({
  confirm: z.string({ error: FORCE_MESSAGE }).refine((text) => text === FORCE_WORD, { error: FORCE_MESSAGE }),
})

export type ForceConfirm = z.infer<typeof ForceConfirmSchema>
