import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { E2E_CLUSTER_PORT, SESSION_SECRET } from './env'

/**
 * A second console a spec starts on the e2e console's local cluster (another mode or another way
 * to run it), ready once `readyPath` answers. `stop()` ends its own process group only.
 */
export async function startSecondConsole(
  command: string[],
  port: number,
  env: Record<string, string> = {},
  readyPath = '/login',
) {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      CLUSTER_URL: `http://127.0.0.1:${E2E_CLUSTER_PORT}`,
      SESSION_SECRET,
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
