/** A name as a ClickHouse identifier: as is when plain, else backticked with backticks and backslashes escaped. */
export function sqlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/[\\`]/g, (char) => `\\${char}`)}\``
}

/** A string as an engine string literal: quoted, backslashes and quotes escaped. */
export function sqlString(value: string): string {
  return `'${value.replace(/[\\']/g, (char) => `\\${char}`)}'`
}

/** `project.table` with each part quoted as sqlName does. */
export function tableRef(project: string, table: string): string {
  return `${sqlName(project)}.${sqlName(table)}`
}

/** Statements that change data or the schema; anything else (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN, EXISTS) only reads. */
const CHANGING = new Set([
  'ALTER',
  'ATTACH',
  'BACKUP',
  'BEGIN',
  'COMMIT',
  'CREATE',
  'DELETE',
  'DETACH',
  'DROP',
  'EXCHANGE',
  'GRANT',
  'INSERT',
  'KILL',
  'MOVE',
  'OPTIMIZE',
  'RENAME',
  'REPLACE',
  'RESTORE',
  'REVOKE',
  'ROLLBACK',
  'SET',
  'START',
  'SYSTEM',
  'TRUNCATE',
  'UNDROP',
  'UPDATE',
  'USE',
])

/**
 * Whether `sql` would change something when run (its first keyword, after comments and opening
 * parentheses): such a statement is never run by a GET (a link, a reload, a prefetch), only by a
 * confirmed POST. The list is every ClickHouse statement that writes; any other first word either
 * reads or is a syntax error the engine reports as such.
 */
export function isChangingStatement(sql: string): boolean {
  const text = sql
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/(--|#)[^\n]*/g, ' ')
    .replace(/^[\s(]+/, '')
  const keyword = /^[A-Za-z]+/.exec(text)?.[0]?.toUpperCase()
  return keyword !== undefined && CHANGING.has(keyword)
}

/** Whether a column of this ClickHouse type holds numbers (Nullable and LowCardinality unwrapped). */
export function isNumericType(type: string): boolean {
  return /^(?:(?:Nullable|LowCardinality)\()*(?:U?Int\d+|Float\d+|Decimal\d*)\b/.test(type)
}
