import { readStatement } from './sql-statement'

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

/**
 * Whether `sql` may change something when run: a statement that changes data, or one the console
 * cannot read for sure (readStatement in ./sql-statement: it reads the statement as the engine does
 * and fails closed). Such a statement is never run by a GET (a link, a reload, a prefetch), only by
 * a confirmed POST.
 */
export function isChangingStatement(sql: string): boolean {
  const { kind } = readStatement(sql)
  return kind === 'change' || kind === 'unsure'
}

/** Whether a column of this ClickHouse type holds numbers (Nullable and LowCardinality unwrapped). */
export function isNumericType(type: string): boolean {
  return /^(?:(?:Nullable|LowCardinality)\()*(?:U?Int\d+|Float\d+|Decimal\d*)\b/.test(type)
}
