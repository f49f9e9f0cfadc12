/**
 * First-start sample data: project `sample`, table `web_logs` with a JSON transform, `rows` rows of
 * realistic web logs generated in the engine (last 7 days, daily and hourly patterns), a function,
 * a dictionary of countries, and a bucket folder of files for trying batch jobs.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { qualified } from './engine'
import type { Plane } from './plane'

type Call = (method: string, path: string, body?: unknown) => Promise<any>

export const WEB_LOG_COLUMNS = [
  {
    name: 'timestamp',
    datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
  },
  { name: 'method', datatype: { type: 'string' } },
  { name: 'path', datatype: { type: 'string' } },
  { name: 'status', datatype: { type: 'uint32' } },
  { name: 'bytes', datatype: { type: 'uint64' } },
  { name: 'duration_ms', datatype: { type: 'double' } },
  { name: 'user_agent', datatype: { type: 'string' } },
  { name: 'country', datatype: { type: 'string' } },
  { name: 'client_ip', datatype: { type: 'string' } },
  { name: 'referer', datatype: { type: 'string' } },
  { name: 'host', datatype: { type: 'string' } },
  { name: 'protocol', datatype: { type: 'string' } },
  { name: 'cache_status', datatype: { type: 'string' } },
  { name: 'request_id', datatype: { type: 'string' } },
]

const PATHS = [
  '/',
  '/index.html',
  '/products',
  '/products/{id}',
  '/cart',
  '/checkout',
  '/login',
  '/logout',
  '/search',
  '/api/v1/products',
  '/api/v1/products/{id}',
  '/api/v1/cart',
  '/api/v1/orders',
  '/api/v1/users/{id}',
  '/static/app.js',
  '/static/app.css',
  '/static/logo.png',
  '/images/{id}.jpg',
  '/favicon.ico',
  '/robots.txt',
  '/health',
  '/blog/{id}',
]
const PATH_WEIGHTS = [12, 4, 9, 10, 4, 2, 3, 1, 5, 6, 7, 3, 2, 2, 8, 8, 6, 9, 3, 1, 2, 3]
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.5.0',
  'python-requests/2.31.0',
]
const UA_WEIGHTS = [34, 18, 20, 14, 5, 4, 3, 2]
const COUNTRIES = [
  'US',
  'GB',
  'DE',
  'FR',
  'IN',
  'BR',
  'JP',
  'CA',
  'AU',
  'NL',
  'ES',
  'IT',
  'SE',
  'PL',
  'MX',
  'KR',
  'SG',
  'ZA',
]
const COUNTRY_WEIGHTS = [30, 9, 8, 6, 9, 6, 5, 5, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1]
const COUNTRY_NAMES: Record<string, string> = {
  US: 'United States',
  GB: 'United Kingdom',
  DE: 'Germany',
  FR: 'France',
  IN: 'India',
  BR: 'Brazil',
  JP: 'Japan',
  CA: 'Canada',
  AU: 'Australia',
  NL: 'Netherlands',
  ES: 'Spain',
  IT: 'Italy',
  SE: 'Sweden',
  PL: 'Poland',
  MX: 'Mexico',
  KR: 'South Korea',
  SG: 'Singapore',
  ZA: 'South Africa',
}
const REFERERS = [
  '',
  'https://www.google.com/',
  'https://www.bing.com/',
  'https://duckduckgo.com/',
  'https://t.co/',
  'https://www.facebook.com/',
  'https://news.ycombinator.com/',
  'https://shop.example.com/products',
  'https://shop.example.com/',
]
const REFERER_WEIGHTS = [30, 25, 5, 3, 4, 4, 2, 15, 12]
const STATUSES = [200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 429, 500, 502, 503]
const STATUS_WEIGHTS = [8200, 150, 100, 120, 180, 450, 140, 100, 50, 420, 30, 40, 15, 5]
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']
const METHOD_WEIGHTS = [80, 12, 3, 2, 1, 2]
// traffic by hour of day (UTC) and by day of week (Mon..Sun)
const HOUR_WEIGHTS = [18, 12, 9, 7, 6, 7, 11, 18, 28, 36, 42, 45, 47, 46, 45, 46, 48, 50, 52, 55, 53, 45, 35, 25]
const DOW_WEIGHTS = [100, 104, 103, 101, 95, 70, 66]

const arr = (values: (string | number)[]) =>
  `[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`)).join(',')}]`
const cumulative = (w: number[]) => {
  let s = 0
  return w.map((x) => (s += x))
}

/** `arr[pick]` with weights, from a uniform random `r` in [0,1). */
function weighted(values: (string | number)[], weights: number[], r: string) {
  const cum = cumulative(weights)
  const total = cum[cum.length - 1]
  return `${arr(values)}[arrayFirstIndex(x -> x > ${r} * ${total}, ${arr(cum)})]`
}

