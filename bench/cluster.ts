/**
 * Local cluster bench: spawns `cluster/main.ts` on a temp data dir (as `npm run cluster` does) and
 * measures, over HTTP on loopback:
 *   - config-call latency p50/p99 (GET a table), idle and while three heavy queries run
 *   - rows/s through /ingest/event (batches of 1,000 JSON rows)
 *   - /query time against the same SQL run on the engine directly in this process, on an engine
 *     holding the same generated rows (the overhead ratio), and against a bare HTTP server in front of
 *     the engine (bench/engine-server.ts, given the same rows): what the HTTP hop alone costs here
 *   - the engine's own insert of the same JSON and CSV bytes (in this process), the yardstick for ingest
 *   - CSV ingest: batches of 10,000 rows from 4 clients
 *   - adding a wide JSON transform (10, 100, 1,000, 1,128 columns) to a table that has a small one
 * Each figure is printed beside its goal (issue 12) and the ratio.
 * Run: `npx tsx bench/cluster.ts` (env BENCH_SEED_ROWS, default 1,000,000; BENCH_CLUSTER_PORT, default
 * any free port; BENCH_WIDE_COLUMNS, default "10,100,1000,1128").
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { httpSend } from './http-client'
import { percentile } from './stats'

export interface ClusterBenchResult {
  seedRows: number
  startupMs: number
  configP50: number
  configP99: number
  configBusyP50: number
  configBusyP99: number
  /** one client, after WARMUP_BATCHES untimed batches (as the engine's insert it is compared with) */
  ingestRowsPerSec: number
  /** the same with the warm-up batches timed too */
  ingestColdRowsPerSec: number
  ingestConcurrentRowsPerSec: number
  /** httpMs: the round trip; clusterEngineMs: the engine's own time inside the cluster (its answer's
   * `x-clickhouse-summary` elapsed); engineMs: the same SQL on the engine in this process */
  queries: {
    sql: string
    httpMs: number
    clusterEngineMs: number
    engineMs: number
    ratio: number
    addedMs: number
    bareHttpMs: number
    bareAddedMs: number
  }[]
  overheadRatio: number
  /** the bare HTTP server's (engine-server.ts) round trips against the engine in this process, as overheadRatio */
  bareOverheadRatio: number
  /** the engine's own insert of the same JSON batches (rows/s, one after another, in this process) */
  engineJsonRowsPerSec: number
  ingestCsvConcurrentRowsPerSec: number
  engineCsvRowsPerSec: number
  /** seconds to add a JSON transform of N columns to a table that already has a small transform */
  wideTransform: { columns: number; seconds: number; failed?: string }[]
  goals: { figure: string; value: string; goal: string; ratio: string; met: boolean }[]
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

function start(dataDir: string, seedRows: number): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cluster/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        UV_THREADPOOL_SIZE: '16',
        CLUSTER_PORT: process.env.BENCH_CLUSTER_PORT ?? '0',
        CLUSTER_DATA_DIR: dataDir,
        CLUSTER_SEED_ROWS: String(seedRows),
        CLUSTER_ADMIN_EMAIL: 'bench@example.com',
        CLUSTER_ADMIN_PASSWORD: 'bench-password-1',
      },
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
    child.stderr!.on('data', (d) => {
      err += d
      // the cluster's own errors, visible when a figure fails
      if (process.env.BENCH_CLUSTER_STDERR !== '0') process.stderr.write(String(d).replace(/^/gm, '[cluster] '))
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`cluster exited with ${code}:\n${out}\n${err}`))
    })
  })
}

