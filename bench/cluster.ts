/**
 * Local cluster bench: spawns `cluster/main.ts` on a temp data dir (as `npm run cluster` does) and
 * measures, over HTTP on loopback:
 *   - config-call latency p50/p99 (GET a table), idle and while three heavy queries run
 *   - rows/s through /ingest/event (batches of 1,000 JSON rows)
 *   - /query time against the same SQL run on the engine directly in this process, on an engine
 *     holding the same generated rows (the overhead ratio)
 * Run: `npx tsx bench/cluster.ts` (env BENCH_SEED_ROWS, default 1,000,000).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface ClusterBenchResult {
  seedRows: number
  startupMs: number
  configP50: number
  configP99: number
  configBusyP50: number
  configBusyP99: number
  ingestRowsPerSec: number
  ingestConcurrentRowsPerSec: number
  queries: { sql: string; httpMs: number; engineMs: number; ratio: number }[]
  overheadRatio: number
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

function start(dataDir: string, seedRows: number): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cluster/main.ts'], {
      cwd: root,
      env: { ...process.env, UV_THREADPOOL_SIZE: '16', CLUSTER_PORT: '0', CLUSTER_DATA_DIR: dataDir, CLUSTER_SEED_ROWS: String(seedRows), CLUSTER_ADMIN_EMAIL: 'bench@example.com', CLUSTER_ADMIN_PASSWORD: 'bench-password-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`cluster did not start:\n${out}\n${err}`)), 300_000)
    child.stdout!.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ child, base: m[1] })
      }
    })
    child.stderr!.on('data', (d) => (err += d))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`cluster exited with ${code}:\n${out}\n${err}`))
    })
  })
}

const QUERIES = [
  'SELECT count() FROM sample.web_logs',
  'SELECT status, count() AS n FROM sample.web_logs GROUP BY status ORDER BY n DESC',
  'SELECT path, count() AS n, avg(duration_ms) FROM sample.web_logs GROUP BY path ORDER BY n DESC LIMIT 10',
  "SELECT toStartOfHour(timestamp) AS h, count(), quantile(0.95)(duration_ms) FROM sample.web_logs WHERE timestamp > now() - INTERVAL 1 DAY GROUP BY h ORDER BY h",
  'SELECT country, uniq(client_ip) FROM sample.web_logs GROUP BY country ORDER BY 2 DESC LIMIT 5',
]

export async function runClusterBench(options: { seedRows?: number; log?: (line: string) => void } = {}): Promise<ClusterBenchResult> {
  const seedRows = options.seedRows ?? Number(process.env.BENCH_SEED_ROWS ?? 1_000_000)
  const log = options.log ?? ((line: string) => console.log(line))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-'))
  const engineDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-engine-'))
  const t0 = performance.now()
  const { child, base } = await start(dataDir, seedRows)
  const startupMs = Math.round(performance.now() - t0)
  try {
    const login = await (await fetch(`${base}/config/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench@example.com', password: 'bench-password-1' }) })).json()
    const auth = { authorization: `Bearer ${login.auth_token.access_token}` }
    const org = login.orgs[0].uuid
    const projects = await (await fetch(`${base}/config/v1/orgs/${org}/projects/`, { headers: auth })).json()
    const sample = (projects.results ?? projects).find((p: { name: string }) => p.name === 'sample')
    const tables = await (await fetch(`${base}/config/v1/orgs/${org}/projects/${sample.uuid}/tables/`, { headers: auth })).json()
    const table = (tables.results ?? tables).find((t: { name: string }) => t.name === 'web_logs')
    const tableUrl = `${base}/config/v1/orgs/${org}/projects/${sample.uuid}/tables/${table.uuid}`

    const configLatencies = async (n: number) => {
      const times: number[] = []
      for (let i = 0; i < n; i++) {
        const s = performance.now()
        const r = await fetch(tableUrl, { headers: auth })
        await r.arrayBuffer()
        if (!r.ok) throw new Error(`config call answered ${r.status}`)
        times.push(performance.now() - s)
      }
      return times.sort((a, b) => a - b)
    }
    await configLatencies(50) // warm-up
    const idle = await configLatencies(500)

    // the same while three heavy queries keep the query lane busy
    const heavy = 'SELECT count() FROM numbers(3000000000) WHERE sipHash64(number) % 7 = 3 SETTINGS max_execution_time = 8, timeout_overflow_mode = \'break\''
    const busyRuns = [1, 2, 3].map(() => fetch(`${base}/query`, { method: 'POST', headers: auth, body: heavy }).then((r) => r.text()))
    await new Promise((r) => setTimeout(r, 300))
    const busy = await configLatencies(200)
    await Promise.all(busyRuns)

    // ingest: batches of 1,000 JSON rows
    const batches = 40
    const payloads = Array.from({ length: batches }, (_, b) =>
      JSON.stringify(
        Array.from({ length: 1000 }, (_, i) => ({
          timestamp: new Date(Date.now() - (b * 1000 + i) * 100).toISOString(),
          method: 'GET',
          path: `/bench/${i % 50}`,
          status: i % 20 === 0 ? 500 : 200,
          bytes: 1000 + i,
          duration_ms: (i % 97) + 0.5,
          user_agent: 'bench',
          country: 'US',
          client_ip: '10.0.0.1',
          referer: '',
        })),
      ),
    )
    const ingestStart = performance.now()
    for (const body of payloads) {
      const r = await fetch(`${base}/ingest/event`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'x-hdx-table': 'sample.web_logs' }, body })
      if (!r.ok) throw new Error(`ingest answered ${r.status}: ${await r.text()}`)
      await r.arrayBuffer()
    }
    const ingestRowsPerSec = Math.round((batches * 1000) / ((performance.now() - ingestStart) / 1000))
    // the same batches from 4 concurrent clients (group commit merges their writes)
    const concurrentStart = performance.now()
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let b = w; b < batches; b += 4) {
          const r = await fetch(`${base}/ingest/event`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'x-hdx-table': 'sample.web_logs' }, body: payloads[b] })
          if (!r.ok) throw new Error(`ingest answered ${r.status}: ${await r.text()}`)
          await r.arrayBuffer()
        }
      }),
    )
    const ingestConcurrentRowsPerSec = Math.round((batches * 1000) / ((performance.now() - concurrentStart) / 1000))

    // the same SQL on an engine in this process, holding the same generated rows
    const { Session } = await import('chdb')
    const { webLogsInsertSql, WEB_LOG_COLUMNS } = await import('../cluster/data/seed')
    const { columnType } = await import('../cluster/data/engine')
    const direct = new Session(engineDir)
    await direct.queryAsync('CREATE DATABASE IF NOT EXISTS sample')
    await direct.queryAsync(`CREATE TABLE sample.web_logs (${WEB_LOG_COLUMNS.map((c) => `\`${c.name}\` ${columnType(c.datatype)}`).join(', ')}) ENGINE = MergeTree PARTITION BY toDate(timestamp) ORDER BY timestamp`)
    await direct.queryAsync(webLogsInsertSql('sample.web_logs', seedRows + 2 * batches * 1000))
    const queries: ClusterBenchResult['queries'] = []
    for (const sql of QUERIES) {
      const http: number[] = []
      const eng: number[] = []
      for (let i = 0; i < 12; i++) {
        let s = performance.now()
        const r = await fetch(`${base}/query`, { method: 'POST', headers: auth, body: sql })
        await r.arrayBuffer()
        if (!r.ok) throw new Error(`query answered ${r.status}`)
        http.push(performance.now() - s)
        s = performance.now()
        await direct.queryAsync(sql, { format: 'CSV' })
        eng.push(performance.now() - s)
      }
      const h = median(http.slice(2))
      const e = median(eng.slice(2))
      queries.push({ sql, httpMs: Number(h.toFixed(2)), engineMs: Number(e.toFixed(2)), ratio: Number((h / e).toFixed(2)) })
    }
    direct.close()
    const overheadRatio = Number((queries.reduce((a, q) => a + q.httpMs, 0) / queries.reduce((a, q) => a + q.engineMs, 0)).toFixed(2))
    const result: ClusterBenchResult = {
      seedRows,
      startupMs,
      configP50: Number(percentile(idle, 50).toFixed(2)),
      configP99: Number(percentile(idle, 99).toFixed(2)),
      configBusyP50: Number(percentile(busy, 50).toFixed(2)),
      configBusyP99: Number(percentile(busy, 99).toFixed(2)),
      ingestRowsPerSec,
      ingestConcurrentRowsPerSec,
      queries,
      overheadRatio,
    }
    log(`local cluster bench (${seedRows.toLocaleString('en')} seeded rows, start to listening incl. seed ${startupMs} ms)`)
    log(`  config GET table      p50 ${result.configP50} ms   p99 ${result.configP99} ms`)
    log(`  ... 3 heavy queries   p50 ${result.configBusyP50} ms   p99 ${result.configBusyP99} ms`)
    log(`  /ingest/event         ${ingestRowsPerSec.toLocaleString('en')} rows/s (batches of 1,000 JSON rows, one client)`)
    log(`  /ingest/event         ${ingestConcurrentRowsPerSec.toLocaleString('en')} rows/s (4 concurrent clients)`)
    log(`  /query vs engine      overall ratio ${overheadRatio}`)
    for (const q of queries) log(`    ${String(q.httpMs).padStart(8)} ms http ${String(q.engineMs).padStart(8)} ms engine  x${q.ratio}  ${q.sql.slice(0, 70)}`)
    return result
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL')
        r(null)
      }, 10_000)
      child.once('exit', () => {
        clearTimeout(t)
        r(null)
      })
    })
    fs.rmSync(dataDir, { recursive: true, force: true })
    fs.rmSync(engineDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runClusterBench().then(
    (r) => {
      console.log(JSON.stringify(r))
      process.exit(0)
    },
    (error) => {
      console.error(error)
      process.exit(1)
    },
  )
}
