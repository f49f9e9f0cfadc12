import fs from 'node:fs'
import path from 'node:path'
import type { ClusterRouter, ClusterState, Ctx, LogEntry } from '../context'
import { authorize } from '../config/access'
import { HttpError, text, validationError } from '../http'
import { KINDS, parentOf, tableByName } from './catalog'
import {
  baseType,
  columnType,
  Engine,
  ident,
  lit,
  primaryColumn,
  qualified,
  storedColumns,
  toEngineError,
  type OutputColumn,
} from './engine'
import type { DataHooks, DataPlane, FigureScope, Resource } from '../hooks'
import { forgetTable, handleIngest, handleValidator } from './ingest'
import { BatchRunner, recoverAlterJobs, registerJobRoutes } from './jobs'
import type { Plane, QueryRecord } from './plane'
import { handleInstant, handleLabelValues, handleQueryRange } from './prometheus'
import { handleQuery, queryMarker } from './query'
import { seed } from './seed'

const FLUSH_MS = 5_000

/**
 * How long the engine's storage figures (a table's stats; the org's totals from system.parts) are
 * kept. The dashboard and every table page ask for them on each view, and under many users
 * computing them was most of the engine's work. A write through the cluster (ingest, jobs,
 * truncate) forgets the table's at once, so a table's lag only a background merge's effect on part
 * counts and sizes; the org's totals lag any write by at most this long.
 */
export const FIGURES_MS = 2_000

