/**
 * HTTP stream ingest (`POST /ingest/event`, `/pool/{pool}/ingest/event`) and the transform
 * validator (`POST /validator`).
 */
import { isUtf8 } from 'node:buffer'
import zlib from 'node:zlib'
import type { Ctx } from '../context'
import { HttpError, json } from '../http'
import { can, requireUser } from '../config/access'
import { pickTransform, resolveTable } from './catalog'
import { lit, tableOrderKey, toEngineError } from './engine'
import type { Resource } from '../hooks'
import type { Plane } from './plane'
import { makeMapper, recordsOf, toJsonEachRow, transformType } from './transform'
import { csvRecordCount, engineMappingEnabled, engineMappingMinRows, planFor, type EnginePlan } from './engine-mapping'
import { directPlanFor, type DirectPlan } from './ingest-direct'
import { bodyBytes, type ClusterRequest } from '../node-http'

const bad = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, { code: 400, message, ...extra })

/** A request body as UTF-8 text, decompressed as `readBodyBytes` says. Used by the validator and `/query`. */
export async function readBody(request: ClusterRequest): Promise<string> {
  return (await readBodyBytes(request)).toString('utf8')
}

/**
 * A request body's bytes, decompressed by its `Content-Encoding` (gzip, deflate, br; a gzip body is
 * also recognised by its magic bytes), as the engine's own HTTP interface accepts compressed request
 * bodies. Ingest keeps them as bytes (decision 038); `readBody` decodes them as text.
 */
export async function readBodyBytes(request: ClusterRequest): Promise<Buffer> {
  const buf = await bodyBytes(request)
  const encoding = (request.headers.get('content-encoding') ?? '').toLowerCase()
  try {
    if (encoding.includes('gzip') || isGzip(buf)) return zlib.gunzipSync(buf)
    // HTTP "deflate" is zlib-wrapped; some clients send raw deflate
    if (encoding.includes('deflate') || encoding.includes('zlib'))
      return isZlib(buf) ? zlib.inflateSync(buf) : zlib.inflateRawSync(buf)
    if (encoding.includes('br')) return zlib.brotliDecompressSync(buf)
    if (encoding.includes('zip') || isZip(buf)) return unzip(buf)
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw bad(`Could not decompress the body: ${(error as Error).message}`)
  }
  return buf
}

const isGzip = (buf: Buffer) => buf[0] === 0x1f && buf[1] === 0x8b
/** A zlib stream's two header bytes (deflate, a window size, the check bits); looked for only where zlib is named. */
const isZlib = (buf: Buffer) =>
  buf.length > 2 && (buf[0] & 0x0f) === 8 && buf[0] >> 4 <= 7 && (buf[0] * 256 + buf[1]) % 31 === 0
/** A zip archive's first local file header. */
const isZip = (buf: Buffer) => buf.length >= 30 && buf.readUInt32LE(0) === 0x04034b50

/**
 * The files of a zip archive (stored or deflated), one after the other in the archive's order, each
 * ending with a line break: a file the client sends as it is (hdxcli `stream ingest data.zip`). Read
 * through the central directory, so entries with a data descriptor have their sizes.
 */
export function unzip(buf: Buffer): Buffer {
  let end = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i
      break
    }
  }
  if (end < 0) throw bad('Could not decompress the body: not a zip archive (no end of central directory)')
  const entries = buf.readUInt16LE(end + 10)
  let at = buf.readUInt32LE(end + 16)
  const parts: Buffer[] = []
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50)
      throw bad('Could not decompress the body: a broken zip central directory')
    const method = buf.readUInt16LE(at + 10)
    const size = buf.readUInt32LE(at + 20)
    const nameLength = buf.readUInt16LE(at + 28)
    const extraLength = buf.readUInt16LE(at + 30)
    const commentLength = buf.readUInt16LE(at + 32)
    const local = buf.readUInt32LE(at + 42)
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/')) continue
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50)
      throw bad(`Could not decompress the body: a broken zip entry (${name})`)
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
    const data = buf.subarray(start, start + size)
    let file: Buffer
    if (method === 0) file = Buffer.from(data)
    else if (method === 8) file = zlib.inflateRawSync(data)
    else throw bad(`Could not decompress the body: zip entry ${name} uses compression method ${method}`)
    parts.push(file)
    if (file.length && file[file.length - 1] !== 0x0a) parts.push(Buffer.from('\n'))
  }
  return Buffer.concat(parts)
}

