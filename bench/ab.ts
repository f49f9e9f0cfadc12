/**
 * `npm run bench ab` (issue 34, decision 081): an alternating A/B of each framework patch under
 * `npm run bench load`, and each size swap of `vite/` by the browser bytes it saves.
 *
 * Arms: `base` (every patch in patches/) and one `no-<package>` arm per patch, each a directory under
 * AB_DIR (default a new /tmp/ab-XXXX) holding the source tree at HEAD (`git archive`) and node_modules
 * hard-linked to this tree's (`cp -al`). In a no-X arm the patched package alone is replaced by a real
 * copy before the patch is reversed in it (`patch -R`): reversing it in a hard-linked file would
 * change every worktree's node_modules. Base and the first no-X arm are built (`npm run build`); when
 * the two builds are the same byte for byte (the patches touch only files the server loads from
 * node_modules at run time), the other arms get a copy of base's (AB_BUILD_EACH=1 builds each). Every
 * arm is checked with scripts/check-patches.mjs: base has every patch in effect, a no-X arm all but X.
 *
 * Rounds: ROUNDS (default 3); in each, every arm runs `bench load` (SESSIONS, DURATION_MS, WARMUP_MS
 * as that bench reads them) with its own console from its own build and node_modules, and its own
 * fresh local cluster (the load bench starts one per run on a new data dir), in an order rotated by
 * one each round. Printed: requests/s, p50 and p99 per arm per round; per arm the median and spread;
 * per patch the gain of base over its no-X arm beside the noise (the spread of base across rounds),
 * and the exact one-sided signed-rank p of its paired per-round gains (`signedRankP`).
 *
 * Swaps: for each `vite/` swap whose purpose is size, a build of the base arm without it
 * (VITE_SWAPS_OFF, BUILD_DIR beside the base build), weighed as bench/js-budget.ts weighs routes:
 * the shell's KB gz and the median route's. AB_SWAPS=off skips them.
 *
 * AB_DIR set to an existing directory reuses the arms made there by an earlier run (a run with
 * AB_KEEP=1 leaves them); otherwise the arms are removed at the end.
 */
import { spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { SHELL } from './bundle-sizes'
import { runJsBudget } from './js-budget'
import type { SessionsResult } from './sessions'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The `vite/` swaps that exist for size (each plugin's header); guarded-conform-parse is for correctness. */
export const SIZE_SWAPS = [
  'client-zod-without-json-schema',
  'client-chakra-without-preflight',
  'one-shell-chunk',
  'pure-schema-modules',
] as const

export type Arm = { name: string; patch?: string; pkg?: string }

/** patch-package's file name `@scope+name+1.2.3.patch` → the package `@scope/name`. */
export function packageOfPatch(file: string): string {
  const parts = file.replace(/\.patch$/, '').split('+')
  return parts.slice(0, -1).join('/')
}

export function armsFor(patchFiles: string[]): Arm[] {
  return [
    { name: 'base' },
    ...patchFiles.map((patch) => {
      const pkg = packageOfPatch(patch)
      return { name: `no-${pkg.replace(/^@/, '').replace(/\//g, '-')}`, patch, pkg }
    }),
  ]
}

/** Round `round`'s order: the arms rotated by `round` places. */
export function rotated<T>(items: T[], round: number): T[] {
  const k = round % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (!sorted.length) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** (max − min) ÷ median, in %: how far one arm's runs spread. */
export function spreadPercent(values: number[]): number {
  if (values.length < 2) return NaN
  return ((Math.max(...values) - Math.min(...values)) / median(values)) * 100
}

/**
 * Wilcoxon's signed-rank test, exact, one-sided: the chance of paired differences at least as
 * favourable to "positive" as `diffs` if the arms did not differ (every sign equally likely). Ties in
 * size share their ranks; zeros are dropped. Small is evidence of a gain; used beside the spread
 * rule because one disturbed round (a busy machine) widens the spread past any gain, while it moves
 * only one rank here. Exact over all 2^n sign patterns (n ≤ 20 rounds).
 */
export function signedRankP(diffs: number[]): number {
  const nonZero = diffs.filter((d) => d !== 0)
  const n = nonZero.length
  if (!n || n > 20) return NaN
  const sizes = nonZero.map(Math.abs).sort((a, b) => a - b)
  const rankOf = (size: number) => {
    const first = sizes.indexOf(size)
    const last = sizes.lastIndexOf(size)
    return (first + last) / 2 + 1
  }
  const ranks = nonZero.map((d) => rankOf(Math.abs(d)))
  const observed = nonZero.reduce((sum, d, i) => (d < 0 ? sum + ranks[i]! : sum), 0)
  let atMost = 0
  for (let mask = 0; mask < 1 << n; mask++) {
    let negative = 0
    for (let i = 0; i < n; i++) if (mask & (1 << i)) negative += ranks[i]!
    if (negative <= observed + 1e-9) atMost++
  }
  return atMost / (1 << n)
}

const round1 = (value: number) => Math.round(value * 10) / 10

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed: ${result.stderr?.slice(-2000) || result.stdout?.slice(-2000)}`,
    )
  return result.stdout
}

/** The lines a patch adds, per file it patches (the same reading as scripts/check-patches.mjs). */
function addedLines(patchText: string): Map<string, string[]> {
  const files = new Map<string, string[]>()
  let current: string | null = null
  for (const line of patchText.split('\n')) {
    if (line.startsWith('+++ b/')) {
      current = line.slice('+++ b/'.length)
      files.set(current, [])
    } else if (current && line.startsWith('+') && line.slice(1).trim()) files.get(current)!.push(line.slice(1))
  }
  return files
}

function hasAll(file: string, lines: string[]) {
  const text = readFileSync(file, 'utf8')
  return lines.every((line) => text.includes(line))
}

/** Whether a no-X arm's build came out byte for byte base's (undefined until one was built and compared). */
const sharedBuild: { isSame?: boolean } = process.env.AB_BUILD_EACH === '1' ? { isSame: false } : {}

/** Makes (or, when its marker names this commit, reuses) one arm; returns what check-patches said. */
function makeArm(dir: string, arm: Arm, commit: string, log: (line: string) => void): string {
  const armDir = path.join(dir, arm.name)
  const marker = path.join(armDir, '.ab-ready')
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === commit) {
    log(`${arm.name}: reusing ${armDir}`)
    return verifyArm(armDir, arm)
  }
  rmSync(armDir, { recursive: true, force: true })
  mkdirSync(armDir, { recursive: true })
  run('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${armDir}"`], ROOT)
  run('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(armDir, 'node_modules')], ROOT)
  // caches a build or test run may rewrite in place: never through a link to the shared files
  rmSync(path.join(armDir, 'node_modules', '.vite'), { recursive: true, force: true })
  rmSync(path.join(armDir, 'node_modules', '.cache'), { recursive: true, force: true })
  if (arm.patch && arm.pkg) {
    const patchFile = path.join(ROOT, 'patches', arm.patch)
    const added = addedLines(readFileSync(patchFile, 'utf8'))
    // a real copy of the patched package only: the rest stays hard-linked
    rmSync(path.join(armDir, 'node_modules', arm.pkg), { recursive: true, force: true })
    run('cp', ['-a', path.join(ROOT, 'node_modules', arm.pkg), path.join(armDir, 'node_modules', arm.pkg)], ROOT)
    for (const file of added.keys()) {
      const nlink = statSync(path.join(armDir, file)).nlink
      if (nlink !== 1)
        throw new Error(`${arm.name}: ${file} still has ${nlink} links; not reversing the patch through them`)
    }
    run('patch', ['-R', '-p1', '--no-backup-if-mismatch', '-i', patchFile], armDir)
    for (const [file, lines] of added) {
      if (!hasAll(path.join(ROOT, file), lines)) throw new Error(`${file} lost ${arm.patch} in ${ROOT}: stopping`)
      if (hasAll(path.join(armDir, file), lines)) throw new Error(`${arm.name}: ${file} still holds ${arm.patch}`)
    }
  }
  const baseBuild = path.join(dir, 'base', 'build')
  if (sharedBuild.isSame && arm.patch && existsSync(baseBuild)) {
    // the patches change only node_modules files the built server loads at run time (check-patches
    // checks that it loads them), so an arm's build is base's; the first no-X arm is built and
    // compared to prove it, and every arm is built when AB_BUILD_EACH=1 or the first differed
    log(`${arm.name}: base's build (the same as the first no-X arm's)`)
    run('cp', ['-a', baseBuild, path.join(armDir, 'build')], ROOT)
  } else {
    log(`${arm.name}: building…`)
    run('npm', ['run', 'build'], armDir)
    if (arm.patch && sharedBuild.isSame === undefined && process.env.AB_BUILD_EACH !== '1') {
      const diff = spawnSync('diff', ['-rq', baseBuild, path.join(armDir, 'build')], { encoding: 'utf8' })
      sharedBuild.isSame = diff.status === 0
      const differences = diff.stdout ? `: ${diff.stdout.slice(0, 500)}` : ''
      log(`${arm.name}: its build ${sharedBuild.isSame ? 'is byte for byte' : 'is not'} base's${differences}`)
    }
  }
  const said = verifyArm(armDir, arm)
  writeFileSync(marker, commit)
  return said
}

/** check-patches in the arm: base has every patch in effect; a no-X arm lacks X and only X. */
function verifyArm(armDir: string, arm: Arm): string {
  const result = spawnSync('node', ['scripts/check-patches.mjs'], { cwd: armDir, encoding: 'utf8' })
  const said = `${result.stdout}${result.stderr}`.trim()
  const patchFiles = readdirSync(path.join(armDir, 'patches')).filter((name) => name.endsWith('.patch'))
  if (!arm.patch) {
    if (result.status !== 0) throw new Error(`base: a patch is not in effect: ${said}`)
  } else {
    const named = patchFiles.filter((name) => said.includes(`${name}:`))
    if (result.status === 0 || named.length !== 1 || named[0] !== arm.patch)
      throw new Error(`${arm.name}: check-patches should report ${arm.patch} alone, said: ${said}`)
  }
  return said.split('\n').join(' ')
}

/** One `bench load` in an arm, in its own process; its figures from the arm's bench/results/latest.json. */
async function loadRun(armDir: string, logFile: string): Promise<SessionsResult> {
  const latest = path.join(armDir, 'bench', 'results', 'latest.json')
  rmSync(latest, { force: true })
  const out = openSync(logFile, 'w')
  const child = spawn(path.join(armDir, 'node_modules', '.bin', 'tsx'), ['bench/run.ts', 'load'], {
    cwd: armDir,
    stdio: ['ignore', out, out],
    env: process.env,
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`bench load in ${armDir} exited ${code}; see ${logFile}`)
  return (JSON.parse(readFileSync(latest, 'utf8')) as { load: SessionsResult }).load
}

type RunFigures = {
  round: number
  position: number
  rps: number
  p50: number
  p99: number
  errors: number
  requests: number
}

export type AbResult = {
  commit: string
  rounds: number
  sessions: number
  durationMs: number
  warmupMs: number
  arms: {
    name: string
    patch?: string
    checkPatches: string
    runs: RunFigures[]
    median: { rps: number; p50: number; p99: number }
    rpsSpreadPercent: number
  }[]
  patches: {
    patch: string
    arm: string
    rpsGainPercent: number
    p50GainPercent: number
    p99GainPercent: number
    pairedRpsGainsPercent: number[]
    noisePercent: number
    isBeyondNoise: boolean
  }[]
  swaps: {
    swap: string
    shellKb: number
    medianRouteKb: number
    allJsKb: number
    shellSavedKb: number
    medianRouteSavedKb: number
    allJsSavedKb: number
  }[]
  base: { shellKb: number; medianRouteKb: number; allJsKb: number } | null
}

function jsFigures(clientDir: string) {
  const { rows, median: medianRouteKb } = runJsBudget(clientDir, { log: () => {} })
  // every chunk, lazily loaded ones included: a swap's bytes may sit only in chunks no first load has
  const assets = path.join(clientDir, 'assets')
  const allBytes = readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipSync(readFileSync(path.join(assets, name))).length, 0)
  return { shellKb: rows.find((row) => row.url === SHELL)?.kb ?? NaN, medianRouteKb, allJsKb: round1(allBytes / 1024) }
}

export async function runAbBench(log: (line: string) => void = (line) => console.log(line)): Promise<AbResult> {
  const rounds = Number(process.env.ROUNDS ?? 3)
  // AB_COMMIT: the source the arms hold (default HEAD); pinned, a later run reuses arms made before
  const commit = run('git', ['rev-parse', process.env.AB_COMMIT ?? 'HEAD'], ROOT).trim()
  const dir = process.env.AB_DIR ?? mkdtempSync('/tmp/ab-')
  mkdirSync(dir, { recursive: true })
  const patchFiles = readdirSync(path.join(ROOT, 'patches'))
    .filter((name) => name.endsWith('.patch'))
    .sort()
  const arms = armsFor(patchFiles)
  log(`Arms in ${dir} (source at ${commit.slice(0, 10)}): ${arms.map((arm) => arm.name).join(', ')}`)
  try {
    const checks = new Map<string, string>()
    for (const arm of arms) {
      checks.set(arm.name, makeArm(dir, arm, commit, log))
      log(`${arm.name}: check-patches: ${checks.get(arm.name)}`)
    }

    const baseDir = path.join(dir, 'base')
    let base: AbResult['base'] = null
    const swaps: AbResult['swaps'] = []
    if (process.env.AB_SWAPS !== 'off') {
      base = jsFigures(path.join(baseDir, 'build', 'client'))
      log(
        `\nvite/ size swaps, browser JS gz (base: shell ${base.shellKb} KB, ` +
          `median route ${base.medianRouteKb} KB, all JS ${base.allJsKb} KB)`,
      )
      for (const swap of SIZE_SWAPS) {
        const buildDir = `build-without-${swap}`
        if (!existsSync(path.join(baseDir, buildDir, 'client')))
          run('npm', ['run', 'build'], baseDir, { VITE_SWAPS_OFF: swap, BUILD_DIR: buildDir })
        const without = jsFigures(path.join(baseDir, buildDir, 'client'))
        const row = {
          swap,
          ...without,
          shellSavedKb: round1(without.shellKb - base.shellKb),
          medianRouteSavedKb: round1(without.medianRouteKb - base.medianRouteKb),
          allJsSavedKb: round1(without.allJsKb - base.allJsKb),
        }
        swaps.push(row)
        log(
          `  without ${swap.padEnd(34)} shell ${without.shellKb.toFixed(1)} KB (saves ${row.shellSavedKb}), ` +
            `median route ${without.medianRouteKb.toFixed(1)} KB (saves ${row.medianRouteSavedKb}), ` +
            `all JS ${without.allJsKb} KB (saves ${row.allJsSavedKb})`,
        )
      }
    }

    const sessions = Number(process.env.SESSIONS ?? 100)
    const durationMs = Number(process.env.DURATION_MS ?? 60_000)
    const warmupMs = Number(process.env.WARMUP_MS ?? 20_000)
    log(
      `\n${rounds} round(s) of bench load: ${sessions} sessions, ${durationMs / 1000} s after ${warmupMs / 1000} s warm-up`,
    )
    const runs = new Map<string, RunFigures[]>(arms.map((arm) => [arm.name, []]))
    for (let round = 0; round < rounds; round++) {
      const order = rotated(arms, round)
      log(`round ${round + 1}: ${order.map((arm) => arm.name).join(' → ')}`)
      for (const [position, arm] of order.entries()) {
        const logFile = path.join(dir, `${arm.name}-round${round + 1}.log`)
        const load = await loadRun(path.join(dir, arm.name), logFile)
        const figures = {
          round: round + 1,
          position,
          rps: load.rps,
          p50: load.p50,
          p99: load.p99,
          errors: load.errors,
          requests: load.requests,
        }
        runs.get(arm.name)!.push(figures)
        log(
          `  ${arm.name.padEnd(28)} ${String(load.rps).padStart(7)} req/s  p50 ${load.p50} ms  p99 ${load.p99} ms  errors ${load.errors}`,
        )
      }
    }

    const armRows = arms.map((arm) => {
      const armRuns = runs.get(arm.name)!
      return {
        name: arm.name,
        ...(arm.patch ? { patch: arm.patch } : {}),
        checkPatches: checks.get(arm.name)!,
        runs: armRuns,
        median: {
          rps: round1(median(armRuns.map((r) => r.rps))),
          p50: median(armRuns.map((r) => r.p50)),
          p99: median(armRuns.map((r) => r.p99)),
        },
        rpsSpreadPercent: round1(spreadPercent(armRuns.map((r) => r.rps))),
      }
    })
    const baseRow = armRows[0]!
    const noisePercent = baseRow.rpsSpreadPercent
    const patches = armRows.slice(1).map((row) => {
      // gain of having the patch: base over the arm without it (latency: lower with the patch is a gain)
      const rpsGainPercent = round1((baseRow.median.rps / row.median.rps - 1) * 100)
      const paired = row.runs.map((r) => round1((baseRow.runs.find((b) => b.round === r.round)!.rps / r.rps - 1) * 100))
      const isSameSign = paired.every((g) => g > 0) || paired.every((g) => g < 0)
      return {
        patch: row.patch!,
        arm: row.name,
        rpsGainPercent,
        p50GainPercent: round1((row.median.p50 / baseRow.median.p50 - 1) * 100),
        p99GainPercent: round1((row.median.p99 / baseRow.median.p99 - 1) * 100),
        pairedRpsGainsPercent: paired,
        noisePercent,
        isBeyondNoise: Number.isFinite(noisePercent) && Math.abs(rpsGainPercent) > noisePercent && isSameSign,
        signedRankP: Math.round(signedRankP(paired) * 1000) / 1000,
      }
    })

    log(
      `\n${'arm'.padEnd(28)} ${'req/s per round'.padEnd(26)} ${'median'.padStart(7)} ` +
        `${'spread'.padStart(7)} ${'p50 med'.padStart(8)} ${'p99 med'.padStart(8)}`,
    )
    for (const row of armRows) {
      const runs = row.runs.map((r) => r.rps.toFixed(1)).join(' / ')
      log(
        `${row.name.padEnd(28)} ${runs.padEnd(26)} ${row.median.rps.toFixed(1).padStart(7)} ` +
          `${`${row.rpsSpreadPercent}%`.padStart(7)} ${String(row.median.p50).padStart(8)} ${String(row.median.p99).padStart(8)}`,
      )
    }
    log(`\nGain of each patch (base over its no-X arm); noise: base's req/s spread ${noisePercent}%`)
    log(
      `${'patch'.padEnd(42)} ${'req/s'.padStart(7)} ${'per round'.padEnd(22)} ` +
        `${'p50'.padStart(7)} ${'p99'.padStart(7)}  beyond noise  signed-rank p`,
    )
    for (const row of patches) {
      const perRound = row.pairedRpsGainsPercent.map((g) => `${g}%`).join(' ')
      log(
        `${row.patch.padEnd(42)} ${`${row.rpsGainPercent}%`.padStart(7)} ${perRound.padEnd(22)} ` +
          `${`${row.p50GainPercent}%`.padStart(7)} ${`${row.p99GainPercent}%`.padStart(7)}  ` +
          `${(row.isBeyondNoise ? 'yes' : 'no').padEnd(12)}  ${row.signedRankP}`,
      )
    }
    return { commit, rounds, sessions, durationMs, warmupMs, arms: armRows, patches, swaps, base }
  } finally {
    if (process.env.AB_KEEP === '1') log(`Arms kept in ${dir} (AB_KEEP=1)`)
    else rmSync(dir, { recursive: true, force: true })
  }
}