/** Opens the engine under `${dataDir}/engine` and returns the data plane. */
export async function createDataPlane(cluster: ClusterState): Promise<DataPlane<ClusterRouter>> {
  const engine = new Engine(path.join(cluster.options.dataDir, 'engine'))
  const pendingLogs: LogEntry[] = [...cluster.logs]
  const flushedQueries = new Set<string>()
  /**
   * One writer per system table: a flush in flight took the rows pending when it started, not those
   * added since, so a caller arriving meanwhile waits for it and then for one follow-up shared by
   * every caller meanwhile; whoever asks sees everything logged before asking.
   */
  const serialFlush = (write: () => Promise<void>) => {
    let flushing: Promise<void> | null = null
    let followUp: Promise<void> | null = null
    const flushNow = (): Promise<void> => {
      if (flushing) {
        followUp ??= flushing
          .catch(() => {})
          .then(() => {
            followUp = null
            return flushNow()
          })
        return followUp
      }
      flushing = write().finally(() => (flushing = null))
      return flushing
    }
    return flushNow
  }

  type Figure = { at: number; value: Promise<unknown>; isSettled: boolean; refresh?: Promise<unknown> }
  const figures = new Map<string, Figure>()
  const start = (key: string, load: () => Promise<unknown>): Figure => {
    const entry: Figure = { at: performance.now(), value: load(), isSettled: false }
    entry.value.then(
      () => (entry.isSettled = true),
      () => {
        if (figures.get(key) === entry) figures.delete(key)
      },
    )
    return entry
  }
  /**
   * `load`'s answer, shared by every caller for FIGURES_MS (and while it runs); a failure is not
   * kept. Up to twice that age, the answer kept is still given while one caller's `load` replaces
   * it, so under steady use no caller waits for the engine behind an expiry; older, or forgotten
   * after a write, it is not given.
   */
  const briefly = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const now = performance.now()
    const hit = figures.get(key)
    if (hit && now - hit.at < FIGURES_MS) return hit.value as Promise<T>
    if (hit?.isSettled && now - hit.at < 2 * FIGURES_MS) {
      hit.refresh ??= (async () => {
        const next = start(key, load)
        await next.value
        if (figures.get(key) === hit) figures.set(key, next)
      })().catch(() => {
        if (figures.get(key) === hit) figures.delete(key)
      })
      return hit.value as Promise<T>
    }
    if (figures.size >= 1_000)
      for (const [k, entry] of figures) if (now - entry.at >= 10 * FIGURES_MS) figures.delete(k)
    const entry = start(key, load)
    figures.set(key, entry)
    return entry.value as Promise<T>
  }

  const plane: Plane = {
    cluster,
    engine,
    queries: [],
    briefly,
    touched(database, table) {
      figures.delete(`table:${database}.${table}`)
    },
    flushSystem(tables = { logs: true, queries: true }) {
      // a reader of hdx.active_queries waits for the query records only, one of hydro.logs for the
      // logs only: each write is an engine insert (a part), ~6 ms of the single-threaded cluster
      return Promise.all([tables.logs ? flushLogs() : null, tables.queries ? flushQueries() : null]).then(() => {})
    },
  }

  // the cluster's own logs also go to hydro.logs
  const originalLog = cluster.log.bind(cluster)
  cluster.log = (entry) => {
    originalLog(entry)
    pendingLogs.push(cluster.logs[cluster.logs.length - 1])
    if (pendingLogs.length > 20_000) pendingLogs.splice(0, pendingLogs.length - 20_000)
  }

  async function writeLogs() {
    const logs = pendingLogs.splice(0)
    if (logs.length) {
      const rows = logs.map((l) => ({
        timestamp: l.timestamp.replace('T', ' ').replace('Z', ''),
        level: l.level,
        message: l.message,
        error: l.error ?? '',
        'kubernetes.container_name': l.service,
        service: l.service,
        component: l.component,
        pool: l.pool ?? '',
      }))
      try {
        await engine.insert('hydro', 'logs', Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')))
      } catch {
        pendingLogs.unshift(...logs.slice(-5000))
      }
    }
  }

  async function writeQueries() {
    // running queries: the rows and bytes the engine has read so far
    const running = plane.queries.filter((q) => q.active)
    if (running.length) {
      try {
        const progress = await engine.progressOf(running.map((q) => queryMarker(q.query_id)))
        for (const q of running) {
          const now = progress.get(queryMarker(q.query_id))
          if (now && q.active)
            Object.assign(q, { rows_read: now.rowsRead, bytes_read: now.bytesRead, exec_time_ms: now.elapsedMs })
        }
      } catch {
        // figures only
      }
    }
    const records: (QueryRecord & { version: number })[] = []
    for (const q of plane.queries) {
      if (!q.active && flushedQueries.has(q.query_id)) continue
      records.push({ ...q, version: q.active ? 1 : 2 })
      if (!q.active) flushedQueries.add(q.query_id)
    }
    if (flushedQueries.size > 20_000) flushedQueries.clear()
    if (records.length) {
      const rows = records.map((q) => ({
        query_id: q.query_id,
        query_start: q.query_start.replace('T', ' ').replace('Z', ''),
        query_end: q.query_end ? q.query_end.replace('T', ' ').replace('Z', '') : null,
        query: q.query,
        user: q.user,
        comment: q.comment,
        admin_comment: q.admin_comment,
        label: q.label,
        active: q.active ? 1 : 0,
        exec_time_ms: q.exec_time_ms,
        rows_read: q.rows_read,
        bytes_read: q.bytes_read,
        error: q.error,
        hydrolix_version: cluster.options.version,
        turbine_revision: 'local',
        version: q.version,
      }))
      try {
        await engine.insert('hdx', 'query_history', Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')))
      } catch {
        // figures only
      }
    }
  }

  const flushLogs = serialFlush(writeLogs)
  const flushQueries = serialFlush(writeQueries)

  await setupSystemTables(engine)
  const timer = setInterval(() => void plane.flushSystem().catch(() => {}), FLUSH_MS)
  timer.unref()

  const runner = new BatchRunner(plane)
  const hooks = makeHooks(plane)

  let recovered = false
  const dataPlane: DataPlane<ClusterRouter> = {
    hooks,
    register(router) {
      router.add(['GET', 'POST', 'HEAD'], '/query', (ctx) => handleQuery(plane, ctx))
      // The engine's HTTP interface at the root, as a cluster serves it on its query port (8088, this
      // cluster's default port): clickhouse-connect (mcp-hydrolix) and clickhouse-go POST to `/`.
      // A bare GET / and GET /ping answer "Ok." as the engine does.
      router.add(['GET', 'POST', 'HEAD'], '/', (ctx) =>
        ctx.request.method !== 'POST' && !ctx.url.searchParams.has('query') ? text('Ok.\n') : handleQuery(plane, ctx),
      )
      router.get('/ping', () => text('Ok.\n'))
      router.post('/ingest/event', (ctx) => handleIngest(plane, ctx))
      router.post('/pool/:pool/ingest/event', (ctx) => handleIngest(plane, ctx))
      router.post('/validator', (ctx) => handleValidator(plane, ctx))
      router.get('/prometheus/api/v1/query_range', (ctx) => handleQueryRange(ctx))
      router.post('/prometheus/api/v1/query_range', (ctx) => handleQueryRange(ctx))
      router.get('/prometheus/api/v1/query', (ctx) => handleInstant(ctx))
      router.post('/prometheus/api/v1/query', (ctx) => handleInstant(ctx))
      router.get('/prometheus/api/v1/label/:label/values', (ctx) => handleLabelValues(ctx))
      registerJobRoutes(plane, router, runner)
      router.get('/config/v1/orgs/:org/catalog/download', (ctx) => catalogDownload(plane, ctx))
      if (!recovered) {
        recovered = true
        // jobs interrupted by a restart: done now, so no request sees them in a stale state
        try {
          runner.recover()
          recoverAlterJobs(plane)
        } catch (error) {
          cluster.log({
            level: 'error',
            service: 'turbine-api',
            component: 'jobs',
            message: 'job recovery failed',
            error: String(error),
          })
        }
      }
    },
    seed: (e) => seed(plane, e),
    async close() {
      clearInterval(timer)
      await runner.stop() // the job running now finishes its current file and records it
      await plane.flushSystem().catch(() => {})
      await engine.close()
    },
  }
  return dataPlane
}

/**
 * `GET orgs/{org}/catalog/download/?project=&table=`: the table's partitions as CSV, one row per
 * active engine part (the engine's parts stand in for Hydrolix partitions). `min_timestamp` and
 * `max_timestamp` are `YYYY-MM-DD HH:MM:SS` (UTC), the layout hdxcli's migrate parses them with.
 */
async function catalogDownload(plane: Plane, ctx: Ctx): Promise<Response> {
  const { cluster, url } = ctx
  if (!cluster.store.get('org', ctx.params.org)) throw new HttpError(404, { detail: 'Org not found.' })
  const projectRef = url.searchParams.get('project') ?? ''
  const tableRef = url.searchParams.get('table') ?? ''
  if (!projectRef || !tableRef)
    throw validationError({
      ...(projectRef ? {} : { project: ['This field is required.'] }),
      ...(tableRef ? {} : { table: ['This field is required.'] }),
    })
  const project = cluster.store.find<Resource>(
    KINDS.project,
    (p) => (p.uuid === projectRef || p.name === projectRef) && parentOf(p, 'org') === ctx.params.org,
  )
  if (!project) throw new HttpError(404, { detail: 'Project not found.' })
  const table = cluster.store.find<Resource>(
    KINDS.table,
    (t) => (t.uuid === tableRef || t.name === tableRef) && parentOf(t, 'project') === project.uuid,
  )
  if (!table) throw new HttpError(404, { detail: 'Table not found.' })
  authorize(ctx, 'view_catalog', { projectId: project.uuid, tableId: table.uuid })
  const key = await plane.engine.rows<{ sorting_key: string }>(
    `SELECT sorting_key FROM system.tables WHERE database = ${lit(project.name)} AND name = ${lit(table.name)}`,
  )
  const header =
    'created,modified,min_timestamp,max_timestamp,manifest_size,data_size,index_size,' +
    'root_path,data_path,active,rows,mem_size,metadata,shard_key,lock,storage_id'
  if (!key.length) return new Response(header + '\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } })
  const result = await plane.engine.run(
    `SELECT formatDateTime(modification_time, '%Y-%m-%dT%H:%i:%SZ') AS created, created AS modified,
       formatDateTime(min_time, '%Y-%m-%d %H:%i:%S') AS min_timestamp, formatDateTime(max_time, '%Y-%m-%d %H:%i:%S') AS max_timestamp,
       0 AS manifest_size, data_compressed_bytes AS data_size, primary_key_bytes_in_memory + marks_bytes AS index_size,
       ${lit(`${project.uuid}/${table.uuid}`)} AS root_path, path AS data_path, toUInt8(active) AS active, rows,
       bytes_on_disk AS mem_size, '{}' AS metadata, '' AS shard_key, '' AS lock, '' AS storage_id
     FROM system.parts WHERE active AND database = ${lit(project.name)} AND table = ${lit(table.name)} ORDER BY min_time`,
    { format: 'CSV' },
  )
  return new Response(header + '\n' + result.text(), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${table.name}-catalog.csv"`,
    },
  })
}

