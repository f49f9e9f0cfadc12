/**
 * `npm run bench cost` (issue 52): what one page costs, in CPU, the console and the local cluster,
 * read one request at a time. Load figures (requests served, p99) move with whatever else the machine
 * runs; a process's CPU time per request barely does, so this tells where a page's time goes and
 * whether a change made it cheaper even on a busy machine.
 *
 * It signs in USERS distinct users (default 20, the role mix of `bench load`), then for each page of
 * the load's mix sends COST_READS requests (default 60) in turn, one at a time, each as the next user,
 * after COST_WARMUP (default 10) unmeasured ones, and reads the CPU time (user + system, from /proc) of
 * the console's process tree and of the cluster's before and after. It prints, per page, the console's
 * and the cluster's CPU milliseconds per request, the mean wall time, and clusterCalls from the
 * console's request log. With `--against <ref>` the ref's build (bench/against.ts) is measured the same
 * way after this tree's, on a cluster of its own, and both are printed side by side. MAIN_ENV and
 * AGAINST_ENV switch one side, as for `bench load`; COST_LOG=<file> keeps this tree's request log,
 * COST_HTML=<dir> one answer of each page.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseEnvList, prepareAgainst } from './against'
import { createBenchUsers, roleCounts } from './bench-users'
import { consoleLogin, ensureBuild, startBenchCluster, startConsole } from './console'
import { httpSend } from './http-client'
import { childProcesses, clusterCallsOf, MIX, processTree } from './sessions'

/** Clock ticks a second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100

/** CPU milliseconds (user + system) used so far by the processes `pids`. */
function cpuMs(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      // after the command's closing parenthesis: state is field 3, utime 14, stime 15
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // gone
    }
  }
  return (ticks * 1000) / TICKS_PER_S
}

export type PageCost = { consoleMs: number; clusterMs: number; wallMs: number; clusterCalls: number | null }
export type CostResult = { label: string; users: string; reads: number; pages: Record<string, PageCost> }