/**
 * The body as the transform reads it: a body its `settings.compression` names (`zlib`, `deflate`) that
 * came without a Content-Encoding is unpacked here, as a real intake head does by the transform.
 * gzip and zip bodies are recognised by their own headers already (readBodyBytes).
 */
function unpackForTransform(buf: Buffer, compression: unknown): Buffer {
  const named = String(compression ?? '').toLowerCase()
  try {
    if ((named.includes('zlib') || named.includes('deflate')) && isZlib(buf)) return zlib.inflateSync(buf)
  } catch (error) {
    throw bad(`Could not decompress the body (${named}): ${(error as Error).message}`)
  }
  return buf
}

const orderKeys = new Map<string, string | null>()
/** the engine table's column types, for the engine-mapped path */
const tableColumns = new Map<string, Map<string, string>>()
/** engine plans by table, transform (and its version) and body type; null: the transform needs the JavaScript mapper */
const plans = new Map<string, EnginePlan | null>()
/** direct plans (ingest-direct.ts) by the same keys; null: the body needs the mapping */
const directPlans = new Map<string, DirectPlan | null>()

/** How many ingest requests each path took (tests and the bench read it); `direct` ones count as `engine` too. */
export const ingestPaths = { engine: 0, direct: 0, javascript: 0 }

const isRecord = (r: unknown) => !!r && typeof r === 'object' && !Array.isArray(r)

/**
 * The engine-mapped insert (engine-mapping.ts) of the body's `bytes`: the number of rows written, or null when this body
 * must go through the JavaScript mapper (not covered, or the engine refused it: a row that breaks a
 * rule, a value the SQL is not sure of, any engine error), in which case nothing was written.
 * A CSV body with an ASCII delimiter is checked as its bytes in latin1 text (see ingest-direct.ts):
 * a copy of the bytes, where UTF-8 decoding also validates, and makes a two-byte string of any
 * non-ASCII body.
 */
