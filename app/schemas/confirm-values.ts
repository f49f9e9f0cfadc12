// The force confirmation's word, message and HTML constraint, without zod: ConfirmPanel imports
// these, and the schema in confirm.ts loads in the browser only after hydration (decision 075).

/** The word a force operation (purge, a delete that loses data) must be confirmed with (spec section 4). */
export const FORCE_WORD = 'FORCE'

export const FORCE_MESSAGE = `Type ${FORCE_WORD} to confirm`

/** `getZodConstraint(ForceConfirmSchema)`, written out (confirm.test.ts checks they are equal). */
export const FORCE_CONSTRAINT = { confirm: { required: true } }