async function setupSystemTables(engine: Engine) {
  await engine.exec('CREATE DATABASE IF NOT EXISTS hydro')
  await engine.exec(
    'CREATE TABLE IF NOT EXISTS hydro.logs (timestamp DateTime64(3), level ' +
      'LowCardinality(String), message String, error String, `kubernetes.container_name` ' +
      'LowCardinality(String), service LowCardinality(String), component ' +
      'LowCardinality(String), pool LowCardinality(String)) ENGINE = MergeTree PARTITION BY ' +
      'toDate(timestamp) ORDER BY timestamp TTL toDateTime(timestamp) + INTERVAL 30 DAY',
  )
  // a data directory made before hydro.logs had its pool column gets it (empty for the older rows)
  await engine.exec('ALTER TABLE hydro.logs ADD COLUMN IF NOT EXISTS pool LowCardinality(String)')
  await engine.exec('CREATE DATABASE IF NOT EXISTS hdx')
  await engine.exec(
    'CREATE TABLE IF NOT EXISTS hdx.query_history (query_id String, query_start ' +
      'DateTime64(3), query_end Nullable(DateTime64(3)), query String, user String, comment ' +
      'String, admin_comment String, label String, active UInt8, exec_time_ms UInt64, rows_read ' +
      'UInt64, bytes_read UInt64, error String, hydrolix_version String, turbine_revision ' +
      'String, version UInt8) ENGINE = ReplacingMergeTree(version) ORDER BY query_id TTL ' +
      'toDateTime(query_start) + INTERVAL 1 DAY',
  )
  await engine.exec(
    'CREATE OR REPLACE VIEW hdx.active_queries AS SELECT query_id, query_start, query_end, ' +
      'query, user, comment, admin_comment, label, active, exec_time_ms, rows_read, bytes_read, ' +
      'error, hydrolix_version, turbine_revision FROM hdx.query_history FINAL WHERE query_start ' +
      '> now() - INTERVAL 5 MINUTE',
  )
  await engine.exec('CREATE DATABASE IF NOT EXISTS hdx_dicts')
}