async function insertMappedByEngine(
  plane: Plane,
  project: Resource,
  table: Resource,
  transform: Resource,
  type: 'json' | 'csv',
  bytes: Buffer,
  orderKey: string,
  records: unknown[] | null,
): Promise<number | null> {
  if (!engineMappingEnabled()) return null
  if (records && records.length < engineMappingMinRows()) return null
  const key = `${project.name}.${table.name}`
  const planKey = `${key}\u0000${transform.uuid}\u0000${transform.modified ?? ''}\u0000${type}\u0000${orderKey}`
  if (!plans.has(planKey)) {
    let columns = tableColumns.get(key)
    if (!columns) {
      const rows = await plane.engine.rows<{ name: string; type: string }>(
        `SELECT name, type FROM system.columns WHERE database = ${lit(project.name)} AND table = ${lit(table.name)}`,
      )
      columns = new Map(rows.map((r) => [r.name, r.type]))
      tableColumns.set(key, columns)
    }
    let plan: EnginePlan | null = null
    try {
      plan = planFor(
        { ...transform, type },
        { tableOrderKey: orderKey, database: project.name, table: table.name, tableColumns: columns },
      )
    } catch {
      plan = null
    }
    plans.set(planKey, plan)
    let direct: DirectPlan | null = null
    try {
      direct = plan ? directPlanFor({ ...transform, type }, { tableOrderKey: orderKey, tableColumns: columns }) : null
    } catch {
      direct = null
    }
    directPlans.set(planKey, direct)
  }
  const plan = plans.get(planKey)
  if (!plan) return null
  let count: number
  const scan = type === 'csv' ? bytes.toString(plan.delimiter.charCodeAt(0) < 128 ? 'latin1' : 'utf8') : ''
  if (type === 'json') {
    // the JavaScript parse decided the records; the engine reads exactly those
    if (!records || !records.every(isRecord)) return null
    count = records.length
  } else count = csvRecordCount(scan, plan.delimiter, plan.skipHead)
  // one block (the plan's settings), so a refused row leaves nothing written
  if (count <= 0 || count < engineMappingMinRows() || count >= 1_000_000) return null
  // the body as it is, parsed by the engine into the table, when the JavaScript check of its values
  // finds nothing the mapping would change or refuse (ingest-direct.ts)
  const direct = directPlans.get(planKey)
  if (direct && (type === 'json' ? direct.accepts(records!) : direct.acceptsCsv(scan))) {
    try {
      await plane.engine.insert(project.name, table.name, bytes, direct.format, direct.settings, direct.columns)
      ingestPaths.direct++
      return count
    } catch (error) {
      // nothing written (one block): the mapping decides
      if (process.env.CLUSTER_DEBUG_INGEST)
        console.error('direct insert refused:', (error as Error).message.slice(0, 500))
    }
  }
  try {
    await plane.engine.stagedInsert(plan, bytes, (stage) => plan.insertFrom(stage))
    return count
  } catch (error) {
    if (process.env.CLUSTER_DEBUG_INGEST)
      console.error('engine-mapped insert refused:', (error as Error).message.slice(0, 500))
    return null
  }
}

/**
 * The target table and transform: the `x-hdx-table` / `x-hdx-transform` headers, or the `table` /
 * `transform` URL parameters (`/ingest/event?table=project.table&transform=name`, as the Home
 * Assistant integration sends them). A header wins over a parameter.
 */
function targetOf(ctx: Ctx): { tableRef: string | null; transformName: string | null } {
  const { request, url } = ctx
  return {
    tableRef: request.headers.get('x-hdx-table') || url.searchParams.get('table') || null,
    transformName: request.headers.get('x-hdx-transform') || url.searchParams.get('transform') || null,
  }
}

