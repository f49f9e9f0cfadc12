/* The view form's messages and names without zod: the form's pages import these, and load the schema after hydration. */

export const VIEW_MESSAGES = {
  tableRequired: 'Table is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  parentRequired: 'Parent view is required',
  columnsRequired: 'Output columns must not be empty',
  autoViewMissing: 'The table must contain auto_view',
  columnNotInParent: (name: string) => `Column ${name} is not in the parent view`,
} as const

/** The view every table with a transform has (all its columns); other views take their columns from a parent view. */
export const AUTO_VIEW_NAME = 'auto_view'
