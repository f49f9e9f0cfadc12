import type { FieldPlaces } from './lossless'

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

/** A staged policy in the role form; `PolicySchema` in security.ts is its schema. */
export type StagedPolicy = { permissions: string[]; scope_type: string | null; scope_id: string | null }

const isTextOrNull = (value: unknown) => value === null || typeof value === 'string'

/**
 * Reads the hidden `policies` field: a JSON list of policies, or undefined when it is not one.
 * What `z.array(PolicySchema).safeParse` gives (security.test.ts holds them equal), without zod:
 * the role form reads it while it renders.
 */
export function parsePolicies(text: string | undefined): StagedPolicy[] | undefined {
  if (!text) return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!Array.isArray(value)) return undefined
  const policies: StagedPolicy[] = []
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined
    const { permissions, scope_type, scope_id } = entry as Record<string, unknown>
    if (!Array.isArray(permissions) || !permissions.length || !permissions.every((p) => typeof p === 'string'))
      return undefined
    if (!isTextOrNull(scope_type) || !isTextOrNull(scope_id)) return undefined
    policies.push({
      permissions: [...(permissions as string[])],
      scope_type: scope_type as string | null,
      scope_id: scope_id as string | null,
    })
  }
  return policies
}

/** Where each saved field of the role form is written in the role (decision 074). */
export const ROLE_PLACES: FieldPlaces = { name: [['name']], description: [['description']], policies: [['policies']] }
