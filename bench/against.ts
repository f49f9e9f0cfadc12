/**
 * `npm run bench -- load --against <git ref> [--rounds 3]` (issue 52, decision 102): this tree's console
 * and the console of another commit, each from its own build, served by turns against a fresh local
 * cluster each run, over several rounds; printed side by side with the ratio.
 *
 * The ref is checked out as a git worktree in AGAINST_DIR (default /tmp/cc-against-<commit>, kept
 * between runs and reused while its marker names the commit). Its node_modules:
 *   - a symlink to this tree's when its package-lock.json and patches/ are this tree's;
 *   - hard links to this tree's (`cp -al`) when only patches/ differ, with a real copy of each
 *     package whose patch differs, this tree's patch reversed in it and the ref's applied (never through
 *     a hard link: that would change this tree's node_modules);
 *   - `npm install --offline` from the ref's own lockfile otherwise (`--prefer-offline` when the npm cache
 *     lacks a package of it).
 * It is built there (`npm run build`, its own build/). Each run starts its own local cluster (this
 * tree's cluster code, so the two consoles meet the same cluster) on a new data dir and free ports,
 * and the console on a free port of its own.
 *
 * Switches for one build: AGAINST_ENV / MAIN_ENV (`MAX_CONCURRENT_REQUESTS=0,OTHER=1`) are added to that side's
 * environment, e.g. `--against HEAD` with AGAINST_ENV=MAX_CONCURRENT_REQUESTS=0 weighs the request line on one build;
 * AGAINST_BUILD_ENV is given to the ref's build (`VITE_SWAPS_OFF=one-shell-chunk` weighs a Vite swap,
 * in a folder of its own). A patch is weighed with a ref without it (a commit that deletes it).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './ab'
import { runSessionsBench, type SessionsResult, type SessionsTarget } from './sessions'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${(result.stderr || result.stdout).slice(-2000)}`)
  return result.stdout
}

const git = (...args: string[]) => run('git', ['-C', ROOT, ...args], ROOT).trim()

/** `A=1,B=2` → { A: '1', B: '2' }. */
export function parseEnvList(text: string | undefined): Record<string, string> {
  const env: Record<string, string> = {}
  for (const pair of (text ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf('=')
    if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return env
}

/** The patch files of a commit's patches/ folder, by name, with their text. */
function patchesAt(commit: string): Map<string, string> {
  const names = spawnSync('git', ['-C', ROOT, 'ls-tree', '--name-only', `${commit}:patches`], { encoding: 'utf8' })
  const out = new Map<string, string>()
  if (names.status !== 0) return out
  for (const name of names.stdout.split('\n').filter((n) => n.endsWith('.patch')))
    out.set(name, git('show', `${commit}:patches/${name}`))
  return out
}

function packageOfPatch(file: string): string {
  return file
    .replace(/\.patch$/, '')
    .split('+')
    .slice(0, -1)
    .join('/')
}

/** Makes (or reuses) the worktree of `ref` with its node_modules and build; returns its folder. */
export function prepareAgainst(ref: string, log: (line: string) => void): { dir: string; commit: string } {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`)
  // AGAINST_BUILD_ENV: the build's own switches (VITE_SWAPS_OFF=one-shell-chunk), a folder of their own
  const buildEnv = process.env.AGAINST_BUILD_ENV ?? ''
  const suffix = buildEnv ? `-${buildEnv.replace(/[^\w]+/g, '_').slice(0, 60)}` : ''
  const dir = process.env.AGAINST_DIR ?? path.join('/tmp', `cc-against-${commit.slice(0, 10)}${suffix}`)
  const marker = path.join(dir, '.bench-against-ready')
  const ready = `${commit} ${buildEnv}`.trim()
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === ready) {
    log(`--against ${ref}: reusing ${dir}`)
    return { dir, commit }
  }
  if (existsSync(dir)) {
    spawnSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir], { encoding: 'utf8' })
    rmSync(dir, { recursive: true, force: true })
  }
  spawnSync('git', ['-C', ROOT, 'worktree', 'prune'], { encoding: 'utf8' })
  log(`--against ${ref}: worktree of ${commit.slice(0, 10)} in ${dir}`)
  // serialised with the other writers of .git (the house's lock)
  run('flock', ['/tmp/git.lock', 'git', '-C', ROOT, 'worktree', 'add', '--detach', dir, commit], ROOT)

  // the commit's lockfile against this tree's file as it is now
  const sameLock = spawnSync('git', ['-C', ROOT, 'diff', '--quiet', commit, '--', 'package-lock.json']).status === 0
  const mine = new Map<string, string>()
  for (const name of readdirSync(path.join(ROOT, 'patches')).filter((n) => n.endsWith('.patch')))
    mine.set(name, readFileSync(path.join(ROOT, 'patches', name), 'utf8'))
  const theirs = patchesAt(commit)
  const differing = new Set(
    [...new Set([...mine.keys(), ...theirs.keys()])]
      .filter((name) => (mine.get(name) ?? '').trim() !== (theirs.get(name) ?? '').trim())
      .map(packageOfPatch),
  )
  const modules = path.join(dir, 'node_modules')
  if (!sameLock) {
    log(`--against ${ref}: its lockfile differs: npm install --offline`)
    try {
      run('npm', ['install', '--offline', '--no-audit', '--no-fund'], dir)
    } catch (error) {
      // a package of the ref's that the npm cache lacks (one this tree no longer uses): from the registry
      log(
        `--against ${ref}: not all in the npm cache (${
          String(error)
            .split('\n')
            .find((l) => l.includes('ENOTCACHED') || l.includes('request to')) ?? 'see above'
        }): npm install --prefer-offline`,
      )
      run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir)
    }
  } else if (!differing.size) {
    log(`--against ${ref}: same lockfile and patches: node_modules linked`)
    symlinkSync(path.join(ROOT, 'node_modules'), modules)
  } else {
    log(`--against ${ref}: same lockfile, other patches (${[...differing].join(', ')}): node_modules hard-linked`)
    run('cp', ['-al', path.join(ROOT, 'node_modules'), modules], ROOT)
    rmSync(path.join(modules, '.vite'), { recursive: true, force: true })
    rmSync(path.join(modules, '.cache'), { recursive: true, force: true })
    for (const pkg of differing) {
      rmSync(path.join(modules, pkg), { recursive: true, force: true })
      run('cp', ['-a', path.join(ROOT, 'node_modules', pkg), path.join(modules, pkg)], ROOT)
      for (const [name, text] of mine)
        if (packageOfPatch(name) === pkg) {
          writeFileSync(path.join(dir, '.reverse.patch'), text)
          run('patch', ['-R', '-p1', '--no-backup-if-mismatch', '-i', '.reverse.patch'], dir)
        }
      for (const name of theirs.keys())
        if (packageOfPatch(name) === pkg)
          run('patch', ['-p1', '--no-backup-if-mismatch', '-i', path.join('patches', name)], dir)
    }
    rmSync(path.join(dir, '.reverse.patch'), { force: true })
  }
  log(`--against ${ref}: building…`)
  mkdirSync(dir, { recursive: true })
  run('npm', ['run', 'build'], dir, parseEnvList(buildEnv))
  writeFileSync(marker, ready)
  return { dir, commit }
}

export type AgainstResult = {
  ref: string
  commit: string
  main: string
  rounds: {
    round: number
    order: string[]
    main: SessionsResult
    against: SessionsResult
  }[]
  /** main ÷ against, per round and the median: requests served, p50, p99. */
  ratios: { requests: number[]; p50: number[]; p99: number[]; median: { requests: number; p50: number; p99: number } }
}

const r2 = (value: number) => Math.round(value * 100) / 100

/** The side-by-side runs; each round alternates which console goes first. */
export async function runAgainst(ref: string, rounds: number, log = console.log): Promise<AgainstResult> {
  const { dir, commit } = prepareAgainst(ref, log)
  const mainEnv = parseEnvList(process.env.MAIN_ENV)
  const againstEnv = parseEnvList(process.env.AGAINST_ENV)
  const describe = (name: string, env: Record<string, string>) =>
    Object.keys(env).length
      ? `${name} (${Object.entries(env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')})`
      : name
  const mainLabel = describe(
    `this tree (${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '+changes' : ''})`,
    mainEnv,
  )
  const againstLabel = describe(`${ref} (${commit.slice(0, 10)})`, againstEnv)
  const targets: Record<'main' | 'against', SessionsTarget> = {
    main: { label: mainLabel, env: mainEnv },
    against: { label: againstLabel, root: dir, env: againstEnv },
  }
  const result: AgainstResult = {
    ref,
    commit,
    main: mainLabel,
    rounds: [],
    ratios: { requests: [], p50: [], p99: [], median: { requests: NaN, p50: NaN, p99: NaN } },
  }
  for (let round = 1; round <= rounds; round++) {
    const order: ('main' | 'against')[] = round % 2 ? ['main', 'against'] : ['against', 'main']
    const got: Partial<Record<'main' | 'against', SessionsResult>> = {}
    for (const side of order) {
      log(`\n-- round ${round}/${rounds}: ${targets[side].label}`)
      got[side] = await runSessionsBench(targets[side])
    }
    const main = got.main!
    const against = got.against!
    result.rounds.push({ round, order, main, against })
    result.ratios.requests.push(r2(main.requests / against.requests))
    result.ratios.p50.push(r2(main.p50 / against.p50))
    result.ratios.p99.push(r2(main.p99 / against.p99))
  }
  result.ratios.median = {
    requests: r2(median(result.ratios.requests)),
    p50: r2(median(result.ratios.p50)),
    p99: r2(median(result.ratios.p99)),
  }
  printAgainst(result, log)
  return result
}

function printAgainst(result: AgainstResult, log: (line: string) => void) {
  log(`\n== main: ${result.main}\n   against: ${result.rounds[0]?.against.label ?? result.ref}`)
  log('round  side      requests   errors   p50 ms   p99 ms')
  for (const { round, main, against } of result.rounds) {
    for (const [side, figures] of [
      ['main', main],
      ['against', against],
    ] as const)
      log(
        `${String(round).padStart(5)}  ${side.padEnd(8)} ${String(figures.requests).padStart(9)} ` +
          `${String(figures.errors).padStart(8)} ${String(figures.p50).padStart(8)} ${String(figures.p99).padStart(8)}`,
      )
    log(
      `       main/against: requests ×${result.ratios.requests[round - 1]}, ` +
        `p50 ×${result.ratios.p50[round - 1]}, p99 ×${result.ratios.p99[round - 1]}`,
    )
  }
  log(
    `median main/against: requests ×${result.ratios.median.requests}, ` +
      `p50 ×${result.ratios.median.p50}, p99 ×${result.ratios.median.p99}`,
  )
  log('clusterCalls per page (mean, last round): main | against')
  const last = result.rounds.at(-1)
  if (!last) return
  for (const step of Object.keys(last.main.perStep)) {
    const a = last.main.clusterCalls?.[step]
    const b = last.against.clusterCalls?.[step]
    log(`  ${step.padEnd(14)} ${a ? a.mean : 'n/a'} | ${b ? b.mean : 'not logged'}`)
  }
}