/** The engine errors of a hook, as a 400 the config side answers as is. */
/**
 * A function's `sql` as the engine takes it: real clusters accept the lambda as a shell-less client
 * passes it, in one pair of single quotes (hdxcli's `-s '(x,k,b)->k*x+b'`), and with the trailing `;`
 * of the docs' own example; both are taken off when what remains is a lambda. The stored `sql` is
 * kept as it was given.
 */
export function functionBody(sql: string): string {
  const isLambda = (s: string) => s.includes('->')
  const unterminated = (s: string) => {
    const t = s.replace(/;\s*$/, '').trim()
    return isLambda(t) ? t : s
  }
  let body = unterminated(sql.trim())
  const quoted = /^'([^']*)'$/.exec(body)
  if (quoted && isLambda(quoted[1])) body = unterminated(quoted[1].trim())
  return body
}

function hookError(field: string, error: unknown): HttpError {
  return validationError({ [field]: [toEngineError(error).message] })
}

function makeHooks(plane: Plane): DataHooks {
  const { engine, cluster } = plane

  /** A table's storage figures from the engine (its parts, time range and columns). */
  async function tableFigures(project: Resource, table: Resource) {
    const db = lit(project.name)
    const tb = lit(table.name)
    const parts = await engine.rows<Record<string, string | number>>(
      `SELECT sum(rows) AS total_rows, uniqExact(partition) AS total_partitions, count() AS ` +
        `total_parts, sum(data_uncompressed_bytes) AS raw_data_size, sum(data_compressed_bytes) ` +
        `AS compressed_data_size, sum(primary_key_bytes_in_memory) + sum(marks_bytes) AS ` +
        `compressed_index_size, sum(bytes_on_disk) AS bytes_on_disk, max(modification_time) AS ` +
        `last_modified FROM system.parts WHERE active AND database = ${db} AND table = ${tb}`,
    )
    const p = parts[0] ?? {}
    const raw = Number(p.raw_data_size ?? 0)
    const compressed = Number(p.compressed_data_size ?? 0)
    let oldest: string | null = null
    let latest: string | null = null
    const key = (
      await engine.rows<{ sorting_key: string }>(
        `SELECT sorting_key FROM system.tables WHERE database = ${db} AND name = ${tb}`,
      )
    )[0]?.sorting_key
      ?.split(',')[0]
      ?.trim()
    if (key && Number(p.total_rows ?? 0) > 0) {
      const r = await engine.rows<{ lo: string; hi: string }>(
        `SELECT toString(min(${ident(key.replace(/^`|`$/g, ''))})) AS lo, ` +
          `toString(max(${ident(key.replace(/^`|`$/g, ''))})) AS hi ` +
          `FROM ${qualified(project.name, table.name)}`,
      )
      oldest = r[0]?.lo ? r[0].lo.replace(' ', 'T') + 'Z' : null
      latest = r[0]?.hi ? r[0].hi.replace(' ', 'T') + 'Z' : null
    }
    const columns = await engine.rows<{ n: number }>(
      `SELECT count() AS n FROM system.columns WHERE database = ${db} AND table = ${tb}`,
    )
    return {
      total_rows: Number(p.total_rows ?? 0),
      total_partitions: Number(p.total_partitions ?? 0),
      total_parts: Number(p.total_parts ?? 0),
      raw_data_size: raw,
      compressed_data_size: compressed,
      compressed_index_size: Number(p.compressed_index_size ?? 0),
      bytes_on_disk: Number(p.bytes_on_disk ?? 0),
      compression_ratio: compressed > 0 ? Number((raw / compressed).toFixed(2)) : 0,
      oldest_timestamp: oldest,
      latest_timestamp: latest,
      num_columns: Number(columns[0]?.n ?? 0),
      current_ingest_latency: 0,
    }
  }

  const dictTable = (project: Resource, dictionary: Resource) => `${project.name}_${dictionary.name}`

  async function loadDictionary(project: Resource, dictionary: Resource) {
    const s = dictionary.settings ?? {}
    const cols = (s.output_columns ?? []) as OutputColumn[]
    if (!cols.length) throw validationError({ settings: { output_columns: ['A dictionary needs output_columns.'] } })
    const keys: string[] = Array.isArray(s.primary_key) && s.primary_key.length ? s.primary_key : [cols[0].name]
    const structure = cols.map((c) => `${ident(c.name)} ${baseType(c.datatype)}`).join(', ')
    const name = dictTable(project, dictionary)
    const backing = qualified('hdx_dicts', name)
    await engine.exec(`CREATE OR REPLACE TABLE ${backing} (${structure}) ENGINE = MergeTree ORDER BY tuple()`)
    const folder = path.join(cluster.options.dataDir, 'files', project.uuid)
    const file = path.resolve(folder, String(s.filename ?? ''))
    // only a file of the project's own uploads, whatever the name says (never the data dir's secrets)
    if (s.filename && path.dirname(file) === folder && fs.existsSync(file)) {
      const format =
        typeof s.format === 'string' && s.format ? s.format : /\.json/i.test(file) ? 'JSONEachRow' : 'CSVWithNames'
      try {
        await engine.exec(
          `INSERT INTO ${backing} SELECT * FROM ` +
            `file(${lit(file)}, ${lit(format)}, ${lit(cols.map((c) => `${ident(c.name)} ${baseType(c.datatype)}`).join(', '))})`,
        )
      } catch (error) {
        throw hookError('settings', error)
      }
    } else if (s.filename) {
      cluster.log({
        level: 'warning',
        service: 'turbine-api',
        component: 'dictionary',
        message: `dictionary ${project.name}.${dictionary.name}: file ${s.filename} not uploaded yet; the dictionary is empty`,
      })
    }
    const keyTypes = keys.map((k) => baseType(cols.find((c) => c.name === k)?.datatype))
    const simpleKey = keys.length === 1 && keyTypes[0] === 'UInt64'
    let layout = String(s.layout ?? '').toLowerCase()
    if (!layout) layout = simpleKey ? 'hashed' : 'complex_key_hashed'
    if (!simpleKey && !layout.startsWith('complex_key'))
      layout = layout.includes('sparse') ? 'complex_key_sparse_hashed' : 'complex_key_hashed'
    const layouts = [
      'flat',
      'hashed',
      'sparse_hashed',
      'complex_key_hashed',
      'complex_key_sparse_hashed',
      'hashed_array',
      'complex_key_hashed_array',
    ]
    if (!layouts.includes(layout)) layout = simpleKey ? 'hashed' : 'complex_key_hashed'
    const lifetime = Number.isFinite(Number(s.lifetime_seconds))
      ? Math.max(0, Math.floor(Number(s.lifetime_seconds)))
      : 300
    const attrs = cols.map((c) => `${ident(c.name)} ${baseType(c.datatype)}`).join(', ')
    try {
      await engine.exec(
        `CREATE OR REPLACE DICTIONARY default.${ident(name)} (${attrs}) PRIMARY ` +
          `KEY ${keys.map(ident).join(', ')} SOURCE(CLICKHOUSE(DB 'hdx_dicts' TABLE ${lit(name)})) ` +
          `LAYOUT(${layout.toUpperCase()}()) LIFETIME(${lifetime})`,
      )
      await engine.exec(`SYSTEM RELOAD DICTIONARY default.${ident(name)}`).catch(() => {})
    } catch (error) {
      throw hookError('settings', error)
    }
  }

  async function dropDictionary(project: Resource, dictionary: Resource | { name: string }) {
    const name = `${project.name}_${dictionary.name}`
    await engine.exec(`DROP DICTIONARY IF EXISTS default.${ident(name)}`)
    await engine.exec(`DROP TABLE IF EXISTS ${qualified('hdx_dicts', name)}`)
  }

  const hooks: DataHooks = {
    async transformSaved({ project, table, transform }) {
      const cols = storedColumns(transform)
      if (!cols.length) return
      const primary = primaryColumn(transform)
      const target = qualified(project.name, table.name)
      try {
        await engine.exec(`CREATE DATABASE IF NOT EXISTS ${ident(project.name)}`)
        const exists =
          (
            await engine.rows(
              `SELECT 1 FROM system.tables WHERE database = ${lit(project.name)} AND name = ${lit(table.name)}`,
            )
          ).length > 0
        if (!exists) {
          if (!primary)
            throw validationError({
              settings: { output_columns: ['Exactly one datetime or epoch column must be primary.'] },
            })
          const defs = cols.map((c) => `${ident(c.name)} ${columnType(c.datatype)}`).join(', ')
          await engine.exec(
            `CREATE TABLE IF NOT EXISTS ${target} (${defs}) ENGINE = MergeTree PARTITION BY ` +
              `toDate(${ident(primary.name)}) ORDER BY ${ident(primary.name)}`,
          )
          cluster.log({
            level: 'info',
            service: 'turbine-api',
            component: 'engine',
            message: `created engine table ${project.name}.${table.name}`,
          })
        } else {
          // one ALTER for all the missing columns: the engine rewrites the table's metadata once per
          // ALTER, so one statement per column made a wide transform quadratic (1,128 columns: 300 s)
          const existing = new Set(
            (
              await engine.rows<{ name: string }>(
                `SELECT name FROM system.columns WHERE database = ${lit(project.name)} AND table = ${lit(table.name)}`,
              )
            ).map((r) => r.name),
          )
          const missing = cols.filter((c) => !existing.has(c.name))
          if (missing.length) {
            const clauses = missing.map(
              (c) =>
                `ADD COLUMN IF NOT EXISTS ${ident(c.name)} ${c.datatype?.primary ? 'DateTime64(3)' : columnType(c.datatype)}`,
            )
            await engine.exec(`ALTER TABLE ${target} ${clauses.join(', ')}`)
          }
        }
        forgetTable(project.name, table.name)
      } catch (error) {
        if (error instanceof HttpError) throw error
        throw hookError('settings', error)
      }
    },
    async tableDeleted({ project, table }) {
      await engine.exec(`DROP TABLE IF EXISTS ${qualified(project.name, table.name)} SYNC`)
      forgetTable(project.name, table.name)
      plane.touched(project.name, table.name)
    },
    async tableTruncated({ project, table }) {
      await engine.exec(`TRUNCATE TABLE IF EXISTS ${qualified(project.name, table.name)} SYNC`)
      plane.touched(project.name, table.name)
    },
    async tableRenamed({ project, table, previousName }) {
      if (previousName === table.name) return
      const exists =
        (
          await engine.rows(
            `SELECT 1 FROM system.tables WHERE database = ${lit(project.name)} AND name = ${lit(previousName)}`,
          )
        ).length > 0
      if (exists)
        await engine.exec(
          `RENAME TABLE ${qualified(project.name, previousName)} TO ${qualified(project.name, table.name)}`,
        )
      forgetTable(project.name, previousName)
      plane.touched(project.name, previousName)
    },
    async projectDeleted({ project }) {
      for (const d of cluster.store.filter<Resource>(KINDS.dictionary, (x) => parentOf(x, 'project') === project.uuid))
        await dropDictionary(project, d).catch(() => {})
      // the project's functions go with it (called before the config side's cascade)
      for (const fn of cluster.store.filter<Resource>(KINDS.fn, (x) => parentOf(x, 'project') === project.uuid)) {
        await engine.exec(`DROP FUNCTION IF EXISTS ${ident(fn.name)}`).catch(() => {})
      }
      await engine.exec(`DROP DATABASE IF EXISTS ${ident(project.name)} SYNC`)
      forgetTable(project.name)
    },
    async projectRenamed({ project, previousName }) {
      if (previousName === project.name) return
      const exists = (await engine.rows(`SELECT 1 FROM system.databases WHERE name = ${lit(previousName)}`)).length > 0
      if (exists) {
        try {
          await engine.exec(`RENAME DATABASE ${ident(previousName)} TO ${ident(project.name)}`)
        } catch (error) {
          throw hookError('name', error)
        }
      }
      // dictionaries are named {project}_{name}: rebuild them under the new name
      for (const d of cluster.store.filter<Resource>(
        KINDS.dictionary,
        (x) => parentOf(x, 'project') === project.uuid,
      )) {
        await dropDictionary({ ...project, name: previousName }, d).catch(() => {})
        await loadDictionary(project, d).catch(() => {})
      }
      forgetTable(previousName)
    },
    tableStats({ project, table }) {
      return plane.briefly(`table:${project.name}.${table.name}`, () => tableFigures(project, table))
    },
    async functionSaved({ project, fn, previousName }) {
      const sql = functionBody(String(fn.sql ?? ''))
      if (!sql) throw validationError({ sql: ['This field is required.'] })
      try {
        await engine.exec(`CREATE OR REPLACE FUNCTION ${ident(fn.name)} AS ${sql}`)
      } catch (error) {
        throw hookError('sql', error)
      }
      if (previousName && previousName !== fn.name)
        await engine.exec(`DROP FUNCTION IF EXISTS ${ident(previousName)}`).catch(() => {})
      void project
    },
    async functionDeleted({ fn }) {
      await engine.exec(`DROP FUNCTION IF EXISTS ${ident(fn.name)}`)
    },
    async dictionarySaved({ project, dictionary, previousName }) {
      if (previousName && previousName !== dictionary.name)
        await dropDictionary(project, { name: previousName }).catch(() => {})
      await loadDictionary(project, dictionary)
    },
    async dictionaryDeleted({ project, dictionary }) {
      await dropDictionary(project, dictionary)
    },
    async orgFigures(scope?: FigureScope) {
      // One engine read per org summary, whatever the org's size (issue 33): the parts of the org's
      // projects' databases grouped by table, summed here over the org's tables. (An IN list of
      // every (project, table) pair was a 10,000-tuple SQL at 10,000 tables.)
      // the projects holding tables, by name (from the store's index: no walk over every table)
      const holders = new Map<string, Readonly<Resource>>()
      for (const project of cluster.store.values<Resource>(KINDS.project))
        if (cluster.store.countChildren(KINDS.table, '_project', project.uuid))
          holders.set(String(project.name), project)
      const databases = [...holders.keys()].sort()
      // a table of the org's (and, with a scope, one the caller's figures take in)
      const isKnown = (database: unknown, table: unknown) => {
        const project = holders.get(String(database))
        const known = project && tableByName(cluster, project.uuid, String(table))
        return !!known && (!scope || scope.table(project, known))
      }
      let rows = 0
      let raw = 0
      let compressed = 0
      let partitions = 0
      if (databases.length) {
        const inList = databases.map(lit).join(', ')
        const r = await plane.briefly(`org:${inList}`, () =>
          engine.rows<Record<string, number | string>>(
            `SELECT database, table, sum(rows) AS rows, sum(data_uncompressed_bytes) AS raw, ` +
              `sum(data_compressed_bytes) AS compressed, uniqExact(partition) AS partitions FROM ` +
              `system.parts WHERE active AND database IN (${inList}) GROUP BY database, table`,
          ),
        )
        for (const row of r) {
          if (!isKnown(row.database, row.table)) continue
          rows += Number(row.rows ?? 0)
          raw += Number(row.raw ?? 0)
          compressed += Number(row.compressed ?? 0)
          partitions += Number(row.partitions ?? 0)
        }
      }
      const hourAgo = Date.now() - 3600_000
      const recent = plane.queries.filter((q) => Date.parse(q.query_start) >= hourAgo)
      // a series labelled by its table (`project.table`) counts when the scope takes the table in
      const seriesCounts = (labels: Record<string, string>) => {
        if (!scope) return true
        const [database, ...rest] = String(labels.table ?? '').split('.')
        return !!labels.table && isKnown(database, rest.join('.'))
      }
      const sumMetric = (name: string, sinceMs: number) => {
        let total = 0
        for (const s of cluster.metrics.select(name))
          if (seriesCounts(s.labels)) for (const [t, v] of s.buckets) if (t >= sinceMs) total += v
        return total
      }
      // only jobs not yet over are counted below: the scope is asked of those alone (10,000 done jobs)
      const jobsOf = (kind: 'batch_job' | 'alter_job') => {
        const jobs: Readonly<Resource>[] = []
        for (const job of cluster.store.values<Resource>(kind))
          if (['ready', 'running', 'pending'].includes(job.status) && (!scope || scope.job(kind, job))) jobs.push(job)
        return jobs
      }
      const batch = jobsOf('batch_job')
      const alter = jobsOf('alter_job')
      return {
        total_rows: rows,
        raw_data_size: raw,
        compressed_data_size: compressed,
        compression_ratio: compressed > 0 ? Number((raw / compressed).toFixed(2)) : 0,
        total_partitions: partitions,
        queries_last_hour: recent.length,
        query_errors_last_hour: recent.filter((q) => q.error).length,
        active_queries: plane.queries.filter((q) => q.active).length,
        rows_ingested_last_5_minutes: sumMetric('rows_ingested_total', Date.now() - 300_000),
        rows_ingested_last_hour: sumMetric('rows_ingested_total', hourAgo),
        active_jobs:
          batch.filter((j) => ['ready', 'running'].includes(j.status)).length +
          alter.filter((j) => ['ready', 'running', 'pending'].includes(j.status)).length,
        active_batch_jobs: batch.filter((j) => ['ready', 'running'].includes(j.status)).length,
        pending_alter_jobs: alter.filter((j) => j.status === 'pending').length,
      }
    },
  }
  // an engine failure in a hook is answered as a 400 with the engine's message, never a 500
  const wrapped = {} as Record<string, unknown>
  for (const [name, fn] of Object.entries(hooks) as [string, (e: unknown) => Promise<unknown>][]) {
    wrapped[name] = async (e: unknown) => {
      try {
        return await fn(e)
      } catch (error) {
        if (error instanceof HttpError) throw error
        cluster.log({
          level: 'error',
          service: 'turbine-api',
          component: 'engine',
          message: `${name} failed`,
          error: toEngineError(error).message,
        })
        throw new HttpError(400, { detail: `The engine refused the change: ${toEngineError(error).message}` })
      }
    }
  }
  return wrapped as unknown as DataHooks
}