export async function handleIngest(plane: Plane, ctx: Ctx): Promise<Response> {
  const { request, cluster } = ctx
  const { tableRef, transformName } = targetOf(ctx)
  if (!tableRef) throw bad('Missing header x-hdx-table (project.table) or URL parameter ?table=project.table')
  const resolved = resolveTable(cluster, tableRef)
  if ('error' in resolved) throw new HttpError(404, { code: 404, message: resolved.error })
  const { project, table } = resolved
  // Auth: a table with a stream token list takes its token; otherwise a signed-in user with insert_sql
  const tokens: string[] = Array.isArray(table.settings?.stream?.token_list)
    ? table.settings.stream.token_list.filter(Boolean)
    : []
  const given = request.headers.get('x-hdx-token')
  if (tokens.length) {
    if (!given || !tokens.includes(given)) {
      throw new HttpError(401, {
        code: 401,
        message: given ? 'Invalid x-hdx-token for this table' : 'This table requires an x-hdx-token header',
      })
    }
  } else if (request.headers.get('authorization')) {
    const user = requireUser(ctx)
    if (
      !can(cluster, user, 'insert_sql', { projectId: project.uuid, tableId: table.uuid }) &&
      !can(cluster, user, 'change_table', { projectId: project.uuid, tableId: table.uuid })
    ) {
      throw new HttpError(403, { detail: 'You do not have permission to perform this action.' })
    }
  } else {
    throw new HttpError(401, { detail: 'Authentication credentials were not provided.' })
  }
  const transform = pickTransform(cluster, table.uuid, transformName)
  if (!transform)
    throw bad(
      transformName
        ? `Transform "${transformName}" does not exist on ${tableRef}`
        : `Table ${tableRef} has no transform: publish one before ingesting`,
    )

  const received = unpackForTransform(await readBodyBytes(request), transform.settings?.compression)
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase()
  let type = transformType(transform)
  if (contentType.includes('csv')) type = 'csv'
  else if (contentType.includes('json')) type = 'json'
  if (type !== transformType(transform))
    throw bad(`Transform "${transform.name}" is ${transformType(transform)}, the body is ${type}`)
  // a UTF-8 byte order mark is not part of the data; bytes that are not UTF-8 become U+FFFD, as in
  // the text the JavaScript mapper reads
  const data = received[0] === 0xef && received[1] === 0xbb && received[2] === 0xbf ? received.subarray(3) : received
  const bytes = isUtf8(data) ? data : Buffer.from(data.toString('utf8'))
  // JSON is parsed here in any case: the parse decides the records (and its errors are the answer);
  // CSV is read by the engine unless it goes through the JavaScript mapper, which decodes it then
  let body: string | null = null
  let records: unknown[] | null = null
  if (type === 'json') {
    body = bytes.toString('utf8')
    const parsed = recordsOf(body, type, transform.settings?.format_details)
    if (parsed.error) throw bad(`Could not parse the body as ${type.toUpperCase()}: ${parsed.error}`)
    if (!parsed.records.length) throw bad('The body has no rows')
    records = parsed.records
  }

  const key = `${project.name}.${table.name}`
  if (!orderKeys.has(key)) orderKeys.set(key, await tableOrderKey(plane.engine, project.name, table.name))
  const orderKey = orderKeys.get(key)
  if (!orderKey) {
    orderKeys.delete(key)
    throw bad(`Table ${tableRef} has no engine table yet: publish a transform with a primary datetime column`)
  }

  const written = await insertMappedByEngine(plane, project, table, transform, type, bytes, orderKey, records)
  if (written !== null && written > 0) {
    ingestPaths.engine++
    plane.touched(project.name, table.name)
    cluster.metrics.inc('rows_ingested_total', { service: 'intake-head', table: key }, written)
    cluster.metrics.inc('bytes_ingested_total', { service: 'intake-head' }, received.length)
    return json({
      code: 200,
      message: 'success',
      rows: written,
      table: `${project.name}.${table.name}`,
      transform: transform.name,
    })
  }

  // the JavaScript mapper: every rule checked row by row, with its messages
  ingestPaths.javascript++
  if (!records) {
    body ??= bytes.toString('utf8')
    const parsed = recordsOf(body, type, transform.settings?.format_details)
    if (parsed.error) throw bad(`Could not parse the body as ${type.toUpperCase()}: ${parsed.error}`)
    if (!parsed.records.length) throw bad('The body has no rows')
    records = parsed.records
  }
  const mapper = makeMapper(transform, { tableOrderKey: orderKey })
  const rows: Record<string, unknown>[] = []
  const errors: string[] = []
  records.forEach((r, i) => {
    const m = mapper.map(r, i)
    if (m.ok) rows.push(m.row)
    else errors.push(m.error)
  })
  if (errors.length) {
    cluster.metrics.inc('rows_rejected_total', { service: 'intake-head' }, errors.length)
    cluster.log({
      level: 'warning',
      service: 'intake-head',
      component: 'ingest',
      message: `rejected ${errors.length} of ${records.length} rows for ${tableRef}`,
      error: errors[0],
    })
    // a real intake head rejects the whole request when rows do not fit the transform
    throw bad(`${errors.length} of ${records.length} rows could not be mapped through transform "${transform.name}"`, {
      errors: errors.slice(0, 20),
    })
  }
  try {
    await plane.engine.insertRows(project.name, table.name, toJsonEachRow(rows))
  } catch (e) {
    orderKeys.delete(key)
    tableColumns.delete(key)
    throw bad(toEngineError(e).message)
  }
  plane.touched(project.name, table.name)
  cluster.metrics.inc('rows_ingested_total', { service: 'intake-head', table: key }, rows.length)
  cluster.metrics.inc('bytes_ingested_total', { service: 'intake-head' }, received.length)
  return json({
    code: 200,
    message: 'success',
    rows: rows.length,
    table: `${project.name}.${table.name}`,
    transform: transform.name,
  })
}

