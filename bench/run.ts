/**
 * `npm run bench`: every benchmark the issues name, in one run.
 *   - the local cluster: config-call latency p50/p99 (idle and under heavy queries), rows/s through
 *     /ingest/event, /query time against the same SQL on the engine directly;
 *   - the console: gzipped initial JavaScript per route, and server-render throughput of
 *     /data/tables with 200 tables beside a trivial route.
 *   - the query workspace (`npm run bench -- query`): Run → first rows on screen and the result
 *     page's bytes for 100, 10,000 and 100,000-row queries, with and without scripts (bench/query.ts);
 *   - `npm run bench load`: 100 signed-in sessions of distinct users (bench/bench-users.ts) for 60 s over
 *     pages and actions (bench/sessions.ts), with each page's clusterCalls from the request log;
 *     `npm run bench -- load --against <ref> --rounds 3` serves another commit's build by turns with
 *     this tree's and prints both and the ratio (bench/against.ts; MAIN_ENV / AGAINST_ENV switches).
 *   - `npm run bench cost`: each page's CPU in the console and the cluster, one request at a time
 *     (bench/page-cost.ts; `--against <ref>` beside another commit's build);
 *   - `npm run bench ab`: an alternating A/B of `bench load` with and without each framework patch,
 *     and each size swap of vite/ by the bytes it saves (bench/ab.ts, decision 081).
 *   - `npm run bench js`: every route's first-load JavaScript, gzipped, beside issue 33's budgets
 *     (170 KB a route, 120 KB the shell; bench/js-budget.ts, the check scripts/check-js-budget.ts).
 * Figures are printed and written to bench/results/latest.json. Exit code 1 when Ace or Plotly is
 * in a route's initial load, or a route is over its JavaScript budget.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runAbBench } from './ab'
import { parseEnvList, runAgainst } from './against'
import { runClusterBench } from './cluster'
import { ensureBuild, runConsoleBench } from './console'
import { runJsBudget } from './js-budget'
import { runQueryBench } from './query'
import { runCostBench } from './page-cost'
import { runScaleBench } from './scale'
import { runSessionsBench } from './sessions'
import { runUploadBench } from './upload'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** `--name value` from the arguments (or `--name=value`), and the arguments left. */
function takeFlag(args: string[], name: string): string | undefined {
  const at = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))
  if (at < 0) return undefined
  const [flag] = args.splice(at, 1)
  return flag!.includes('=') ? flag!.slice(flag!.indexOf('=') + 1) : args.splice(at, 1)[0]
}
const args = process.argv.slice(2)
// `npm run bench -- load --against <ref> --rounds 3` (AGAINST and ROUNDS in the environment do the same)
const against = takeFlag(args, 'against') ?? process.env.AGAINST
const rounds = Number(takeFlag(args, 'rounds') ?? process.env.ROUNDS ?? 3)
const only = args
const wants = (name: string) => only.length === 0 || only.includes(name)
// 60 s of 100 users: only when asked for (`npm run bench load`)
const asked = (name: string) => only.includes(name)

const machine = {
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model,
  node: process.version,
  load: os.loadavg().map((l) => l.toFixed(2)),
}
console.log(`Machine: ${machine.cpus} cores (${machine.cpu}), Node ${machine.node}, load ${machine.load.join(' ')}`)

const results: Record<string, unknown> = { at: new Date().toISOString(), machine }
let jsProblems: string[] = []
if (wants('js')) {
  console.log("\n== JavaScript: every route's first load (build/client, from the last npm run build)")
  ensureBuild((line) => console.log(line))
  const js = runJsBudget(path.join(ROOT, 'build', 'client'))
  jsProblems = js.problems
  results.js = { medianKb: js.median, routes: js.rows, problems: js.problems }
}
if (wants('cluster')) {
  console.log('\n== Local cluster')
  results.cluster = await runClusterBench()
}
if (wants('console')) {
  console.log('\n== Console')
  results.console = await runConsoleBench()
}
if (wants('query')) {
  console.log('\n== Query: big results in Chromium, with and without scripts')
  results.query = await runQueryBench()
}
if (wants('upload')) {
  console.log('\n== Upload (50 MB through the console)')
  results.upload = await runUploadBench()
}

// a 10,000-table org built and read twice (issue 33): only when asked for (`npm run bench scale`)
if (asked('scale')) {
  console.log('\n== Scale: the spec pages on a real-sized org beside the seeded one')
  results.scale = await runScaleBench()
}

if (asked('load') && against) {
  console.log(`\n== Load: this tree beside ${against}, by turns, ${rounds} rounds (distinct users)`)
  results.load = await runAgainst(against, rounds)
} else if (asked('load')) {
  console.log('\n== Load: signed-in sessions (distinct users) over a mix of pages and actions')
  results.load = await runSessionsBench({ env: parseEnvList(process.env.MAIN_ENV) })
}
// CPU a page costs the console and the cluster, one request at a time (`npm run bench cost [--against <ref>]`)
if (asked('cost')) {
  console.log(`\n== Cost: CPU a page, console and cluster${against ? `, beside ${against}` : ''}`)
  results.cost = await runCostBench(against)
}

const out = path.join(ROOT, 'bench', 'results')
fs.mkdirSync(out, { recursive: true })
// the patches and swaps weighed (about 30 minutes by default): only when asked for (`npm run bench ab`)
if (asked('ab')) {
  console.log('\n== A/B: each framework patch under load, each vite/ size swap by its bytes')
  results.ab = await runAbBench()
  fs.writeFileSync(
    path.join(out, `ab-${String(results.at).replace(/[:.]/g, '-')}.json`),
    JSON.stringify(results, null, 2),
  )
}
fs.writeFileSync(path.join(out, 'latest.json'), JSON.stringify(results, null, 2))
console.log(`\nFigures written to ${path.relative(ROOT, path.join(out, 'latest.json'))}`)
const heavy = (results.console as { heavyInInitialLoad?: string[] } | undefined)?.heavyInInitialLoad ?? []
if (jsProblems.length) {
  console.error(`Over the JavaScript budget: ${jsProblems.join('; ')}`)
  process.exitCode = 1
}
if (heavy.length) {
  console.error(`Heavy libraries in an initial load: ${heavy.join(', ')}`)
  process.exitCode = 1
}
