import { lexSql } from './sql-statement'

/**
 * ClickHouse's typed query parameters (`{name:Type}` in the SQL, `param_name=value` beside it), read
 * with the engine's own lexer (decision 095), so a `{x:UInt8}` inside a string, a quoted name or a
 * comment is not one. Safe on both sides. The value is never spliced into the SQL: it travels as
 * `param_<name>` and the engine binds it (decision 100).
 */

/** A placeholder: its name and the type it was written with (`Array(String)`, `Nullable(UInt16)`). */
export type SqlPlaceholder = { name: string; type: string }

/** The URL field (and cluster parameter) of a placeholder's value. */
export const PARAM_PREFIX = 'param_'

/** A name the engine takes for a parameter (an identifier). */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `param_<name>` for a field name, else null. */
export function paramNameOf(field: string): string | null {
  if (!field.startsWith(PARAM_PREFIX)) return null
  const name = field.slice(PARAM_PREFIX.length)
  return PARAM_NAME.test(name) ? name : null
}

/**
 * The placeholders of `sql` in order of first appearance, each name once (with its first type):
 * `{` then a name, `:`, a type up to the matching `}`, as tokens the engine reads (never text in a
 * string, a quoted name or a comment). Stops where the lexer stops (an unclosed string, a
 * character the engine does not read), as the engine would.
 */
export function findPlaceholders(sql: string): SqlPlaceholder[] {
  if (!sql.includes('{')) return []
  const lexed = lexSql(sql)
  const { tokens } = lexed
  const found: SqlPlaceholder[] = []
  const seen = new Set<string>()
  for (let index = 0; index + 3 < tokens.length; index++) {
    const open = tokens[index]!
    if (open.type !== 'open' || open.bracket !== '{') continue
    const name = tokens[index + 1]!
    const colon = tokens[index + 2]!
    if (name.type !== 'word' || colon.type !== 'operator' || lexed.text(colon) !== ':') continue
    // the type runs to the `}` that closes this `{` (a type's own brackets are round ones)
    let end = index + 3
    while (end < tokens.length && !(tokens[end]!.type === 'close' && tokens[end]!.depth === open.depth)) end++
    if (end >= tokens.length || tokens[end]!.bracket !== '}' || end === index + 3) continue
    const text = lexed.text(name)
    const type = new TextDecoder()
      .decode(lexed.bytes.subarray(tokens[index + 3]!.start, tokens[end - 1]!.end))
      .replace(/\s+/g, ' ')
    if (PARAM_NAME.test(text) && !seen.has(text)) {
      seen.add(text)
      found.push({ name: text, type })
    }
    index = end
  }
  return found
}

/** The parameter values a set of fields holds (`param_<name>` → name), as given: a value is not trimmed. */
export function paramValuesOf(fields: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [field, value] of Object.entries(fields)) {
    const name = paramNameOf(field)
    if (name !== null) values[name] = value
  }
  return values
}

/**
 * Which parameter the engine's message is about, when it names one of `names`: a value that does not
 * parse as its type (`… for query parameter 'status' …`), a parameter not set (`Substitution
 * `status` is not set`), or one whose value is refused otherwise. Null for any other message.
 */
export function paramOfMessage(message: string, names: readonly string[]): string | null {
  const patterns = [
    /query parameter '([A-Za-z_][A-Za-z0-9_]*)'/,
    /query parameter `([A-Za-z_][A-Za-z0-9_]*)`/,
    /[Ss]ubstitution `([A-Za-z_][A-Za-z0-9_]*)`/,
    /parameter '([A-Za-z_][A-Za-z0-9_]*)'/,
  ]
  for (const pattern of patterns) {
    const match = pattern.exec(message)
    if (match && names.includes(match[1]!)) return match[1]!
  }
  return null
}
