import { ClusterError } from '~/api/errors.server'

/** Where the cluster's table fields (as mapFieldErrors flattens them) show on the new-table form. */
const TABLE_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.age.max_age_days': 'maxAgeDays',
  'settings.age': 'maxAgeDays',
  'settings.sort_keys': 'sortKeys',
}

/** Where the cluster's project fields show when the form creates a project. */
const PROJECT_FIELDS: Record<string, string> = {
  name: 'newProjectName',
}

/**
 * Returns the error with its field errors renamed to the form's fields; an error for a field the
 * form does not have becomes a general error ("settings.x: message") rather than vanishing.
 * Anything but a 400 ClusterError is returned unchanged.
 */
export function toFormFields(error: unknown, fields: Record<string, string>): unknown {
  if (!(error instanceof ClusterError) || error.status !== 400) return error
  const { fieldErrors, formErrors } = error.mapped
  const body: Record<string, string[]> = {}
  const general = [...formErrors]
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const field = fields[key] ?? fields[key.replace(/\[\d+\]$/, '')]
    if (field) (body[field] ??= []).push(...messages)
    else general.push(`${key}: ${messages.join(' ')}`)
  }
  if (general.length) body.non_field_errors = general
  return new ClusterError({ status: error.status, statusText: error.statusText, body, url: error.url })
}

export const tableFieldErrors = (error: unknown) => toFormFields(error, TABLE_FIELDS)
export const projectFieldErrors = (error: unknown) => toFormFields(error, PROJECT_FIELDS)
