import { PARAM_NAME, type SqlPlaceholder } from './sql-params'
import { lexSql } from './sql-statement'

/**
 * The SQL's `{name:Type}` placeholders read with the engine's own lexer (decision 095), so a
 * `{x:UInt8}` inside a string, a quoted name or a comment is not one (decision 100). Apart from
 * sql-params.ts so that the browser loads the lexer only with the parameters' inputs.
 */

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