const u = (seed: number) => `(rand(${seed}) / 4294967296.0)`

/** INSERT ... SELECT generating `rows` web-log rows over the 7 days before `now`. */
export function webLogsInsertSql(target: string, rows: number, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000)
  const dayStart = now - (now % 86400)
  // pick a day (0..6 days ago) weighted by weekday, an hour weighted by hour of day, a second within it
  const dayOffsets = [0, 1, 2, 3, 4, 5, 6]
  const dowOfOffset = dayOffsets.map((o) => {
    const d = new Date((dayStart - o * 86400) * 1000).getUTCDay() // 0 = Sunday
    return DOW_WEIGHTS[(d + 6) % 7]
  })
  const hours = Array.from({ length: 24 }, (_, h) => h)
  const ts =
    `(${dayStart} - ${weighted(dayOffsets, dowOfOffset, u(1))} * 86400 ` +
    `+ ${weighted(hours, HOUR_WEIGHTS, u(2))} * 3600 + rand(3) % 3600 + (rand(4) % 1000) / 1000.0)`
  const pathExpr = `replaceOne(${weighted(PATHS, PATH_WEIGHTS, u(5))}, '{id}', toString(1 + rand(6) % 5000))`
  return `INSERT INTO ${target} (timestamp, method, path, status, bytes, duration_ms, user_agent, country, client_ip,
  referer, host, protocol, cache_status, request_id)
SELECT
  toDateTime64(if(t > ${now}, t - 7 * 86400, t), 3) AS timestamp,
  if(p LIKE '/api/%' AND rand(7) % 4 = 0,
    ${weighted(['POST', 'PUT', 'DELETE', 'PATCH'], [70, 15, 10, 5], u(8))},
    ${weighted(METHODS, METHOD_WEIGHTS, u(9))}) AS method,
  p AS path,
  toUInt32(if(p = '/health', 200, s)) AS status,
  toUInt64(multiIf(status = 304 OR status = 204, 0, p LIKE '/static/%', 20000 + rand(10) % 180000,
    p LIKE '/images/%', 30000 + rand(10) % 400000, p LIKE '/api/%', 200 + rand(10) % 8000,
    2000 + rand(10) % 60000)) AS bytes,
  round(multiIf(status >= 500, 800 + rand(11) % 4000, p LIKE '/api/%', 15 + exp(${u(12)} * 5.5),
    p LIKE '/static/%' OR p LIKE '/images/%', 1 + exp(${u(12)} * 3), 20 + exp(${u(12)} * 5))
    * (1 + (toHour(timestamp) BETWEEN 17 AND 21) * 0.4), 2) AS duration_ms,
  ${weighted(UAS, UA_WEIGHTS, u(13))} AS user_agent,
  ${weighted(COUNTRIES, COUNTRY_WEIGHTS, u(14))} AS country,
  concat(toString(1 + rand(15) % 223), '.', toString(rand(16) % 256), '.', toString(rand(17) % 256), '.',
    toString(1 + rand(18) % 254)) AS client_ip,
  ${weighted(REFERERS, REFERER_WEIGHTS, u(19))} AS referer,
  if(p LIKE '/api/%', 'api.example.com', if(p LIKE '/static/%' OR p LIKE '/images/%', 'cdn.example.com', 'shop.example.com')) AS host,
  ${weighted(['HTTP/2.0', 'HTTP/1.1', 'HTTP/3'], [62, 28, 10], u(20))} AS protocol,
  if(p LIKE '/static/%' OR p LIKE '/images/%',
    ${weighted(['HIT', 'MISS', 'EXPIRED'], [85, 12, 3], u(21))},
    ${weighted(['MISS', 'BYPASS', 'HIT'], [60, 30, 10], u(21))}) AS cache_status,
  toString(generateUUIDv4(number)) AS request_id
FROM (SELECT number, ${ts} AS t, ${pathExpr} AS p, ${weighted(STATUSES, STATUS_WEIGHTS, u(22))} AS s
  FROM numbers(${Math.max(0, Math.floor(rows))}))`
}

