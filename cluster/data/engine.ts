import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import { Session, type ChdbResult } from 'chdb'
import type { Resource } from '../hooks'

/** Escapes an identifier for the engine: `name` with backticks and backslashes escaped. */
export function ident(name: string): string {
  return '`' + String(name).replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`'
}

/** A string literal for the engine. */
export function lit(value: string): string {
  return "'" + String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'"
}

export const qualified = (database: string, table: string) => `${ident(database)}.${ident(table)}`

/** An engine error as the query API reports it: `Code: N. DB::Exception: ...`. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

export function toEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error
  const e = error as { message?: string; clickhouseCode?: number }
  const message = (e?.message ?? String(error)).trim()
  const m = /Code: (\d+)\./.exec(message)
  const code = e?.clickhouseCode ?? (m ? Number(m[1]) : 1001)
  // chdb sometimes repeats the prefix ("Code: 115. DB::Exception: Code: 115. DB::Exception: ..."); keep one.
  const cleaned = message.replace(/^(Code: \d+\. DB::Exception: )(Code: \d+\. DB::Exception: )+/, '$1')
  return new EngineError(/^Code: \d+\./.test(cleaned) ? cleaned : `Code: ${code}. DB::Exception: ${cleaned}`, code)
}

type Lane = 'query' | 'internal'

/** The nice value of the threads that run `/query` statements (the engine's `os_thread_priority`). */
export const QUERY_THREAD_PRIORITY = 10

/**
 * chdb runs every async query on a libuv worker thread, and libuv's pool is sized once, from
 * UV_THREADPOOL_SIZE at process start (default 4; setting it from code is too late under tsx). A
 * busy Session holds a thread, so the sessions must leave one thread free for file system work:
 * 3 + 2 sessions when the process was started with UV_THREADPOOL_SIZE >= 8, else 2 + 1.
 */
export function defaultLaneSizes(): Record<Lane, number> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
  return Number.isFinite(threads) && threads >= 8 ? { query: 3, internal: 2 } : { query: 2, internal: 1 }
}

interface Slot {
  session: Session
  busy: boolean
  /** staging tables this Session has created (temporary tables live and die with their Session) */
  stages?: Set<string>
}

/**
 * A small pool of chdb Sessions on one data directory. One Session runs one query at a time, while
 * several Sessions on the same path run concurrently, so a long user query occupies one slot and
 * never stalls the others. Two lanes: `query` (the /query API) and `internal` (hooks, ingest, jobs,
 * stats), so user queries can never starve the config hooks or ingest.
 */
export class Engine {
  private lanes: Record<Lane, { slots: Slot[]; waiters: ((slot: Slot) => void)[] }>
  private closed = false

  constructor(
    readonly dir: string,
    sizes: Record<Lane, number> = defaultLaneSizes(),
  ) {
    fs.mkdirSync(dir, { recursive: true })
    const make = (n: number) => Array.from({ length: n }, () => ({ session: new Session(dir), busy: false }))
    this.lanes = {
      query: { slots: make(sizes.query), waiters: [] },
      internal: { slots: make(sizes.internal), waiters: [] },
    }
    // the query lane serves /query only, which is read-only: the engine enforces it per session
    // (readonly = 2: reads, and settings changes other than readonly itself)
    // and its threads run at a lower OS priority (nice 10) than the rest of the process: a heavy
    // user query yields the cores to the config API, ingest and the server's own thread (decision 055)
    for (const slot of this.lanes.query.slots) {
      slot.session.query(`SET os_thread_priority = ${QUERY_THREAD_PRIORITY}`)
      slot.session.query('SET readonly = 2')
    }
  }

  private acquire(lane: Lane): Promise<Slot> {
    if (this.closed) return Promise.reject(new EngineError('Code: 1002. DB::Exception: the engine is closed', 1002))
    const l = this.lanes[lane]
    const free = l.slots.find((s) => !s.busy)
    if (free) {
      free.busy = true
      return Promise.resolve(free)
    }
    return new Promise((resolve) => l.waiters.push(resolve))
  }

  private release(lane: Lane, slot: Slot) {
    const next = this.lanes[lane].waiters.shift()
    if (next) next(slot)
    else slot.busy = false
  }

  /**
   * Runs one statement; rejects with an EngineError. With `cancel` (a marker comment the statement
   * carries and the request's signal), an abort stops the statement in the engine itself: chdb
   * cannot interrupt a running call, so the engine is told `KILL QUERY` for the statement whose text
   * holds the marker, and the slot stays taken until the statement has really ended.
   */
  async run(
    sql: string,
    options: {
      format?: string
      lane?: Lane
      signal?: AbortSignal
      params?: Record<string, string>
      cancel?: { marker: string; signal: AbortSignal }
    } = {},
  ): Promise<ChdbResult> {
    const lane = options.lane ?? 'internal'
    const slot = await this.acquire(lane)
    if (options.cancel) {
      const { marker, signal } = options.cancel
      try {
        if (signal.aborted)
          throw new EngineError('Code: 394. DB::Exception: Query was cancelled. (QUERY_WAS_CANCELLED)', 394)
        const running = options.params
          ? slot.session.queryBindAsync(sql, options.params, { format: options.format ?? 'CSV' })
          : slot.session.queryAsync(sql, { format: options.format ?? 'CSV' })
        let isSettled = false
        const onAbort = () => void this.kill(marker, () => isSettled)
        signal.addEventListener('abort', onAbort, { once: true })
        try {
          return await running
        } finally {
          isSettled = true
          signal.removeEventListener('abort', onAbort)
        }
      } catch (error) {
        await this.drainOutput(slot)
        throw toEngineError(error)
      } finally {
        this.release(lane, slot)
      }
    }
    try {
      const opts = { format: options.format ?? 'CSV', signal: options.signal }
      if (options.params) return await slot.session.queryBindAsync(sql, options.params, opts)
      return await slot.session.queryAsync(sql, opts)
    } catch (error) {
      if (!options.signal?.aborted) await this.drainOutput(slot)
      throw toEngineError(error)
    } finally {
      this.release(lane, slot)
    }
  }

  /**
   * A statement that fails after writing output (a result limit in throw mode) leaves that output
   * in the Session's buffer, and chdb prepends it to the next answer: a trivial statement drains it.
   */
  private async drainOutput(slot: Slot) {
    await slot.session.queryAsync('SELECT 1', { format: 'Null' }).catch(() => undefined)
  }

  /**
   * Stops the running statement whose text holds `marker` (KILL QUERY), trying again for a few
   * seconds while it has not ended: an abort can come before the engine has registered it.
   */
  private async kill(marker: string, isSettled: () => boolean) {
    const where = `position(query, ${lit(marker)}) > 0 AND position(query, 'KILL QUERY') = 0`
    for (let attempt = 0; attempt < 50 && !isSettled() && !this.closed; attempt++) {
      await this.run(`KILL QUERY WHERE ${where} ASYNC`, { format: 'Null' }).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** What the engine reports of the statements running now whose text holds one of `markers`. */
  async progressOf(
    markers: string[],
  ): Promise<Map<string, { rowsRead: number; bytesRead: number; elapsedMs: number }>> {
    const found = new Map<string, { rowsRead: number; bytesRead: number; elapsedMs: number }>()
    if (!markers.length) return found
    const rows = await this.rows<{ query: string; read_rows: string; read_bytes: string; elapsed: number }>(
      "SELECT query, read_rows, read_bytes, elapsed FROM system.processes WHERE position(query, 'system.processes') = 0",
    )
    for (const marker of markers) {
      const row = rows.find((entry) => entry.query.includes(marker))
      if (row)
        found.set(marker, {
          rowsRead: Number(row.read_rows),
          bytesRead: Number(row.read_bytes),
          elapsedMs: Math.round(row.elapsed * 1000),
        })
    }
    return found
  }

  /** Runs a statement and returns JSON rows (JSONEachRow parsed). */
  async rows<T = Record<string, unknown>>(sql: string, lane: Lane = 'internal'): Promise<T[]> {
    const result = await this.run(sql, { format: 'JSONEachRow', lane })
    const text = result.text()
    return text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as T)
  }

  async exec(sql: string): Promise<void> {
    await this.run(sql)
  }

  /**
   * Inserts JSONEachRow/CSV bytes into `database`.`table` (into `columns`, in that order, when
   * given). `settings` are per-insert engine settings (names and values are the caller's own
   * constants, never user input).
   */
  async insert(
    database: string,
    table: string,
    values: Buffer | string,
    format: 'JSONEachRow' | 'CSV' | 'CSVWithNames' = 'JSONEachRow',
    settings?: Record<string, number | string>,
    columns?: string[],
  ) {
    const slot = await this.acquire('internal')
    try {
      // the raw insert takes plain identifiers only; other names go through an INSERT statement
      if (
        /^[A-Za-z0-9_]+$/.test(database) &&
        /^[A-Za-z0-9_]+$/.test(table) &&
        (columns ?? []).every((c) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(c))
      ) {
        return await slot.session.insert({
          table: `${database}.${table}`,
          values,
          format,
          ...(columns ? { columns } : {}),
          ...(settings ? { settings } : {}),
        })
      }
      const body = typeof values === 'string' ? values : values.toString('utf8')
      const withSettings =
        settings && Object.keys(settings).length
          ? ` SETTINGS ${Object.entries(settings)
              .map(([k, v]) => `${k} = ${typeof v === 'number' ? v : lit(v)}`)
              .join(', ')}`
          : ''
      const list = columns ? ` (${columns.map(ident).join(', ')})` : ''
      await slot.session.queryAsync(
        `INSERT INTO ${qualified(database, table)}${list}${withSettings} FORMAT ${format}\n${body}`,
      )
      return undefined
    } catch (error) {
      throw toEngineError(error)
    } finally {
      this.release('internal', slot)
    }
  }

  /**
   * Ingest mapped by the engine (engine-mapping.ts): the body goes as is into a temporary staging
   * table of the Session (every field a Nullable(String); the raw insert hands the bytes over
   * without copying), then `insertFrom(stage)` maps and checks it into the table in one statement.
   * The staging table is emptied afterwards, whatever happened.
   */
  async stagedInsert(
    stage: { structure: string; format: 'CSV' | 'JSONEachRow'; input: Record<string, string | number> },
    values: Buffer | string,
    insertFrom: (stage: string) => string,
  ): Promise<void> {
    const slot = await this.acquire('internal')
    const name = `hdx_stage_${crypto.createHash('sha1').update(stage.structure).digest('hex').slice(0, 16)}`
    try {
      slot.stages ??= new Set()
      if (!slot.stages.has(name)) {
        await slot.session.queryAsync(
          `CREATE TEMPORARY TABLE IF NOT EXISTS ${name} (${stage.structure}) ENGINE = Memory`,
        )
        slot.stages.add(name)
      }
      await slot.session.insert({ table: name, values, format: stage.format, settings: stage.input })
      await slot.session.queryAsync(insertFrom(name))
    } catch (error) {
      await slot.session.queryAsync('SELECT 1', { format: 'Null' }).catch(() => undefined)
      throw toEngineError(error)
    } finally {
      await slot.session.queryAsync(`TRUNCATE TABLE IF EXISTS ${name}`).catch(() => slot.stages?.delete(name))
      this.release('internal', slot)
    }
  }

  private batches = new Map<
    string,
    { parts: Buffer[]; waiters: { resolve: () => void; reject: (e: unknown) => void }[] }
  >()
  private inFlight = new Set<string>()

  /**
   * JSONEachRow insert with group commit: while an insert into a table is in flight, later ones
   * for the same table are gathered and written together when it finishes. Each caller's promise
   * settles when its own rows are written, so an acknowledgement still means "on disk".
   */
  insertRows(database: string, table: string, values: Buffer): Promise<void> {
    const key = `${database}\u0000${table}`
    return new Promise<void>((resolve, reject) => {
      let batch = this.batches.get(key)
      if (!batch) this.batches.set(key, (batch = { parts: [], waiters: [] }))
      batch.parts.push(values)
      batch.waiters.push({ resolve, reject })
      if (!this.inFlight.has(key)) void this.drain(key, database, table)
    })
  }

  private async drain(key: string, database: string, table: string) {
    this.inFlight.add(key)
    try {
      for (;;) {
        const batch = this.batches.get(key)
        if (!batch || batch.parts.length === 0) break
        this.batches.delete(key)
        const payload =
          batch.parts.length === 1
            ? batch.parts[0]
            : Buffer.concat(
                batch.parts.map((p) => (p[p.length - 1] === 10 ? p : Buffer.concat([p, Buffer.from('\n')]))),
              )
        try {
          await this.insert(database, table, payload)
          for (const w of batch.waiters) w.resolve()
        } catch (error) {
          if (batch.waiters.length === 1) batch.waiters[0].reject(error)
          else {
            // one bad payload must not fail the others: write them one by one
            for (let i = 0; i < batch.parts.length; i++) {
              try {
                await this.insert(database, table, batch.parts[i])
                batch.waiters[i].resolve()
              } catch (e) {
                batch.waiters[i].reject(e)
              }
            }
          }
        }
      }
    } finally {
      this.inFlight.delete(key)
    }
  }

  async close() {
    this.closed = true
    for (const lane of Object.values(this.lanes)) {
      for (const slot of lane.slots) slot.session.close()
    }
  }
}

/** The first ORDER BY column of the engine table (its primary datetime), if the table exists. */
export async function tableOrderKey(engine: Engine, database: string, table: string): Promise<string | null> {
  try {
    const rows = await engine.rows<{ sorting_key: string }>(
      `SELECT sorting_key FROM system.tables WHERE database = ` +
        `'${database.replace(/'/g, "\\'")}' AND name = '${table.replace(/'/g, "\\'")}'`,
    )
    const key = rows[0]?.sorting_key?.split(',')[0]?.trim()
    return key ? key.replace(/^`|`$/g, '') : null
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------
// Transform datatypes → engine types

export type Datatype = {
  type?: string
  primary?: boolean
  format?: string
  resolution?: string
  elements?: any[]
  default?: unknown
  ignore?: boolean
  virtual?: boolean
  source?: any
  [k: string]: any
}
export type OutputColumn = { name: string; datatype: Datatype }

/** Each scalar datatype's engine type; the console's dictionary lookup uses the same (tests/datatypes.test.ts). */
export const SCALARS: Record<string, string> = {
  string: 'String',
  boolean: 'Bool',
  bool: 'Bool',
  int8: 'Int8',
  uint8: 'UInt8',
  int16: 'Int16',
  uint16: 'UInt16',
  int32: 'Int32',
  uint32: 'UInt32',
  int64: 'Int64',
  uint64: 'UInt64',
  double: 'Float64',
  float: 'Float64',
  float64: 'Float64',
  float32: 'Float32',
  datetime: 'DateTime64(3)',
  datetime64: 'DateTime64(3)',
  epoch: 'DateTime64(3)',
  json: 'String',
  ip: 'String',
  uuid: 'String',
}

/** The engine type of a transform datatype, without Nullable. */
export function baseType(dt: Datatype | undefined): string {
  const type = String(dt?.type ?? 'string').toLowerCase()
  if (type === 'array') return `Array(${elementType(dt?.elements?.[0])})`
  if (type === 'map') return `Map(${mapKeyType(dt?.elements?.[0])}, ${elementType(dt?.elements?.[1])})`
  return SCALARS[type] ?? 'String'
}

function elementType(dt: Datatype | undefined): string {
  const inner = baseType(dt ?? { type: 'string' })
  return inner.startsWith('Array(') || inner.startsWith('Map(') ? inner : `Nullable(${inner})`
}

function mapKeyType(dt: Datatype | undefined): string {
  const t = baseType(dt ?? { type: 'string' })
  return t.startsWith('Array(') ||
    t.startsWith('Map(') ||
    t.startsWith('DateTime64') ||
    t === 'Float64' ||
    t === 'Float32' ||
    t === 'Bool'
    ? 'String'
    : t
}

/** The engine column type: primary datetime is NOT NULL; arrays and maps cannot be Nullable. */
export function columnType(dt: Datatype): string {
  const t = baseType(dt)
  if (dt.primary) return t.startsWith('DateTime64') ? t : 'DateTime64(3)'
  if (t.startsWith('Array(') || t.startsWith('Map(')) return t
  return `Nullable(${t})`
}

/** The columns a transform stores: everything except `ignore`d ones. */
export function storedColumns(transform: Resource): OutputColumn[] {
  const cols = (transform?.settings?.output_columns ?? []) as OutputColumn[]
  return cols.filter((c) => c && typeof c.name === 'string' && c.name && !c.datatype?.ignore)
}

export function primaryColumn(transform: Resource): OutputColumn | undefined {
  return storedColumns(transform).find((c) => c.datatype?.primary)
}

export function dataPath(dataDir: string, ...parts: string[]) {
  return path.join(dataDir, ...parts)
}
