import { STORE_ACCOUNT_NAME } from '../app/utils/console-store'

/*
 * Local mode (decision 105): the console's own account for its store, on the local cluster the
 * console started, made with the admin's login it has there. Deployed against a real cluster the
 * operator makes it once and gives the console its token (CONSOLE_STORE_TOKEN, README).
 */

type Admin = { email: string; password: string }

async function call<T>(clusterUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${clusterUrl}/config/v1${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`)
  return (text ? JSON.parse(text) : undefined) as T
}

/**
 * The store account's token: the service account STORE_ACCOUNT_NAME found by name, else made (no
 * role: the console gives it its role on the store when the store is set up), with `revokeEarlier`
 * its earlier tokens revoked (local mode: each start issues one, none is kept on disk), and a new
 * one issued. Throws an Error that says which call failed.
 */
export async function provisionStoreAccount(
  clusterUrl: string,
  admin: Admin,
  { revokeEarlier = true }: { revokeEarlier?: boolean } = {},
): Promise<string> {
  const login = await call<{ auth_token: { access_token: string } }>(clusterUrl, 'POST', '/login', undefined, {
    username: admin.email,
    password: admin.password,
  })
  const token = login.auth_token.access_token
  const found = await call<{ results: { uuid: string; name: string }[] }>(
    clusterUrl,
    'GET',
    `/service_accounts/?name=${encodeURIComponent(STORE_ACCOUNT_NAME)}`,
    token,
  )
  const account =
    found.results.find((entry) => entry.name === STORE_ACCOUNT_NAME) ??
    (await call<{ uuid: string }>(clusterUrl, 'POST', '/service_accounts/', token, {
      name: STORE_ACCOUNT_NAME,
      description: "The console's own account for its store (saved queries, history): made by the console",
    }))
  const tokens = `/service_accounts/${encodeURIComponent(account.uuid)}/tokens/`
  if (revokeEarlier) await call(clusterUrl, 'DELETE', tokens, token)
  return (await call<{ token: string }>(clusterUrl, 'POST', tokens, token, {})).token
}
