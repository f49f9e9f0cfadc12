/**
 * `npm run bench load`: many signed-in users at once (issue 13). SESSIONS sessions (default 100) of
 * USERS distinct users (default one per session, at least 20; the roles of a real org, made through the
 * cluster's API: bench/bench-users.ts), each with its own login through the console's form, loop for
 * DURATION_MS (default 60 s) over a mix of
 * pages and actions: the dashboard, the table list, a table, the jobs list, the Query page, a query
 * result, saving the timezone setting (an action that succeeds) and a new-table form with a bad name
 * (an action refused with field errors). Measures errors (any 5xx, unexpected status or network
 * failure), latency p50/p99 over every request, and the console's memory (RSS of its process tree)
 * after a 20 s warm-up and at the end (and every 10 s between). The warm-up is 20 s because the first
 * burst (every session at once on a cold server) takes about 10 s to drain and the heap reaches its
 * working size after it. THINK_MS (default 0) makes each session pause about that long between
 * requests, as a person does; without it the sessions loop back to back. Each step's clusterCalls
 * (mean and highest) come from the console's own request log.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createBenchUsers, roleCounts } from './bench-users'
import { consoleLogin, ensureBuild, startBenchCluster, startConsole } from './console'
import { httpSend } from './http-client'
import { percentile } from './stats'

type Step = { label: string; method: 'GET' | 'POST'; path: string; body?: Record<string, string>; expect: number[] }

export const MIX: Step[] = [
  { label: 'dashboard', method: 'GET', path: '/dashboard', expect: [200] },
  { label: 'tables', method: 'GET', path: '/data/tables', expect: [200] },
  { label: 'table', method: 'GET', path: ':tableLink', expect: [200] },
  { label: 'batch jobs', method: 'GET', path: '/jobs/batch-jobs', expect: [200] },
  { label: 'query page', method: 'GET', path: '/queries', expect: [200] },
  {
    label: 'query result',
    method: 'GET',
    path:
      '/result?sql=' +
      encodeURIComponent('SELECT status, count() FROM sample.web_logs GROUP BY status ORDER BY status'),
    expect: [200],
  },
  { label: 'save setting', method: 'POST', path: '/profile/settings', body: { timezone: 'UTC' }, expect: [302] },
  {
    label: 'refused form',
    method: 'POST',
    path: '/data/new-table',
    body: { project: '__new__', newProjectName: 'bad name', name: '1nope' },
    // field errors for who may create tables, the refusal for a reader
    expect: [400, 403],
  },
]

/**
 * One request over a kept-alive connection, asking for a compressed answer (gzip or deflate, what
 * fetch asked for before); resolves with the status once the whole body is in. node:http rather than
 * fetch (decision 046): the load runs on the console's own 2 cores, and fetch, which also inflates
 * every answer, took a fifth of a core from the server it measures. The body is read whole but not
 * inflated: the console's work is the same either way.
 */
async function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  return (await httpSend(agent, url, { method, headers: { 'accept-encoding': 'gzip, deflate', ...headers }, body }))
    .status
}

/**
 * RSS in MB of `pid` and its descendants (tsx runs the server in a child node process), read from
 * /proc only: this runs every 10 s inside the load's own process, and a blocking `ps` (20 ms idle,
 * far more under load) stalled every session's answer with it, adding to the latencies measured.
 */
function treeRssMb(pid: number): number {
  let kb = 0
  for (const one of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${one}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024)
}

/** The children of `pid`, read from /proc (none once it is gone). */
export function childProcesses(pid: number): number[] {
  const out: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').map(Number).filter(Boolean))
  } catch {
    // gone
  }
  return out
}

/** `pid` and its descendants (tsx runs the server in a child node process). */
export function processTree(pid: number): number[] {
  const pids = [pid]
  for (let i = 0; i < pids.length; i++) pids.push(...childProcesses(pids[i]!))
  return pids
}

export type SessionsResult = {
  /** Which console: `this tree` or the `--against` ref, and its switches (MAX_CONCURRENT_REQUESTS=0…). */
  label?: string
  sessions: number
  /** Distinct users signed in (USERS, default SESSIONS), by role. */
  users?: number
  roles?: string
  /** The mean pause between a session's requests, ms (0: none). */
  thinkMs: number
  durationMs: number
  requests: number
  errors: number
  errorSamples: string[]
  rps: number
  p50: number
  p99: number
  perStep: Record<string, { requests: number; p50: number; p99: number }>
  rssAfterWarmupMb: number
  rssAtEndMb: number
  rssChangePercent: number
  /**
   * Per step, the mean and the highest clusterCalls of its requests, from the console's request log
   * (null when that build logs none).
   */
  clusterCalls?: Record<string, { mean: number; max: number } | null>
}

