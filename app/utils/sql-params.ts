/**
 * ClickHouse's typed query parameters (`{name:Type}` in the SQL, `param_name=value` beside it): their
 * fields and the engine's messages about them; the placeholders themselves are found by
 * sql-placeholders.ts (with the engine's lexer, loaded apart in the browser). Safe on both sides. The
 * value is never spliced into the SQL: it travels as `param_<name>` and the engine binds it (decision 100).
 */

/** A placeholder: its name and the type it was written with (`Array(String)`, `Nullable(UInt16)`). */
export type SqlPlaceholder = { name: string; type: string }

/** The URL field (and cluster parameter) of a placeholder's value. */
export const PARAM_PREFIX = 'param_'

/** A name the engine takes for a parameter (an identifier). */
export const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `param_<name>` for a field name, else null. */
export function paramNameOf(field: string): string | null {
  if (!field.startsWith(PARAM_PREFIX)) return null
  const name = field.slice(PARAM_PREFIX.length)
  return PARAM_NAME.test(name) ? name : null
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