async function measure(label: string, root: string | undefined, env: Record<string, string>): Promise<CostResult> {
  const reads = Number(process.env.COST_READS ?? 60)
  const warmup = Number(process.env.COST_WARMUP ?? 10)
  const userCount = Math.max(20, Number(process.env.USERS ?? 20))
  const { dataDir, cluster } = await startBenchCluster('console-cost-cluster-', 10_000)
  const logDir = mkdtempSync(path.join(tmpdir(), 'console-cost-log-'))
  const logFile = path.join(logDir, 'console.jsonl')
  const server = await startConsole(cluster.url, undefined, { root, env, stdout: logFile }).catch(
    async (error: unknown) => {
      await cluster.stop()
      rmSync(dataDir, { recursive: true, force: true })
      throw error
    },
  )
  try {
    const consolePids = () => processTree(server.child.pid!)
    // this process's other children are the cluster's
    const clusterPids = () =>
      childProcesses(process.pid)
        .filter((pid) => pid !== server.child.pid)
        .flatMap(processTree)
    const users = await createBenchUsers(cluster.url, dataDir, userCount)
    const cookies: string[] = []
    for (const user of users) cookies.push(await consoleLogin(server.base, user))
    const list = await fetch(`${server.base}/data/tables?q=web_logs`, { headers: { Cookie: cookies[0]! } })
    const tableLink = /href="(\/data\/tables\/[0-9a-f-]{36}\?project=[0-9a-f-]{36})"/.exec(await list.text())?.[1]
    if (!tableLink) throw new Error('the sample table is not listed')
    const agent = new http.Agent({ keepAlive: true })
    let turn = 0
    const send = async (step: (typeof MIX)[number], keepBody = false) => {
      const cookie = cookies[turn++ % cookies.length]!
      const response = await httpSend(agent, new URL(`${server.base}${step.path.replace(':tableLink', tableLink)}`), {
        method: step.method,
        headers: {
          'accept-encoding': 'gzip, deflate',
          Cookie: cookie,
          ...(step.body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: step.body ? new URLSearchParams(step.body).toString() : undefined,
        keepBody,
      })
      if (!step.expect.includes(response.status)) throw new Error(`${step.label}: HTTP ${response.status}`)
      return response
    }
    const pages: Record<string, PageCost> = {}
    // COST_PAGES=table,dashboard: only those pages of the mix
    const only = process.env.COST_PAGES?.split(',').filter(Boolean)
    for (const step of MIX.filter((s) => !only || only.includes(s.label))) {
      for (let i = 0; i < warmup; i++) await send(step)
      // COST_HTML=<dir>: one answer of each page kept (gzipped as sent), to see what a page renders
      if (process.env.COST_HTML && !root) {
        const answer = await send(step, true)
        writeFileSync(path.join(process.env.COST_HTML, `${step.label.replace(/\W+/g, '-')}.gz`), answer.body)
      }
      const consoleBefore = cpuMs(consolePids())
      const clusterBefore = cpuMs(clusterPids())
      const started = performance.now()
      for (let i = 0; i < reads; i++) await send(step)
      const wallMs = (performance.now() - started) / reads
      pages[step.label] = {
        consoleMs: (cpuMs(consolePids()) - consoleBefore) / reads,
        clusterMs: (cpuMs(clusterPids()) - clusterBefore) / reads,
        wallMs,
        clusterCalls: null,
      }
    }
    agent.destroy()
    await server.stop()
    // COST_LOG=<file>: keep this tree's request log (with MAIN_ENV=LOG_CLUSTER_CALLS=1, each call of each page)
    if (process.env.COST_LOG && !root) copyFileSync(logFile, process.env.COST_LOG)
    const calls = clusterCallsOf(readFileSync(logFile, 'utf8'))
    for (const [page, cost] of Object.entries(pages)) cost.clusterCalls = calls[page]?.mean ?? null
    return { label, users: roleCounts(users), reads, pages }
  } finally {
    await server.stop()
    await cluster.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(logDir, { recursive: true, force: true })
  }
}

const f1 = (n: number) => n.toFixed(1)

function print(results: CostResult[]) {
  const [first] = results
  if (!first) return
  console.log(`${first.users}; ${first.reads} reads a page, one at a time`)
  const head = ['page'.padEnd(14)]
  for (const r of results) head.push(`${r.label}: console ms, cluster ms, wall ms, calls`.padEnd(44))
  if (results.length === 2) head.push('console, cluster ×')
  console.log(head.join(' | '))
  for (const page of Object.keys(first.pages)) {
    if (results.some((r) => !r.pages[page])) continue
    const cells = [page.padEnd(14)]
    for (const r of results) {
      const c = r.pages[page]!
      const calls = c.clusterCalls === null ? '–' : f1(c.clusterCalls)
      cells.push(`${f1(c.consoleMs)}, ${f1(c.clusterMs)}, ${f1(c.wallMs)}, ${calls}`.padEnd(44))
    }
    if (results.length === 2) {
      const [a, b] = [results[0]!.pages[page]!, results[1]!.pages[page]!]
      const ratio = (x: number, y: number) => (y > 0 ? (x / y).toFixed(2) : '–')
      cells.push(`${ratio(a.consoleMs, b.consoleMs)}, ${ratio(a.clusterMs, b.clusterMs)}`)
    }
    console.log(cells.join(' | '))
  }
  for (const r of results) {
    const all = Object.values(r.pages)
    const sum = (pick: (c: PageCost) => number) => f1(all.reduce((s, c) => s + pick(c), 0) / all.length)
    console.log(
      `${r.label}: mean of the pages ${sum((c) => c.consoleMs)} ms console, ` +
        `${sum((c) => c.clusterMs)} ms cluster CPU a request`,
    )
  }
}

/** This tree's pages, and the ref's when `against` is given. */
export async function runCostBench(against?: string, log = console.log): Promise<CostResult[]> {
  ensureBuild(log)
  const results = [await measure('this tree', undefined, parseEnvList(process.env.MAIN_ENV))]
  if (against) {
    const { dir, commit } = prepareAgainst(against, log)
    results.push(await measure(commit.slice(0, 10), dir, parseEnvList(process.env.AGAINST_ENV)))
  }
  print(results)
  return results
}
