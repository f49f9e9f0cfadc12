import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { STORE_ACCOUNT_NAME } from '../app/utils/console-store'
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_CLUSTER_PORT, SESSION_SECRET } from './env'

/**
 * A token of the store account the e2e console made at its start (decision 105), issued for a second
 * console so that both share their configuration, as a deployment's replicas do (the e2e console's
 * own token stays valid); undefined when the cluster has no such account.
 */
async function storeAccountToken(): Promise<string | undefined> {
  const base = `http://127.0.0.1:${E2E_CLUSTER_PORT}/config/v1`
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const { auth_token } = (await login.json()) as { auth_token: { access_token: string } }
  const headers = { Authorization: `Bearer ${auth_token.access_token}`, 'Content-Type': 'application/json' }
  const found = await fetch(`${base}/service_accounts/?name=${STORE_ACCOUNT_NAME}`, { headers })
  const account = ((await found.json()) as { results?: { uuid: string; name: string }[] }).results?.find(
    (entry) => entry.name === STORE_ACCOUNT_NAME,
  )
  if (!account) return undefined
  const issued = await fetch(`${base}/service_accounts/${account.uuid}/tokens/`, {
    method: 'POST',
    headers,
    body: '{}',
  })
  return issued.ok ? ((await issued.json()) as { token: string }).token : undefined
}

/**
 * A second console a spec starts on the e2e console's local cluster (another mode or another way
 * to run it), ready once `readyPath` answers, with the same SESSION_SECRET and a token of the same
 * store account (`env` may say otherwise). `stop()` ends its own process group only.
 */
export async function startSecondConsole(
  command: string[],
  port: number,
  env: Record<string, string> = {},
  readyPath = '/login',
) {
  const storeToken = await storeAccountToken()
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      CLUSTER_URL: `http://127.0.0.1:${E2E_CLUSTER_PORT}`,
      SESSION_SECRET,
      ...(storeToken ? { CONSOLE_STORE_TOKEN: storeToken } : {}),
      ...env,
    },
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited (${child.exitCode})`)
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break
    } catch {
      // not listening yet
    }
    if (i > 240) throw new Error(`${command.join(' ')} did not start`)
    await sleep(250)
  }
  return {
    url,
    async stop() {
      if (!child.pid || child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        return // already gone
      }
      await exited
    },
  }
}
