/**
 * A batch job's SQL transform (`settings.sql_transform`): a SELECT that reads the file's rows, mapped
 * through the table's transform, as `{STREAM}`, and whose result is what the table stores (rows it
 * filters out are not stored; columns it computes replace the mapped ones, by name).
 */
import { ident, qualified, toEngineError, type Engine } from '../engine'
import { splitQuery } from '../sql'

export const STREAM = '{STREAM}'
const STAGING_DB = 'hdx_tmp'

/** Creates an empty staging table shaped like the target, runs `work` with its names, then drops it. */
async function withStaging<T>(
  engine: Engine,
  database: string,
  table: string,
  key: string,
  work: (name: string, ref: string) => Promise<T>,
): Promise<T> {
  const name = `batch_${key.replace(/[^A-Za-z0-9]/g, '')}`
  const ref = qualified(STAGING_DB, name)
  await engine.exec(`CREATE DATABASE IF NOT EXISTS ${ident(STAGING_DB)}`)
  await engine.exec(`DROP TABLE IF EXISTS ${ref}`)
  await engine.exec(`CREATE TABLE ${ref} AS ${qualified(database, table)} ENGINE = Memory`)
  try {
    return await work(name, ref)
  } finally {
    await engine.exec(`DROP TABLE IF EXISTS ${ref}`).catch(() => {})
  }
}

/** The names of the columns `select` gives, each checked to be a column of the target. */
async function outputColumns(
  engine: Engine,
  select: string,
  targetColumns: Set<string>,
  tableRef: string,
): Promise<string[]> {
  const described = await engine.rows<{ name: string }>(`DESCRIBE (${select})`)
  const names = described.map((column) => column.name)
  const unknown = names.filter((name) => !targetColumns.has(name))
  if (unknown.length)
    throw new Error(
      `The SQL gives ${unknown.map((name) => `"${name}"`).join(', ')}, ` +
        `which ${unknown.length === 1 ? 'is not a column' : 'are not columns'} of ${tableRef}`,
    )
  return names
}

async function columnsOf(engine: Engine, database: string, table: string): Promise<Set<string>> {
  const rows = await engine.rows<{ name: string }>(`DESCRIBE TABLE ${qualified(database, table)}`)
  return new Set(rows.map((row) => row.name))
}

/** Why `sql` cannot be a job's SQL transform for `database`.`table` (the engine's words), or null when it can. */
export async function checkBatchSql(
  engine: Engine,
  database: string,
  table: string,
  sql: string,
): Promise<string | null> {
  if (!sql.includes(STREAM))
    return `The SQL must read the file's rows as ${STREAM}, e.g. SELECT * FROM ${STREAM} WHERE status >= 400`
  // the same limits as the query API: one SELECT, nothing read from outside the cluster
  const split = splitQuery(sql)
  if (split.multi) return 'The SQL must be one statement'
  if (split.firstWord !== 'SELECT' && split.firstWord !== 'WITH') return 'The SQL must be a SELECT'
  if (split.outsideFunctions.length)
    return `Table function ${split.outsideFunctions[0]}() reads outside the cluster and is not allowed`
  try {
    const target = await columnsOf(engine, database, table)
    await withStaging(engine, database, table, `check${Date.now()}${Math.random()}`, (_name, ref) =>
      outputColumns(engine, sql.replaceAll(STREAM, ref), target, `${database}.${table}`),
    )
    return null
  } catch (error) {
    return toEngineError(error).message
  }
}

/**
 * Inserts one file's mapped rows (JSONEachRow) through `sql` into `database`.`table`; returns how
 * many rows the table stored; throws the engine's error.
 */
export async function insertThroughSql(
  engine: Engine,
  database: string,
  table: string,
  sql: string,
  rows: Buffer | string,
  jobId: string,
): Promise<number> {
  const target = await columnsOf(engine, database, table)
  return withStaging(engine, database, table, jobId, async (name, ref) => {
    await engine.insert(STAGING_DB, name, rows, 'JSONEachRow')
    const select = sql.replaceAll(STREAM, ref)
    const columns = await outputColumns(engine, select, target, `${database}.${table}`)
    const [{ stored }] = await engine.rows<{ stored: string | number }>(`SELECT count() AS stored FROM (${select})`)
    await engine.exec(`INSERT INTO ${qualified(database, table)} (${columns.map(ident).join(', ')}) ${select}`)
    return Number(stored)
  })
}
