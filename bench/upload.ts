/**
 * Upload bench (issue 9): a 50 MB CSV uploaded through the built console to the local cluster, the
 * two ways a browser sends it: the page's multipart POST (no scripts, /data/files/new-file) and the
 * XHR route the progress bar uses (/resources/dictionary-file-upload). Reports wall time, MB/s and
 * the console server's resident memory (its whole process tree, sampled every 20 ms from /proc)
 * before and at its peak during each upload, and checks the stored size on the cluster.
 * Run: `npx tsx bench/upload.ts` or `npm run bench -- upload` (env BENCH_UPLOAD_MB, default 50).
 */
import { mkdtempSync, openAsBlob, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startLocalCluster } from '../server/local-cluster'
import { ADMIN, consoleLogin, startConsole } from './console'

export type UploadBenchResult = {
  megabytes: number
  runs: {
    label: string
    ms: number
    mbPerSecond: number
    rssBeforeMb: number
    rssPeakMb: number
    rssGrowthMb: number
    storedBytes: number
  }[]
}

/** Resident memory (bytes) of `pid` and all its descendants, from /proc. */
function treeRss(pid: number): number {
  let total = 0
  const visit = (id: number) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, 'utf8')
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const children = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').trim()
        for (const child of children ? children.split(/\s+/) : []) visit(Number(child))
      }
    } catch {
      // the process ended between reads
    }
  }
  visit(pid)
  return total
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10

/** A CSV of about `megabytes` MB (id,name,continent,score rows). */
function makeCsv(file: string, megabytes: number) {
  const target = megabytes * 1024 * 1024
  const rows: string[] = ['id,name,continent,score']
  let size = rows[0]!.length + 1
  for (let id = 1; size < target; id++) {
    const row = `${id},name_${id.toString(36)},${['Europe', 'Asia', 'Africa', 'America', 'Oceania'][id % 5]},${(id * 7919) % 100000}`
    rows.push(row)
    size += row.length + 1
  }
  writeFileSync(file, `${rows.join('\n')}\n`)
}

export async function runUploadBench(
  log: (line: string) => void = (line) => console.log(line),
): Promise<UploadBenchResult> {
  const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 50)
  const work = mkdtempSync(path.join(tmpdir(), 'console-bench-upload-'))
  const csv = path.join(work, 'bench.csv')
  makeCsv(csv, megabytes)
  const dataDir = path.join(work, 'cluster')
  const cluster = await startLocalCluster({
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    env: { CLUSTER_SEED_ROWS: '0' },
    stdio: 'ignore',
  })
  let consoleServer: Awaited<ReturnType<typeof startConsole>> | undefined
  const runs: UploadBenchResult['runs'] = []
  try {
    const login = (await (
      await fetch(`${cluster.url}/config/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
      })
    ).json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
    const token = login.auth_token.access_token
    const org = login.orgs[0]!.uuid
    const project = (await (
      await fetch(`${cluster.url}/config/v1/orgs/${org}/projects/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'bench_files' }),
      })
    ).json()) as { uuid: string }

    const size = (await openAsBlob(csv)).size
    log(`\n${mb(size)} MB CSV through the built console to the local cluster (a fresh console process per way)`)
    const targets = [
      {
        label: 'page action, multipart POST (no scripts)',
        path: '/data/files/new-file',
        name: 'bench_page.csv',
        expect: 302,
      },
      {
        label: 'XHR upload route (progress bar)',
        path: '/resources/dictionary-file-upload',
        name: 'bench_xhr.csv',
        expect: 200,
      },
    ]
    for (const target of targets) {
      consoleServer = await startConsole(cluster.url)
      const cookie = await consoleLogin(consoleServer.base)
      const pid = consoleServer.child.pid!
      // Warm-up with a small file, so the figure is not the first request's (module load, JIT).
      const warm = new FormData()
      warm.append('project', project.uuid)
      warm.append('name', `warmup_${target.name}`)
      warm.append('file', new Blob(['id,name\n1,a\n'], { type: 'text/csv' }), 'warmup.csv')
      await (
        await fetch(`${consoleServer.base}${target.path}`, {
          method: 'POST',
          body: warm,
          headers: { Cookie: cookie },
          redirect: 'manual',
        })
      ).arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 500))

      const before = treeRss(pid)
      let peak = before
      const sampler = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 20)
      const form = new FormData()
      form.append('project', project.uuid)
      form.append('name', target.name)
      form.append('file', await openAsBlob(csv, { type: 'text/csv' }), 'bench.csv')
      const started = performance.now()
      const response = await fetch(`${consoleServer.base}${target.path}`, {
        method: 'POST',
        body: form,
        headers: { Cookie: cookie },
        redirect: 'manual',
      })
      await response.arrayBuffer()
      const ms = Math.round(performance.now() - started)
      clearInterval(sampler)
      peak = Math.max(peak, treeRss(pid))
      await consoleServer.stop()
      consoleServer = undefined
      if (response.status !== target.expect) throw new Error(`${target.path} answered ${response.status}`)
      const files = (await (
        await fetch(`${cluster.url}/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/files?detail=1`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).json()) as { name: string; size: number }[] | { results: { name: string; size: number }[] }
      const list = Array.isArray(files) ? files : files.results
      const storedBytes = list.find((file) => file.name === target.name)?.size ?? -1
      if (storedBytes !== size) throw new Error(`The cluster stored ${storedBytes} bytes of ${size}`)
      runs.push({
        label: target.label,
        ms,
        mbPerSecond: Math.round((mb(size) / (ms / 1000)) * 10) / 10,
        rssBeforeMb: mb(before),
        rssPeakMb: mb(peak),
        rssGrowthMb: mb(peak - before),
        storedBytes,
      })
    }

    // For comparison: the same file straight to the cluster (its own multipart parse and durable write).
    const direct = new FormData()
    direct.append('name', 'bench_direct.csv')
    direct.append('file', await openAsBlob(csv, { type: 'text/csv' }), 'bench.csv')
    const started = performance.now()
    const answer = await fetch(`${cluster.url}/config/v1/orgs/${org}/projects/${project.uuid}/dictionaries/files/`, {
      method: 'POST',
      body: direct,
      headers: { Authorization: `Bearer ${token}` },
    })
    await answer.arrayBuffer()
    const ms = Math.round(performance.now() - started)
    if (answer.status !== 201) throw new Error(`The cluster answered ${answer.status}`)
    runs.push({
      label: 'direct to the cluster (no console)',
      ms,
      mbPerSecond: Math.round((mb(size) / (ms / 1000)) * 10) / 10,
      rssBeforeMb: 0,
      rssPeakMb: 0,
      rssGrowthMb: 0,
      storedBytes: size,
    })
  } finally {
    await consoleServer?.stop()
    await cluster.stop()
    rmSync(work, { recursive: true, force: true })
  }
  log(
    `${'upload'.padEnd(44)} ${'ms'.padStart(7)} ${'MB/s'.padStart(7)} ` +
      `${'RSS before'.padStart(11)} ${'RSS peak'.padStart(9)} ${'growth'.padStart(7)}`,
  )
  for (const run of runs) {
    log(
      `${run.label.padEnd(44)} ${String(run.ms).padStart(7)} ${run.mbPerSecond.toFixed(1).padStart(7)} ` +
        `${`${run.rssBeforeMb} MB`.padStart(11)} ${`${run.rssPeakMb} MB`.padStart(9)} ${`${run.rssGrowthMb} MB`.padStart(7)}`,
    )
  }
  return { megabytes, runs }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUploadBench()
}