/** A few hundred rows as NDJSON or CSV lines, for the sample bucket. */
function sampleRecords(n: number, startMs: number) {
  const pick = <T>(v: T[], w: number[]) => {
    const total = w.reduce((a, b) => a + b, 0)
    let r = Math.random() * total
    for (let i = 0; i < v.length; i++) if ((r -= w[i]) < 0) return v[i]
    return v[v.length - 1]
  }
  return Array.from({ length: n }, (_, i) => {
    const p = pick(PATHS, PATH_WEIGHTS).replace('{id}', String(1 + Math.floor(Math.random() * 5000)))
    return {
      timestamp: new Date(startMs + i * 7_000).toISOString(),
      method: pick(METHODS, METHOD_WEIGHTS),
      path: p,
      status: pick(STATUSES, STATUS_WEIGHTS),
      bytes: Math.floor(500 + Math.random() * 50_000),
      duration_ms: Math.round((5 + Math.exp(Math.random() * 5)) * 100) / 100,
      user_agent: pick(UAS, UA_WEIGHTS),
      country: pick(COUNTRIES, COUNTRY_WEIGHTS),
      client_ip:
        `${1 + Math.floor(Math.random() * 223)}.${Math.floor(Math.random() * 256)}.` +
        `${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`,
      referer: pick(REFERERS, REFERER_WEIGHTS),
      host: 'shop.example.com',
      protocol: 'HTTP/2.0',
      cache_status: 'MISS',
      request_id: crypto.randomUUID(),
    }
  })
}

/** Writes the sample bucket folders (JSON and CSV) for batch jobs; idempotent. */
export function writeSampleBucket(dataDir: string) {
  const jsonDir = path.join(dataDir, 'buckets', 'sample-bucket', 'web-logs')
  const csvDir = path.join(dataDir, 'buckets', 'sample-bucket', 'web-logs-csv')
  fs.mkdirSync(jsonDir, { recursive: true })
  fs.mkdirSync(csvDir, { recursive: true })
  const start = Date.now() - 2 * 86400_000
  const a = sampleRecords(400, start)
  const b = sampleRecords(600, start + 400 * 7000)
  fs.writeFileSync(path.join(jsonDir, 'part-0001.json'), a.map((r) => JSON.stringify(r)).join('\n') + '\n')
  fs.writeFileSync(
    path.join(jsonDir, 'part-0002.json.gz'),
    zlib.gzipSync(b.map((r) => JSON.stringify(r)).join('\n') + '\n'),
  )
  const c = sampleRecords(300, start + 1000 * 7000)
  const q = (v: unknown) => {
    const s = String(v)
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  }
  const header = WEB_LOG_COLUMNS.map((col) => col.name).join(',')
  fs.writeFileSync(
    path.join(csvDir, 'part-0001.csv'),
    header +
      '\n' +
      c.map((r) => WEB_LOG_COLUMNS.map((col) => q((r as Record<string, unknown>)[col.name])).join(',')).join('\n') +
      '\n',
  )
}

