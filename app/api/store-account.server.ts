import { STORE_ACCOUNT_NAME, STORE_ROLE } from '~/utils/console-store'
import { createClusterApi, type ClusterApi } from './client.server'
import { ClusterError } from './errors.server'
import { createRole, patchRole, rolesNamed, type Policy } from './roles.server'
import { hasStoreAccount, storeToken } from './store-token.server'
import { addUserRoles } from './users.server'

export { hasStoreAccount, storeSessionFor, storeToken } from './store-token.server'
export { STORE_ACCOUNT_NAME, STORE_ROLE }

/*
 * The console's own credential for its store (decision 105): a service account whose token the
 * console holds (`CONSOLE_STORE_TOKEN`; made at start when the console starts the local cluster).
 * Every read and write of `cluster_console` goes through it, and the console filters what it read
 * by the signed-in user (their history, their own and the shared saved queries): a user needs no
 * right on the store, so nobody is given one that would let them read everyone's rows through
 * /query. The token never leaves the server. Without one configured, the store is used with the
 * signed-in user's rights, as before (decision 029).
 */

/**
 * What the account may do in the store's project: see it, complete its tables and transforms (a
 * store made by an older console lacks a table or a column), read and write its rows.
 */
export const STORE_PERMISSIONS: readonly string[] = [
  'view_project',
  'view_table',
  'view_transform',
  'add_table',
  'add_transform',
  'change_transform',
  'select_sql',
  'insert_sql',
]

/**
 * The client the store is used through on behalf of `api`'s user: the store account's (same org
 * and cluster, the user's id kept for what it writes), or `api` itself without an account. Its
 * calls never end the user's session: a refused account token is the console's fault, not theirs.
 */
export function storeClient(api: ClusterApi): ClusterApi {
  const token = storeToken()
  if (!token) return api
  return createClusterApi(
    { token, orgId: api.orgId, userId: api.userId, expiresAt: 0, expiresIn: 0 },
    { origin: api.origin },
  )
}

/** The account's id: the token's subject (a service account token is a JWT), else `users/current`. */
async function accountId(store: ClusterApi): Promise<string> {
  const payload = storeToken()?.split('.')[1]
  if (payload) {
    try {
      const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub
      if (typeof sub === 'string' && sub) return sub
    } catch {
      // not a JWT: ask the cluster
    }
  }
  return (await store.get<{ uuid: string }>('/users/current')).uuid
}

const samePolicies = (a: Policy[], b: Policy[]) =>
  a.length === b.length &&
  a.every(
    (policy, index) =>
      policy.scope_type === b[index]!.scope_type &&
      policy.scope_id === b[index]!.scope_id &&
      [...policy.permissions].sort().join() === [...b[index]!.permissions].sort().join(),
  )

/**
 * Gives the store account its rights on the store's project `projectId`, with `operator`'s (an org
 * admin's: roles and users are changed): the role STORE_ROLE made or pointed at the project (a store
 * deleted and made again has a new id), and the account given it. Nothing without an account.
 * Throws ClusterError (403 when the operator may not manage roles).
 */
export async function grantStoreAccount(operator: ClusterApi, projectId: string): Promise<void> {
  if (!hasStoreAccount()) return
  const policies: Policy[] = [{ permissions: [...STORE_PERMISSIONS], scope_type: 'project', scope_id: projectId }]
  const description = "The console's own account for its store (saved queries, history): this project only"
  const [role] = await rolesNamed(operator, [STORE_ROLE])
  if (!role) {
    try {
      await createRole(operator, { name: STORE_ROLE, description, policies })
    } catch (error) {
      // another console made it first: point it at this project
      if (!(error instanceof ClusterError && (error.status === 400 || error.status === 409))) throw error
      const [made] = await rolesNamed(operator, [STORE_ROLE])
      if (!made) throw error
      if (!samePolicies(made.policies, policies)) await patchRole(operator, made.id, { policies })
    }
  } else if (!samePolicies(role.policies, policies)) {
    await patchRole(operator, role.id, { policies })
  }
  const account = await accountId(storeClient(operator))
  if (!role?.users?.includes(account)) await addUserRoles(operator, account, [STORE_ROLE])
}