export function forgetTable(database: string, table?: string) {
  const hit = (k: string) =>
    table ? k === `${database}.${table}` || k.startsWith(`${database}.${table}\u0000`) : k.startsWith(`${database}.`)
  for (const cache of [orderKeys, tableColumns, plans, directPlans])
    for (const k of cache.keys()) if (hit(k)) cache.delete(k)
}

/**
 * `POST /validator`: `{"transform": {type?, settings}, "data": [...] | "csv text"}` (or a raw body
 * with `x-hdx-transform`). Maps every row and reports per-row errors without storing anything.
 */
export async function handleValidator(plane: Plane, ctx: Ctx): Promise<Response> {
  const { request, cluster } = ctx
  requireUser(ctx)
  const text = await readBody(request)
  const { tableRef, transformName } = targetOf(ctx)
  let transform: Resource | undefined
  let data: unknown
  let envelope: Record<string, any> | null = null
  try {
    const parsed = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && ('transform' in parsed || 'data' in parsed))
      envelope = parsed
  } catch {
    // a raw body
  }
  if (envelope) {
    if (envelope.transform && typeof envelope.transform === 'object') {
      transform = {
        uuid: '',
        name: envelope.transform.name ?? 'validator',
        ...envelope.transform,
        settings: envelope.transform.settings ?? {},
      } as Resource
    }
    data = envelope.data
  } else data = text
  if (!transform) {
    if (!tableRef)
      throw bad(
        'Give a transform in the body ({"transform": {...}, "data": ...}) or x-hdx-table and x-hdx-transform headers',
      )
    const resolved = resolveTable(cluster, tableRef)
    if ('error' in resolved) throw new HttpError(404, { code: 404, message: resolved.error })
    transform = pickTransform(cluster, resolved.table.uuid, transformName)
    if (!transform) throw bad(`Table ${tableRef} has no transform`)
  }
  if (!Array.isArray(transform.settings?.output_columns) || transform.settings.output_columns.length === 0) {
    throw bad('The transform has no output_columns')
  }
  // the type: the transform's, else guessed from the data
  if (!transform.type) transform.type = typeof data === 'string' && !/^\s*[[{]/.test(data) ? 'csv' : 'json'
  const type = transformType(transform)
  let records: unknown[]
  if (typeof data === 'string') {
    const r = recordsOf(data, type, transform.settings?.format_details)
    if (r.error) throw bad(`Could not parse the data as ${type.toUpperCase()}: ${r.error}`)
    records = r.records
  } else if (Array.isArray(data)) {
    records =
      type === 'csv'
        ? data.flatMap((d) =>
            typeof d === 'string' ? recordsOf(d, 'csv', transform!.settings?.format_details).records : [d],
          )
        : data
  } else if (data && typeof data === 'object') records = [data]
  else throw bad('No data to validate')
  const mapper = makeMapper(transform)
  const rows: Record<string, unknown>[] = []
  const errors: { row: number; message: string }[] = []
  records.forEach((r, i) => {
    const m = mapper.map(r, i)
    if (m.ok) rows.push(m.row)
    else errors.push({ row: i + 1, message: m.error })
  })
  void plane
  return json({
    code: 200,
    message: errors.length ? `${errors.length} of ${records.length} rows have errors` : 'success',
    transform: transform.name,
    num_rows: records.length,
    num_valid: rows.length,
    num_errors: errors.length,
    columns: mapper.columns.map((c) => ({
      name: c.name,
      type: c.datatype?.type ?? 'string',
      primary: !!c.datatype?.primary,
    })),
    rows,
    errors,
  })
}
