import { lexSql, type LexedSql, type SqlToken } from './sql-statement'

/** A name token's text: a quoted name without its quotes (a doubled quote or `\` escape read as one). */
function nameOf(lexed: LexedSql, token: SqlToken): string | null {
  const text = lexed.text(token)
  if (token.type === 'word') return text
  if (token.type !== 'quoted') return null
  const inner = text.slice(1, -1)
  // “name” has no escapes; `name` and "name" double their quote or escape with a backslash
  if (text.startsWith('\u201c')) return inner
  return inner.replaceAll(`${text[0]}${text[0]}`, text[0]!).replace(/\\(.)/g, '$1')
}

/**
 * The `project.table` names a statement reads: the ones after FROM or JOIN, in the order written,
 * each once (read with the engine's lexer, so a string, a comment or a column `a.b` elsewhere is
 * not one; a table function `numbers(10)` or `p.f(…)` is not either). For messages only (issue 54,
 * point 10): the cluster decides what a statement reads.
 */
export function tablesNamed(sql: string): string[] {
  const lexed = lexSql(sql)
  const { tokens } = lexed
  const found: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    const keyword = tokens[i]!
    if (keyword.type !== 'word' || !/^(FROM|JOIN)$/i.test(lexed.text(keyword))) continue
    const [project, dot, table, after] = [tokens[i + 1], tokens[i + 2], tokens[i + 3], tokens[i + 4]]
    if (!project || !table || dot?.type !== 'dot' || after?.type === 'open') continue
    const p = nameOf(lexed, project)
    const t = nameOf(lexed, table)
    if (p && t && !found.includes(`${p}.${t}`)) found.push(`${p}.${t}`)
  }
  return found
}

/** "a", "a and b", "a, b and c". */
const listed = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '')

/**
 * A query's 403 as the user reads it (issue 54, point 10): the cluster's words, and when they name
 * none of the tables the statement reads, those tables (a role may query some projects or tables
 * and not others: the user asks for the one they lack).
 */
export function refusalNamingTables(message: string, sql: string): string {
  const tables = tablesNamed(sql)
  if (!tables.length || tables.some((table) => message.includes(table))) return message
  const which = tables.length === 1 ? 'it' : 'one of them'
  return `${message} The statement reads ${listed(tables)}: your role may not query ${which} (it needs select_sql on the table).`
}
