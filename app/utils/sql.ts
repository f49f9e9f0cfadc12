/** A name as a ClickHouse identifier: as is when plain, else backticked with backticks and backslashes escaped. */
export function sqlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/[\\`]/g, (char) => `\\${char}`)}\``
}

/** `project.table` with each part quoted as sqlName does. */
export function tableRef(project: string, table: string): string {
  return `${sqlName(project)}.${sqlName(table)}`
}