/** Which console a run serves: a tree (its build and node_modules) and environment switches. */
export type SessionsTarget = { label?: string; root?: string; env?: Record<string, string> }

/** The step a logged request path belongs to (the table page by its path, whatever the table). */
function stepOfPath(logged: string): string | undefined {
  const pathname = logged.split('?')[0]!
  if (/^\/data\/tables\/[0-9a-f-]{36}$/.test(pathname)) return 'table'
  for (const step of MIX) if (step.path.split('?')[0] === pathname) return step.label
  return undefined
}

/** clusterCalls per step from a console's JSON request log (one object a line, pino-http's). */
export function clusterCallsOf(logText: string): Record<string, { mean: number; max: number } | null> {
  const byStep = new Map<string, number[]>()
  for (const line of logText.split('\n')) {
    if (!line.startsWith('{')) continue
    let entry: { req?: { path?: string; method?: string }; clusterCalls?: unknown }
    try {
      entry = JSON.parse(line)
    } catch {
      continue
    }
    const step = entry.req?.path ? stepOfPath(entry.req.path) : undefined
    if (!step) continue
    const calls = byStep.get(step) ?? []
    if (typeof entry.clusterCalls === 'number') calls.push(entry.clusterCalls)
    byStep.set(step, calls)
  }
  return Object.fromEntries(
    MIX.map((step) => {
      const calls = byStep.get(step.label) ?? []
      if (!calls.length) return [step.label, null]
      const mean = calls.reduce((sum, n) => sum + n, 0) / calls.length
      return [step.label, { mean: Math.round(mean * 100) / 100, max: Math.max(...calls) }]
    }),
  )
}

