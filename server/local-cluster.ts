import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { Transform } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export type LocalCluster = {
  /** The cluster's origin, e.g. http://127.0.0.1:41235 */
  url: string
  admin: { email: string; password: string }
  /** Where the admin's credentials are kept (`<data dir>/admin.json`): the start output names it, never the password. */
  adminFile: string
  /** Stops the cluster process (SIGTERM, then SIGKILL after 5 s); resolves when it has exited. */
  stop(): Promise<void>
  /** Resolves when the cluster process exits, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export type LocalClusterOptions = {
  /** Default: $CLUSTER_DATA_DIR or <project>/.data/cluster */
  dataDir?: string
  /** Default: a free loopback port. */
  port?: number
  adminEmail?: string
  adminPassword?: string
  /** Extra environment for the cluster process. */
  env?: Record<string, string | undefined>
  /** Give up when the cluster has not answered after this long. Default 120 s (first start seeds data). */
  timeoutMs?: number
  /** Where the cluster's output goes. Default: the console's terminal (`inherit`), with the admin password left out. */
  stdio?: 'inherit' | 'ignore' | 'pipe'
}

/** Resolves to a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

function readAdmin(dataDir: string): { email: string; password: string } | null {
  const file = path.join(dataDir, 'admin.json')
  if (!existsSync(file)) return null
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { email?: unknown; password?: unknown }
    if (typeof parsed.email === 'string' && typeof parsed.password === 'string') {
      return { email: parsed.email, password: parsed.password }
    }
  } catch {
    // Being written right now; try again on the next poll.
  }
  return null
}

/**
 * The cluster's output line by line, with the password of an "Admin login: <email> / <password>"
 * line left out: the console's start output says where the password is kept instead.
 */
export function withoutPasswords(): Transform {
  let rest = ''
  const redact = (line: string) => line.replace(/(admin login:\s*\S+)\s*\/\s*\S+/i, '$1')
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n')
      rest = lines.pop()!
      done(null, lines.map((line) => `${redact(line)}\n`).join(''))
    },
    flush(done) {
      done(null, rest ? redact(rest) : '')
    },
  })
}

/**
 * Starts the local cluster (`tsx cluster/main.ts`) as a child process on a loopback port and waits
 * until it answers `GET /version` (any HTTP answer, 401 included, means it is up) and its admin
 * credentials exist. Rejects with the reason when it exits or does not answer in time.
 */
export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const dataDir = path.resolve(options.dataDir ?? process.env.CLUSTER_DATA_DIR ?? path.join(ROOT, '.data', 'cluster'))
  mkdirSync(dataDir, { recursive: true })
  const port = options.port ?? (await freePort())
  const url = `http://127.0.0.1:${port}`
  const env: NodeJS.ProcessEnv = {
    // chdb runs each async query on a libuv worker thread, and the pool size is fixed at process
    // start: 16 lets a long query run beside ingest and config work (decision 003).
    UV_THREADPOOL_SIZE: '16',
    ...process.env,
    ...options.env,
    CLUSTER_PORT: String(port),
    CLUSTER_DATA_DIR: dataDir,
  }
  // The console's own variables mean nothing to the cluster and must not leak into it.
  delete env.CLUSTER_URL
  delete env.SESSION_SECRET
  delete env.PORT
  if (options.adminEmail) env.CLUSTER_ADMIN_EMAIL = options.adminEmail
  if (options.adminPassword) env.CLUSTER_ADMIN_PASSWORD = options.adminPassword

  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx')
  // CLUSTER_NODE_FLAGS: node flags for the cluster process (e.g. --cpu-prof when profiling a bench)
  const nodeFlags = (process.env.CLUSTER_NODE_FLAGS ?? '').split(' ').filter(Boolean)
  const stdio = options.stdio ?? 'inherit'
  const child: ChildProcess = spawn(tsx, [...nodeFlags, path.join(ROOT, 'cluster', 'main.ts')], {
    cwd: ROOT,
    env,
    // "inherit" goes through the console, which leaves the admin password out (issue 49)
    stdio: ['ignore', stdio === 'inherit' ? 'pipe' : stdio, stdio === 'inherit' ? 'pipe' : stdio],
  })
  if (stdio === 'inherit') {
    child.stdout?.pipe(withoutPasswords()).pipe(process.stdout)
    child.stderr?.pipe(withoutPasswords()).pipe(process.stderr)
  }
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      resolve(exit)
    })
  })
  child.once('error', () => {
    exit ??= { code: -1, signal: null }
  })

  const stop = async () => {
    if (exit) return
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(killer)
  }

  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  let isUp = false
  while (Date.now() < deadline) {
    if (exit) {
      const { code, signal } = exit as { code: number | null; signal: NodeJS.Signals | null }
      throw new Error(`The local cluster exited before answering (code ${code}, signal ${signal})`)
    }
    if (!isUp) {
      try {
        await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) })
        isUp = true
      } catch {
        // Not listening yet.
      }
    }
    if (isUp) {
      const admin =
        readAdmin(dataDir) ??
        (options.adminEmail && options.adminPassword
          ? { email: options.adminEmail, password: options.adminPassword }
          : null) ??
        (process.env.CLUSTER_ADMIN_EMAIL && process.env.CLUSTER_ADMIN_PASSWORD
          ? { email: process.env.CLUSTER_ADMIN_EMAIL, password: process.env.CLUSTER_ADMIN_PASSWORD }
          : null)
      if (admin) return { url, admin, adminFile: path.join(dataDir, 'admin.json'), stop, exited }
    }
    await sleep(200)
  }
  await stop()
  throw new Error(
    `The local cluster did not answer on ${url} within ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s`,
  )
}
