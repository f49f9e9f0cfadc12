import type { ClusterApi } from './client.server'
import { listAll } from './list-all.server'

/**
 * A credential as the cluster lists it. The cluster masks secret details; the console still never
 * passes `details` to the browser as they are (see credentialDetailsForForm).
 */
export type Credential = {
  uuid: string
  name: string
  type?: string
  cloud?: string
  description?: string | null
  details?: Record<string, unknown>
  created?: string
  modified?: string
}

/** One field of a credential type, as `/credentials/types/` describes it. */
export type CredentialTypeField = {
  required: boolean
  secret?: boolean
  label?: string
  type?: string
}

/** A credential type: its cloud and the fields its details hold. */
export type CredentialType = {
  cloud?: string
  description?: string
  fields: Record<string, CredentialTypeField>
}

export type CredentialInput = {
  name: string
  description?: string
  type: string
  details: Record<string, string>
}

const credentialsPath = (api: ClusterApi) => `/orgs/${api.orgId}/credentials/`
const credentialPath = (api: ClusterApi, credentialId: string) =>
  `${credentialsPath(api)}${encodeURIComponent(credentialId)}`

/** Returns every credential of the active org, sorted by name; throws ClusterError (403 for a user who may not see them). */
export async function listCredentials(api: ClusterApi): Promise<Credential[]> {
  const credentials = await listAll<Credential>(api, credentialsPath(api))
  return credentials.sort((a, b) => a.name.localeCompare(b.name))
}

/** Returns the credential types the cluster knows, keyed by type; throws ClusterError. */
export async function listCredentialTypes(api: ClusterApi): Promise<Record<string, CredentialType>> {
  const types = await api.get<Record<string, CredentialType>>(`${credentialsPath(api)}types/`)
  // A type without a field list is kept with none, so a form can still name it.
  return Object.fromEntries(
    Object.entries(types ?? {}).map(([key, type]) => [key, { ...type, fields: type?.fields ?? {} }]),
  )
}

/** Returns one credential (secrets masked by the cluster); throws ClusterError (404 when there is none). */
export function getCredential(api: ClusterApi, credentialId: string): Promise<Credential> {
  return api.get<Credential>(credentialPath(api, credentialId))
}

/** Creates a credential; throws ClusterError (400 with field errors, `details.<field>` among them). */
export function createCredential(api: ClusterApi, credential: CredentialInput): Promise<Credential> {
  return api.post<Credential>(credentialsPath(api), credential)
}

/**
 * Changes a credential with PATCH: the cluster merges `details`, so a secret the form left blank is
 * simply not sent and the stored one stays. Throws ClusterError.
 */
export function updateCredential(
  api: ClusterApi,
  credentialId: string,
  change: Partial<CredentialInput>,
): Promise<Credential> {
  return api.patch<Credential>(credentialPath(api, credentialId), change)
}

/** Deletes a credential; throws ClusterError. */
export function deleteCredential(api: ClusterApi, credentialId: string): Promise<void> {
  return api.del(credentialPath(api, credentialId))
}