export async function runSessionsBench(target: SessionsTarget = {}): Promise<SessionsResult> {
  const sessions = Number(process.env.SESSIONS ?? 100)
  // USERS distinct users (default one per session, at least 20): sessions beyond them reuse them in turn
  const userCount = Math.max(Math.min(20, sessions), Number(process.env.USERS ?? sessions))
  const durationMs = Number(process.env.DURATION_MS ?? 60_000)
  const warmupMs = Number(process.env.WARMUP_MS ?? 20_000)
  // THINK_MS: each session pauses a random 0.5–1.5 × THINK_MS between requests, as a person reading
  // a page does. 0 (the default) loops without a pause: the server's saturation, where latency is
  // the queue in front of it.
  const thinkMs = Number(process.env.THINK_MS ?? 0)
  ensureBuild((line) => console.log(line), target.root)
  const { dataDir, cluster } = await startBenchCluster('console-load-cluster-', 10_000)
  const logDir = mkdtempSync(path.join(tmpdir(), 'console-load-log-'))
  const logFile = path.join(logDir, 'console.jsonl')
  // A console that does not start must not leave the cluster behind.
  const server = await startConsole(cluster.url, undefined, {
    root: target.root,
    env: target.env,
    stdout: process.env.CONSOLE_STDOUT ?? logFile,
  }).catch(async (error: unknown) => {
    await cluster.stop()
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  try {
    const users = await createBenchUsers(cluster.url, dataDir, userCount)
    const cookies: string[] = []
    for (let i = 0; i < Math.min(sessions, users.length); i++) cookies.push(await consoleLogin(server.base, users[i]))
    for (let i = users.length; i < sessions; i++) cookies.push(cookies[i % users.length]!)
    console.log(`${target.label ?? 'this tree'}: ${users.length} users (${roleCounts(users)})`)
    const list = await fetch(`${server.base}/data/tables?q=web_logs`, { headers: { Cookie: cookies[0]! } })
    // the table's link as the list gives it (with its ?project=, which saves the page a search across projects)
    const tableLink = /href="(\/data\/tables\/[0-9a-f-]{36}\?project=[0-9a-f-]{36})"/.exec(await list.text())?.[1]
    if (!tableLink) throw new Error('the sample table is not listed')
    const pauses = thinkMs ? `pausing about ${thinkMs} ms between requests` : 'without pauses'
    console.log(
      `${sessions} sessions signed in; ${durationMs / 1000} s of load after a ${warmupMs / 1000} s warm-up, ${pauses}…`,
    )

    const latencies: number[] = []
    const perStep = new Map<string, number[]>()
    const errorSamples: string[] = []
    let errors = 0
    let isMeasuring = false
    let measuredFrom = 0
    // Each measured request's step, start (s from the measuring start) and time: the slowest are printed
    const slowest: { label: string; atS: number; ms: number }[] = []
    let stopAt = Date.now() + warmupMs + durationMs
    const user = async (cookie: string, offset: number) => {
      for (let i = offset; Date.now() < stopAt; i++) {
        const step = MIX[i % MIX.length]!
        const started = performance.now()
        // Only requests started in the measured window count: the first burst of the warm-up (every
        // session at once on a cold server) finishes after it and is not what the server does warm.
        const counts = isMeasuring
        try {
          const status = await send(
            agent,
            new URL(`${server.base}${step.path.replace(':tableLink', tableLink)}`),
            step.method,
            { Cookie: cookie, ...(step.body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
            step.body ? new URLSearchParams(step.body).toString() : undefined,
          )
          if (!step.expect.includes(status)) throw new Error(`${step.label}: HTTP ${status}`)
          if (counts) {
            const elapsed = performance.now() - started
            slowest.push({
              label: step.label,
              atS: Math.round((started - measuredFrom) / 100) / 10,
              ms: Math.round(elapsed),
            })
            latencies.push(elapsed)
            const stepLatencies = perStep.get(step.label) ?? []
            stepLatencies.push(elapsed)
            perStep.set(step.label, stepLatencies)
          }
        } catch (error) {
          if (counts) {
            errors++
            if (errorSamples.length < 10) errorSamples.push(error instanceof Error ? error.message : String(error))
          }
        }
        if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())))
      }
    }
    const agent = new http.Agent({ keepAlive: true })
    const running = cookies.map((cookie, index) => user(cookie, index))
    // RSS every 10 s, to tell a leak (climbs to the end) from a heap that grows to its working size once
    const rssSamples: number[] = []
    const sampler = setInterval(() => rssSamples.push(treeRssMb(server.child.pid!)), 10_000)
    await new Promise((resolve) => setTimeout(resolve, warmupMs))
    isMeasuring = true
    const rssAfterWarmupMb = treeRssMb(server.child.pid!)
    measuredFrom = performance.now()
    // with LOAD_DUMP, the wall clock of the measuring start, to line the dump up with other records (logs, probes)
    if (process.env.LOAD_DUMP) console.log(`measuring from ${Date.now()} (ms since the epoch)`)
    stopAt = Date.now() + durationMs
    await Promise.all(running)
    agent.destroy()
    const elapsed = performance.now() - measuredFrom
    const rssAtEndMb = treeRssMb(server.child.pid!)
    clearInterval(sampler)
    latencies.sort((a, b) => a - b)
    const result: SessionsResult = {
      label: target.label,
      sessions,
      users: users.length,
      roles: roleCounts(users),
      thinkMs,
      durationMs,
      requests: latencies.length,
      errors,
      errorSamples,
      rps: Math.round((latencies.length / elapsed) * 1000 * 10) / 10,
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      perStep: Object.fromEntries(
        [...perStep].map(([label, values]) => {
          values.sort((a, b) => a - b)
          return [
            label,
            {
              requests: values.length,
              p50: Math.round(percentile(values, 50)),
              p99: Math.round(percentile(values, 99)),
            },
          ]
        }),
      ),
      rssAfterWarmupMb,
      rssAtEndMb,
      rssChangePercent: Math.round(((rssAtEndMb - rssAfterWarmupMb) / rssAfterWarmupMb) * 1000) / 10,
    }
    // the console flushes its log lines as it goes; the last ones are in by now (it is still running)
    await new Promise((resolve) => setTimeout(resolve, 300))
    try {
      result.clusterCalls = clusterCallsOf(readFileSync(process.env.CONSOLE_STDOUT ?? logFile, 'utf8'))
    } catch {
      result.clusterCalls = {}
    }
    console.log(
      `requests ${result.requests} (${result.rps}/s), errors ${result.errors}, p50 ${result.p50} ms, p99 ${result.p99} ms`,
    )
    for (const [label, step] of Object.entries(result.perStep)) {
      const calls = result.clusterCalls?.[label]
      console.log(
        `  ${label.padEnd(14)} ${String(step.requests).padStart(6)}  p50 ${step.p50} ms  p99 ${step.p99} ms  ` +
          `clusterCalls ${calls ? `${calls.mean} (max ${calls.max})` : 'not logged'}`,
      )
    }
    console.log(
      `console RSS: ${rssAfterWarmupMb} MB after warm-up, ${rssAtEndMb} MB at the end (${result.rssChangePercent}%); ` +
        `every 10 s: ${rssSamples.join(', ')} MB`,
    )
    // LOAD_DUMP=<file>: every measured request (step, start in s, ms) as JSON, to see where the tail comes from
    if (process.env.LOAD_DUMP) writeFileSync(process.env.LOAD_DUMP, JSON.stringify(slowest))
    slowest.sort((a, b) => b.ms - a.ms)
    console.log(
      `slowest: ${slowest
        .slice(0, 12)
        .map((r) => `${r.label} ${r.ms} ms at ${r.atS} s`)
        .join('; ')}`,
    )
    if (errorSamples.length) console.log(`errors, first ones: ${errorSamples.join('; ')}`)
    return result
  } finally {
    await server.stop()
    await cluster.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(logDir, { recursive: true, force: true })
  }
}
