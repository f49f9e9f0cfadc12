import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** One policy of a role: permissions, in a scope (none, or `org`, for the whole org). */
export type Policy = { permissions: string[]; scope_type: string | null; scope_id: string | null }

/** A role as the cluster returns it (cluster-api.md 8.3): integer id, policies, its users' uuids. */
export type Role = {
  id: number
  name: string
  description?: string | null
  policies: Policy[]
  users?: string[]
  built_in?: boolean
  created?: string
  modified?: string
}

export type RoleInput = { name: string; description: string; policies: Policy[] }

/** Per scope type, the permissions a policy of that scope may hold (`GET roles/permissions/`). */
export type PermissionCatalogue = { scope_type: string | null; permissions: string[] }[]

/** Returns every role, built-in ones included, sorted by name; throws ClusterError. */
export async function listRoles(api: ClusterApi): Promise<Role[]> {
  const roles = await listAll<Role>(api, '/roles/')
  return roles.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * The roles of these names (a user's, from `users/current`), each asked by name (`roles/?name=`: one
 * short answer each, not every role of the org: issue 33). A cluster that ignores the filter answers
 * its first page; a name not on it is looked for in the whole list. Throws ClusterError.
 */
export async function rolesNamed(api: ClusterApi, names: string[]): Promise<Role[]> {
  const answers = await Promise.all(
    names.map((name) => api.list<Role>('/roles/', { params: { name } }).then((page) => page.results)),
  )
  const found = answers.flat().filter((role) => names.includes(role.name))
  if (names.every((name) => found.some((role) => role.name === name))) return dedupe(found)
  return (await listRoles(api)).filter((role) => names.includes(role.name))
}

const dedupe = (roles: Role[]) => roles.filter((role, index) => roles.findIndex((r) => r.id === role.id) === index)

/** Returns one role; throws ClusterError (404 when there is none). */
export function getRole(api: ClusterApi, roleId: string | number): Promise<Role> {
  return api.get<Role>(`/roles/${encodeURIComponent(String(roleId))}/`)
}

/** Creates a role with its policies; throws ClusterError (400 with field errors, `policies[i].x` per policy). */
export function createRole(api: ClusterApi, role: RoleInput): Promise<Role> {
  return api.post<Role>('/roles/', role)
}

/** Replaces a role's name, description and policies (publishes staged edits); throws ClusterError. */
export function updateRole(api: ClusterApi, roleId: string | number, role: RoleInput): Promise<Role> {
  return api.put<Role>(`/roles/${encodeURIComponent(String(roleId))}/`, role)
}

/**
 * Changes only the keys given (decision 074: an edit sends what the operator changed, so keys the
 * console does not know stay as the cluster holds them); throws ClusterError.
 */
export function patchRole(api: ClusterApi, roleId: string | number, changes: Partial<Omit<Role, 'id'>>): Promise<Role> {
  return api.patch<Role>(`/roles/${encodeURIComponent(String(roleId))}/`, changes)
}

/** Returns the permission catalogue; throws ClusterError. */
export function getPermissionCatalogue(api: ClusterApi): Promise<PermissionCatalogue> {
  return api.get<PermissionCatalogue>('/roles/permissions/')
}
