/* The function page's choices without zod: the page imports these, and loads the form's schema after hydration. */

/** The kinds of value "try it" can pass: each becomes a typed SQL literal, never raw SQL. */
export const ARGUMENT_TYPES = ['number', 'string', 'boolean', 'null'] as const
export type ArgumentType = (typeof ARGUMENT_TYPES)[number]
