import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/** A custom SQL function as the cluster returns it (cluster-api.md, functions). */
export type SqlFunction = {
  uuid?: string
  name: string
  sql?: string
  description?: string | null
  project?: string
  created?: string
  modified?: string
}

export type FunctionInput = { name: string; sql: string; description?: string }

const functionsPath = (api: ClusterApi, projectId: string) =>
  `/orgs/${api.orgId}/projects/${encodeURIComponent(projectId)}/functions/`

/** Returns every function of a project, sorted by name; throws ClusterError. */
export async function listFunctions(api: ClusterApi, projectId: string): Promise<SqlFunction[]> {
  const functions = await listAll<SqlFunction>(api, functionsPath(api, projectId))
  return functions.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns one function; throws ClusterError (404 when there is none). */
export function getFunction(api: ClusterApi, projectId: string, functionId: string): Promise<SqlFunction> {
  return api.get<SqlFunction>(`${functionsPath(api, projectId)}${encodeURIComponent(functionId)}`)
}

/** The request body the form's values make (a full function). */
export function functionBody(fn: FunctionInput) {
  return { name: fn.name, sql: fn.sql, description: fn.description ?? '' }
}

/**
 * Creates a function; the cluster checks the expression by defining it in its engine (a bad one is
 * a 400 on `sql`). Returns it; throws ClusterError.
 */
export function createFunction(api: ClusterApi, projectId: string, fn: FunctionInput): Promise<SqlFunction> {
  return api.post<SqlFunction>(functionsPath(api, projectId), functionBody(fn))
}

/**
 * Replaces a function's name, expression and description with `body` (the stored function with the
 * changed fields written onto it, decision 073; checked as on create); throws ClusterError.
 */
export function updateFunction(
  api: ClusterApi,
  projectId: string,
  functionId: string,
  body: Record<string, unknown>,
): Promise<SqlFunction> {
  return api.put<SqlFunction>(`${functionsPath(api, projectId)}${encodeURIComponent(functionId)}`, body)
}

/** Deletes a function; throws ClusterError. */
export function deleteFunction(api: ClusterApi, projectId: string, functionId: string): Promise<void> {
  return api.del(`${functionsPath(api, projectId)}${encodeURIComponent(functionId)}`)
}