/** The bare HTTP server in front of its own engine (engine-server.ts), on `dataDir`. */
function startEngineServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/engine-server.ts', dataDir], {
      cwd: root,
      env: { ...process.env, UV_THREADPOOL_SIZE: '16' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      const m = /engine server on (\d+)/.exec(out)
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` })
    })
    child.once('exit', (code) => reject(new Error(`engine server exited with ${code}: ${out}`)))
  })
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the child has exited. */
async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
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
}

/**
 * fetch, tried once more when the connection was closed under it: a keep-alive socket left idle
 * across a pause (the heavy queries, building payloads) is closed by the server after 5 s, and fetch
 * does not retry a POST on one (EPIPE, "other side closed"). Such a request never reached the handler.
 */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    const code = String((error as { cause?: { code?: string } }).cause?.code ?? '')
    if (!['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(code)) throw error
    return fetch(url, init)
  }
}

/** Each query runs this many times on each side, alternately; the first QUERY_WARMUP are not counted. */
const QUERY_RUNS = 44
const QUERY_WARMUP = 4

const QUERIES = [
  'SELECT count() FROM sample.web_logs',
  'SELECT status, count() AS n FROM sample.web_logs GROUP BY status ORDER BY n DESC',
  'SELECT path, count() AS n, avg(duration_ms) FROM sample.web_logs GROUP BY path ORDER BY n DESC LIMIT 10',
  'SELECT toStartOfHour(timestamp) AS h, count(), quantile(0.95)(duration_ms) FROM sample.web_logs ' +
    'WHERE timestamp > now() - INTERVAL 1 DAY GROUP BY h ORDER BY h',
  'SELECT country, uniq(client_ip) FROM sample.web_logs GROUP BY country ORDER BY 2 DESC LIMIT 5',
]

export async function runClusterBench(
  options: { seedRows?: number; log?: (line: string) => void } = {},
): Promise<ClusterBenchResult> {
  const seedRows = options.seedRows ?? Number(process.env.BENCH_SEED_ROWS ?? 1_000_000)
  const log = options.log ?? ((line: string) => console.log(line))
  const { WEB_LOG_COLUMNS, webLogsInsertSql } = await import('../cluster/data/seed')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-'))
  const engineDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-engine-'))
  const bareDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-bench-bare-'))
  let bare: { child: ChildProcess; base: string } | undefined
  const t0 = performance.now()
  const { child, base } = await start(dataDir, seedRows)
  const startupMs = Math.round(performance.now() - t0)
  try {
    const login = await (
      await fetch(`${base}/config/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench@example.com', password: 'bench-password-1' }),
      })
    ).json()
    const auth = { authorization: `Bearer ${login.auth_token.access_token}` }
    const org = login.orgs[0].uuid
    const projects = await (await fetch(`${base}/config/v1/orgs/${org}/projects/`, { headers: auth })).json()
    const sample = (projects.results ?? projects).find((p: { name: string }) => p.name === 'sample')
    const tables = await (
      await fetch(`${base}/config/v1/orgs/${org}/projects/${sample.uuid}/tables/`, { headers: auth })
    ).json()
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
    const heavy =
      'SELECT count() FROM numbers(3000000000) WHERE sipHash64(number) % 7 = 3 ' +
      "SETTINGS max_execution_time = 8, timeout_overflow_mode = 'break'"
    const busyRuns = [1, 2, 3].map(() =>
      fetch(`${base}/query`, { method: 'POST', headers: auth, body: heavy }).then((r) => r.text()),
    )
    await new Promise((r) => setTimeout(r, 300))
    const busy = await configLatencies(200)
    await Promise.all(busyRuns)

    // ingest: batches of 1,000 JSON rows; the first WARMUP_BATCHES of each side (the cluster's ingest
    // and the engine's own insert) are not timed: they pay one-time costs (the cluster reads the
    // table's columns and builds its plan for the transform, JIT; the engine's first insert), and the
    // goal is a rate. The cold rate, warm-up included, is printed beside it.
    const WARMUP_BATCHES = 4
    const batches = 40
    const jsonBatch = (b: number) =>
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
      )
    // Each batch is made once as bytes (UTF-8), as a log shipper holds what it sends: node:http takes
    // about 1.7 ms more to send a 190 KB string than its bytes, on the client's side (decision 048).
    const warmups = Array.from({ length: WARMUP_BATCHES }, (_, w) => Buffer.from(jsonBatch(batches + w)))
    const payloads = Array.from({ length: batches }, (_, b) => Buffer.from(jsonBatch(b)))
    // CSV: batches of 10,000 rows (a header line, which the sample CSV transform skips) from 4 clients,
    // built before any timing: a pause between phases lets the server close idle keep-alive sockets,
    // and node:http does not retry a POST on one (EPIPE)
    const csvBatches = 16
    const csvQuote = (v: unknown) =>
      typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v)
    const csvPayloads = Array.from({ length: csvBatches }, (_, b) => {
      const lines = [WEB_LOG_COLUMNS.map((c) => c.name).join(',')]
      for (let i = 0; i < 10_000; i++) {
        const row: Record<string, unknown> = {
          timestamp: new Date(Date.now() - (b * 10_000 + i) * 10).toISOString(),
          method: i % 7 === 0 ? 'POST' : 'GET',
          path: `/bench/csv/${i % 50}`,
          status: i % 20 === 0 ? 500 : 200,
          bytes: 1000 + i,
          duration_ms: (i % 97) + 0.25,
          user_agent: 'bench, "csv"',
          country: 'DE',
          client_ip: '10.0.0.2',
          referer: '',
          host: 'shop.example.com',
          protocol: 'HTTP/1.1',
          cache_status: 'MISS',
          request_id: `r-${b}-${i}`,
        }
        lines.push(WEB_LOG_COLUMNS.map((c) => csvQuote(row[c.name])).join(','))
      }
      return Buffer.from(lines.join('\n') + '\n')
    })
    // The same engine in this process, set up before the ingest so that the cluster and the engine
    // are timed side by side (decision 048): the generated rows now, then every batch the cluster is
    // given, one insert each (so the table has the same parts and background merges as the cluster's
    // when the queries are compared). The engine's own insert is the yardstick for ingest.
    const { Session } = await import('chdb')
    // Every HTTP side (the cluster, the bare server) is sent with node:http over a keep-alive agent, as
    // the /query comparison is (decision 047): fetch took 3-5 ms more per 190 KB batch on the client's
    // side than node:http.
    const agent = new http.Agent({ keepAlive: true })
    const { columnType } = await import('../cluster/data/engine')
    const direct = new Session(engineDir)
    const columns = WEB_LOG_COLUMNS.map((c) => `\`${c.name}\` ${columnType(c.datatype)}`).join(', ')
    const setup = [
      'CREATE DATABASE IF NOT EXISTS sample',
      `CREATE TABLE sample.web_logs (${columns}) ENGINE = MergeTree PARTITION BY toDate(timestamp) ORDER BY timestamp`,
      webLogsInsertSql('sample.web_logs', seedRows),
    ]
    for (const sql of setup) await direct.queryAsync(sql)
    // the bare HTTP server gets the same statements and, below, every batch the engine here gets
    bare = await startEngineServer(bareDir)
    const bareQueryUrl = new URL(`${bare.base}/query`)
    const bareSend = async (url: URL, body: string | Buffer) => {
      const r = await httpSend(agent, url, { method: 'POST', body, keepBody: true })
      if (r.status !== 200)
        throw new Error(`engine server answered ${r.status}: ${r.body.toString('utf8').slice(0, 300)}`)
    }
    for (const sql of setup) await bareSend(bareQueryUrl, sql)
    const rawInsert = (values: Buffer, format: 'JSONEachRow' | 'CSVWithNames') =>
      direct.insert({ table: 'sample.web_logs', values, format, settings: { date_time_input_format: 'best_effort' } })
    const bareInsert = (values: Buffer, format: 'JSONEachRow' | 'CSVWithNames') =>
      bareSend(new URL(`${bare!.base}/insert?format=${format}`), values)

    const ingestUrl = new URL(`${base}/ingest/event`)
    const ingestOne = async (
      body: Buffer,
      headers: Record<string, string> = { 'content-type': 'application/json', 'x-hdx-table': 'sample.web_logs' },
    ) => {
      const r = await httpSend(agent, ingestUrl, {
        method: 'POST',
        headers: { ...auth, ...headers },
        body,
        keepBody: true,
      })
      if (r.status !== 200) throw new Error(`ingest answered ${r.status}: ${r.body.toString('utf8').slice(0, 300)}`)
    }
    // One client: each batch to the cluster, then the same bytes into the engine, alternately, so a
    // change in the machine's speed during the run weighs on both sides alike.
    let warmupMs = 0
    for (const body of warmups) {
      const s = performance.now()
      await ingestOne(body)
      warmupMs += performance.now() - s
      await rawInsert(body, 'JSONEachRow')
    }
    let clusterJsonMs = 0
    let engineJsonMs = 0
    for (const body of payloads) {
      let s = performance.now()
      await ingestOne(body)
      clusterJsonMs += performance.now() - s
      s = performance.now()
      await rawInsert(body, 'JSONEachRow')
      engineJsonMs += performance.now() - s
    }
    const ingestRowsPerSec = Math.round((batches * 1000) / (clusterJsonMs / 1000))
    const ingestColdRowsPerSec = Math.round(((batches + WARMUP_BATCHES) * 1000) / ((clusterJsonMs + warmupMs) / 1000))
    const engineJsonRowsPerSec = Math.round((batches * 1000) / (engineJsonMs / 1000))
    // the same batches from 4 concurrent clients (group commit merges their writes), then into the engine
    const concurrentStart = performance.now()
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let b = w; b < batches; b += 4) await ingestOne(payloads[b])
      }),
    )
    const ingestConcurrentRowsPerSec = Math.round((batches * 1000) / ((performance.now() - concurrentStart) / 1000))
    for (const body of payloads) await rawInsert(body, 'JSONEachRow')

    // CSV from 4 clients, then the engine's own insert of the same bytes, one after another
    const csvStart = performance.now()
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let b = w; b < csvBatches; b += 4)
          await ingestOne(csvPayloads[b], {
            'content-type': 'text/csv',
            'x-hdx-table': 'sample.web_logs',
            'x-hdx-transform': 'web_logs_csv',
          })
      }),
    )
    const ingestCsvConcurrentRowsPerSec = Math.round((csvBatches * 10_000) / ((performance.now() - csvStart) / 1000))
    const engineCsvStart = performance.now()
    for (const body of csvPayloads) await rawInsert(body, 'CSVWithNames')
    const engineCsvRowsPerSec = Math.round((csvBatches * 10_000) / ((performance.now() - engineCsvStart) / 1000))
    // the bare HTTP server's engine gets every batch the engine here got, after the timed phases
    for (const body of [...warmups, ...payloads, ...payloads]) await bareInsert(body, 'JSONEachRow')
    for (const body of csvPayloads) await bareInsert(body, 'CSVWithNames')

    // the same SQL over HTTP and on the engine, alternately. The HTTP side is sent with node:http over
    // the keep-alive agent the ingest used (decision 047): fetch alone adds about 0.6 ms per round
    // trip on this machine, more than half the 1 ms the goal allows the cluster.
    const queries: ClusterBenchResult['queries'] = []
    const queryUrl = new URL(`${base}/query`)
    for (const sql of QUERIES) {
      const viaHttp: number[] = []
      const inCluster: number[] = []
      const viaBare: number[] = []
      const eng: number[] = []
      for (let i = 0; i < QUERY_RUNS; i++) {
        let s = performance.now()
        const r = await httpSend(agent, queryUrl, { method: 'POST', headers: auth, body: sql })
        if (r.status !== 200) throw new Error(`query answered ${r.status}`)
        viaHttp.push(performance.now() - s)
        inCluster.push(Number(JSON.parse(String(r.headers['x-clickhouse-summary'] ?? '{}')).elapsed_ns ?? NaN) / 1e6)
        s = performance.now()
        await direct.queryAsync(sql, { format: 'CSV' })
        eng.push(performance.now() - s)
        s = performance.now()
        await bareSend(bareQueryUrl, sql)
        viaBare.push(performance.now() - s)
      }
      const h = median(viaHttp.slice(QUERY_WARMUP))
      const e = median(eng.slice(QUERY_WARMUP))
      const b = median(viaBare.slice(QUERY_WARMUP))
      queries.push({
        sql,
        httpMs: Number(h.toFixed(2)),
        clusterEngineMs: Number(median(inCluster.slice(QUERY_WARMUP)).toFixed(2)),
        engineMs: Number(e.toFixed(2)),
        ratio: Number((h / e).toFixed(2)),
        addedMs: Number((h - e).toFixed(2)),
        bareHttpMs: Number(b.toFixed(2)),
        bareAddedMs: Number((b - e).toFixed(2)),
      })
    }
    agent.destroy()
    direct.close()
    await stopChild(bare.child)
    // adding a wide JSON transform to a table that already has a small one
    const wideColumns = (process.env.BENCH_WIDE_COLUMNS ?? '10,100,1000,1128')
      .split(',')
      .map(Number)
      .filter((n) => n > 1)
    const wideTransform: ClusterBenchResult['wideTransform'] = []
    const post = async (p: string, body: unknown) => {
      const r = await send(`${base}${p}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const answer = await r.json()
      if (r.status !== 201) throw new Error(`POST ${p} answered ${r.status}: ${JSON.stringify(answer).slice(0, 300)}`)
      return answer
    }
    if (wideColumns.length) {
      const benchProject = await post(`/config/v1/orgs/${org}/projects/`, { name: 'bench_wide' })
      const types = ['string', 'int64', 'double', 'boolean', 'uint32', 'string']
      for (const n of wideColumns) {
        const t = await post(`/config/v1/orgs/${org}/projects/${benchProject.uuid}/tables/`, { name: `wide_${n}` })
        const transforms = `/config/v1/orgs/${org}/projects/${benchProject.uuid}/tables/${t.uuid}/transforms/`
        await post(transforms, {
          name: 'small',
          type: 'json',
          settings: {
            output_columns: [
              { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z07:00' } },
              { name: 'a', datatype: { type: 'string' } },
              { name: 'b', datatype: { type: 'int64' } },
            ],
          },
        })
        const cols = [
          { name: 'ts', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z07:00' } },
          ...Array.from({ length: n - 1 }, (_, i) => ({
            name: `c${String(i).padStart(4, '0')}`,
            datatype: { type: types[i % types.length] },
          })),
        ]
        const s = performance.now()
        try {
          await post(transforms, { name: 'wide', type: 'json', settings: { output_columns: cols } })
          wideTransform.push({ columns: n, seconds: Number(((performance.now() - s) / 1000).toFixed(3)) })
        } catch (error) {
          // fetch gives up after 300 s without an answer
          wideTransform.push({
            columns: n,
            seconds: Number(((performance.now() - s) / 1000).toFixed(3)),
            failed: String((error as Error).cause ?? error),
          })
        }
        const w = wideTransform[wideTransform.length - 1]
        log(
          `  wide transform        ${n} columns added in ${w.seconds} s${w.failed ? ` (no answer: ${w.failed})` : ''}`,
        )
        if (w.failed) break
      }
    }

    const overheadRatio = Number(
      (queries.reduce((a, q) => a + q.httpMs, 0) / queries.reduce((a, q) => a + q.engineMs, 0)).toFixed(2),
    )
    const bareOverheadRatio = Number(
      (queries.reduce((a, q) => a + q.bareHttpMs, 0) / queries.reduce((a, q) => a + q.engineMs, 0)).toFixed(2),
    )
    const result: ClusterBenchResult = {
      seedRows,
      startupMs,
      configP50: Number(percentile(idle, 50).toFixed(2)),
      configP99: Number(percentile(idle, 99).toFixed(2)),
      configBusyP50: Number(percentile(busy, 50).toFixed(2)),
      configBusyP99: Number(percentile(busy, 99).toFixed(2)),
      ingestRowsPerSec,
      ingestColdRowsPerSec,
      ingestConcurrentRowsPerSec,
      queries,
      overheadRatio,
      bareOverheadRatio,
      engineJsonRowsPerSec,
      ingestCsvConcurrentRowsPerSec,
      engineCsvRowsPerSec,
      wideTransform,
      goals: [],
    }
    // issue 12's goals, each beside its figure
    const fmt = (n: number) => Math.round(n).toLocaleString('en')
    const goal = (figure: string, value: string, goalText: string, ratio: number, met: boolean) =>
      result.goals.push({ figure, value, goal: goalText, ratio: ratio.toFixed(2), met })
    goal(
      'ingest JSON 1,000-row batches, 1 client',
      `${fmt(ingestRowsPerSec)} rows/s`,
      `>= 0.45 x engine insert (${fmt(engineJsonRowsPerSec)} rows/s)`,
      ingestRowsPerSec / engineJsonRowsPerSec,
      ingestRowsPerSec / engineJsonRowsPerSec >= 0.45,
    )
    goal(
      'ingest JSON 1,000-row batches, 4 clients',
      `${fmt(ingestConcurrentRowsPerSec)} rows/s`,
      `>= 0.45 x engine insert (${fmt(engineJsonRowsPerSec)} rows/s)`,
      ingestConcurrentRowsPerSec / engineJsonRowsPerSec,
      ingestConcurrentRowsPerSec / engineJsonRowsPerSec >= 0.45,
    )
    goal(
      'ingest CSV 10,000-row batches, 4 clients',
      `${fmt(ingestCsvConcurrentRowsPerSec)} rows/s`,
      `>= 0.45 x engine insert (${fmt(engineCsvRowsPerSec)} rows/s)`,
      ingestCsvConcurrentRowsPerSec / engineCsvRowsPerSec,
      ingestCsvConcurrentRowsPerSec / engineCsvRowsPerSec >= 0.45,
    )
    goal('/query vs engine, overall', `x${overheadRatio}`, '<= 1.1 x', overheadRatio, overheadRatio <= 1.1)
    const worst = queries.reduce((a, q) => (q.addedMs > a.addedMs ? q : a), queries[0])
    goal(
      '/query added time, worst query',
      `${worst.addedMs} ms (${worst.sql.slice(0, 28)}...)`,
      '<= 1 ms',
      worst.addedMs,
      worst.addedMs <= 1,
    )
    goal('config GET p99 idle', `${result.configP99} ms`, '<= 20 ms', result.configP99 / 20, result.configP99 <= 20)
    goal(
      'config GET p99 under 3 heavy queries',
      `${result.configBusyP99} ms`,
      '<= 20 ms',
      result.configBusyP99 / 20,
      result.configBusyP99 <= 20,
    )
    for (const w of wideTransform)
      goal(
        `add a ${w.columns}-column JSON transform (table has one)`,
        `${w.failed ? '> ' : ''}${w.seconds} s`,
        w.columns >= 1000 ? '< 2 s, linear' : 'linear',
        w.seconds / 2,
        !w.failed && w.seconds < 2,
      )
    log(
      `local cluster bench (${seedRows.toLocaleString('en')} seeded rows, start to listening incl. seed ${startupMs} ms)`,
    )
    log(`  config GET table      p50 ${result.configP50} ms   p99 ${result.configP99} ms`)
    log(`  ... 3 heavy queries   p50 ${result.configBusyP50} ms   p99 ${result.configBusyP99} ms`)
    log(
      `  /ingest/event         ${ingestRowsPerSec.toLocaleString('en')} rows/s (batches of 1,000 JSON rows, one client, ` +
        `after ${WARMUP_BATCHES} untimed; ${ingestColdRowsPerSec.toLocaleString('en')} rows/s with them)`,
    )
    log(`  /ingest/event         ${ingestConcurrentRowsPerSec.toLocaleString('en')} rows/s (4 concurrent clients)`)
    log(`  /query vs engine      overall ratio ${overheadRatio}`)
    for (const q of queries)
      log(
        `    ${String(q.httpMs).padStart(8)} ms http (${String(q.clusterEngineMs).padStart(6)} in its engine) ` +
          `${String(q.engineMs).padStart(8)} ms engine  x${q.ratio} +${q.addedMs} ms  ${q.sql.slice(0, 70)}`,
      )
    log(
      `  bare HTTP server      overall ratio ${bareOverheadRatio} ` +
        '(bench/engine-server.ts: node:http and the engine, nothing else; the HTTP hop alone)',
    )
    for (const q of queries)
      log(
        `    ${String(q.bareHttpMs).padStart(8)} ms http +${q.bareAddedMs} ms over the engine; ` +
          `the cluster's /query +${(q.httpMs - q.bareHttpMs).toFixed(2)} ms over it  ${q.sql.slice(0, 50)}`,
      )
    log(
      `  /ingest/event CSV     ${ingestCsvConcurrentRowsPerSec.toLocaleString('en')} rows/s (batches of 10,000 rows, 4 concurrent clients)`,
    )
    log(
      `  engine insert         ${engineJsonRowsPerSec.toLocaleString('en')} rows/s JSON, ` +
        `${engineCsvRowsPerSec.toLocaleString('en')} rows/s CSV (the same bytes, in this process)`,
    )
    log('  goals (issue 12):')
    for (const g of result.goals)
      log(
        `    ${g.met ? 'met ' : 'MISS'}  ${g.figure.padEnd(46)} ${g.value.padEnd(34)} goal ${g.goal}  (ratio ${g.ratio})`,
      )
    const bareWorst = queries.reduce((a, q) => (q.bareAddedMs > a.bareAddedMs ? q : a), queries[0])
    log(
      `    (the bare HTTP server against the two /query goals, same run: x${bareOverheadRatio} overall, ` +
        `worst +${bareWorst.bareAddedMs} ms)`,
    )
    return result
  } finally {
    await stopChild(child)
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (bare) await stopChild(bare.child)
    fs.rmSync(engineDir, { recursive: true, force: true })
    fs.rmSync(bareDir, { recursive: true, force: true })
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
