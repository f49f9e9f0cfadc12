// The invite roles, scope levels and role labels, without zod: the user and invite lists import
// these through security.ts, and the schemas stay out of those pages' first load (decision 075:
// security.ts re-exports this module, and its own schemas are pure in the browser build).

/** The roles an invite may carry (spec section 6), as the cluster names them, with the spec's labels. */
export const INVITE_ROLES = [
  { value: 'org_admin', label: 'Org admin' },
  { value: 'operator', label: 'Operator' },
  { value: 'publisher', label: 'Publisher' },
  { value: 'reader', label: 'Reader' },
] as const

/** Scope levels offered for invites and policies: the cluster's scope types the console can name. */
export const SCOPE_LEVELS = [
  { value: 'org', label: 'Organization' },
  { value: 'project', label: 'Project' },
  { value: 'table', label: 'Table' },
] as const
export type ScopeLevel = (typeof SCOPE_LEVELS)[number]['value']

const ROLE_LABELS: Record<string, string> = {
  super_admin: 'Super admin',
  ...Object.fromEntries(INVITE_ROLES.map((role) => [role.value, role.label])),
}

/** A role's name as people read it: the spec's label for a built-in role, else the name itself. */
export function roleLabel(name: string): string {
  return ROLE_LABELS[name] ?? name
}