export async function seed(plane: Plane, e: { orgId: string; rows: number; call: Call }) {
  const { orgId, rows, call } = e
  const { cluster, engine } = plane
  const started = Date.now()
  const base = `/config/v1/orgs/${orgId}`
  const project = await call('POST', `${base}/projects/`, {
    name: 'sample',
    description: 'Sample web logs, created on first start',
  })
  const table = await call('POST', `${base}/projects/${project.uuid}/tables/`, {
    name: 'web_logs',
    description: 'Web server access logs (generated)',
  })
  await call('POST', `${base}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: 'web_logs_json',
    description: 'JSON web logs',
    type: 'json',
    settings: {
      is_default: true,
      compression: 'none',
      null_values: ['-'],
      format_details: {
        flattening: {
          active: true,
          depth: 1,
          map_flattening_strategy: { left: '.', right: '' },
          slice_flattening_strategy: { left: '[', right: ']' },
        },
      },
      output_columns: WEB_LOG_COLUMNS,
    },
  })
  await call('POST', `${base}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: 'web_logs_csv',
    description: 'CSV web logs (header line skipped)',
    type: 'csv',
    settings: {
      is_default: false,
      compression: 'none',
      format_details: { delimiter: ',', quote: '"', escape: '"', comment: '#', skip_head: 1, skip_comments: false },
      output_columns: WEB_LOG_COLUMNS.map((c, i) => ({
        ...c,
        datatype: { ...c.datatype, source: { from_input_index: i } },
      })),
    },
  })
  // the rows themselves are generated inside the engine: about 1 s per million here
  const chunk = 2_000_000
  for (let done = 0; done < rows; done += chunk) {
    await engine.exec(webLogsInsertSql(qualified('sample', 'web_logs'), Math.min(chunk, rows - done)))
  }
  plane.touched('sample', 'web_logs')
  // generated in the engine, not through intake
  cluster.metrics.inc('rows_ingested_total', { service: 'seed', table: 'sample.web_logs' }, rows)

  // extras: best effort, so a config side without these resources still seeds the rest
  const extras: [string, () => Promise<unknown>][] = [
    [
      'function',
      () =>
        call('POST', `${base}/projects/${project.uuid}/functions/`, {
          name: 'sample_kb',
          description: 'Bytes to kilobytes',
          sql: '(b) -> round(b / 1024, 2)',
        }),
    ],
    [
      'dictionary',
      async () => {
        const bytes =
          'code,name\n' +
          Object.entries(COUNTRY_NAMES)
            .map(([k, v]) => `${k},${v}`)
            .join('\n') +
          '\n'
        // uploaded as a client would (multipart `file` + `name`), unless an interrupted seed already did
        const files = `${base}/projects/${project.uuid}/dictionaries/files/`
        const existing = await call('GET', files)
        const names: unknown[] = Array.isArray(existing) ? existing : existing.results
        if (!names.includes('countries.csv')) {
          const form = new FormData()
          form.append('name', 'countries.csv')
          form.append('file', new Blob([bytes], { type: 'text/csv' }), 'countries.csv')
          await call('POST', files, form)
        }
        return call('POST', `${base}/projects/${project.uuid}/dictionaries/`, {
          name: 'countries',
          description: 'Country names by ISO code',
          settings: {
            filename: 'countries.csv',
            format: 'CSVWithNames',
            layout: 'complex_key_hashed',
            lifetime_seconds: 300,
            primary_key: ['code'],
            output_columns: [
              { name: 'code', datatype: { type: 'string' } },
              { name: 'name', datatype: { type: 'string' } },
            ],
          },
        })
      },
    ],
    ['bucket', async () => writeSampleBucket(cluster.options.dataDir)],
  ]
  for (const [what, run] of extras) {
    try {
      await run()
    } catch (error) {
      cluster.log({
        level: 'warning',
        service: 'turbine-api',
        component: 'seed',
        message: `seed: ${what} skipped`,
        error: String((error as Error).message ?? error),
      })
    }
  }
  cluster.log({
    level: 'info',
    service: 'turbine-api',
    component: 'seed',
    message: `seeded sample.web_logs with ${rows} rows in ${Date.now() - started} ms`,
  })
}
