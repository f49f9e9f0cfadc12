// The table form's values the form pages need, without zod: the schemas in table.ts reach the
// browser only after hydration (decision 032).

/** The select value that asks for a new project, named in `newProjectName`. */
export const NEW_PROJECT = '__new__'
