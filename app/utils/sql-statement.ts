/**
 * The statement as the engine reads it (decision 095): a lexer with the rules of ClickHouse's own
 * (src/Parsers/Lexer.cpp, checked against the engine the local cluster embeds), over the UTF-8 bytes
 * the cluster receives, so that a comment, a string or a number ends exactly where the engine ends it.
 * On it: whether a statement only reads (a link may run it) and the statement a download sends
 * without its own output format. Safe on both sides (TextEncoder only).
 */

export type SqlTokenType =
  | 'word'
  | 'quoted'
  | 'string'
  | 'heredoc'
  | 'number'
  | 'open'
  | 'close'
  | 'comma'
  | 'semicolon'
  | 'dot'
  | 'equals'
  | 'operator'
  | 'unclosed'
  | 'unrecognized'

/** A significant token (whitespace and comments are skipped): byte offsets into the UTF-8 text. */
export type SqlToken = {
  type: SqlTokenType
  start: number
  end: number
  /** Brackets ((, [, {) open before it; a closing bracket has the depth it returns to. */
  depth: number
  /** The bracket's own character, for `open` and `close`. */
  bracket?: string
}

export type LexedSql = {
  bytes: Uint8Array
  /** The tokens up to the end, or up to and including the first `unclosed` or `unrecognized` one. */
  tokens: SqlToken[]
  text: (token: SqlToken) => string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
const isWordChar = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f
const isAsciiSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d)
const code = (char: string) => char.charCodeAt(0)

/**
 * The end of the whitespace at `at` (the engine's ASCII set plus U+0085, U+00A0, U+180E,
 * U+2000–200D, U+2028–2029, U+202F, U+205F, U+2060, U+3000 and U+FEFF), `at` itself when there is none.
 */
function skipSpace(b: Uint8Array, at: number): number {
  let p = at
  const n = b.length
  while (p < n) {
    if (isAsciiSpace(b[p]!)) p++
    else if (p + 1 < n && b[p] === 0xc2 && (b[p + 1] === 0x85 || b[p + 1] === 0xa0)) p += 2
    else if (
      p + 2 < n &&
      ((b[p] === 0xe1 && b[p + 1] === 0xa0 && b[p + 2] === 0x8e) ||
        (b[p] === 0xe2 &&
          b[p + 1] === 0x80 &&
          ((b[p + 2]! >= 0x80 && b[p + 2]! <= 0x8d) || b[p + 2] === 0xa8 || b[p + 2] === 0xa9 || b[p + 2] === 0xaf)) ||
        (b[p] === 0xe2 && b[p + 1] === 0x81 && (b[p + 2] === 0x9f || b[p + 2] === 0xa0)) ||
        (b[p] === 0xe3 && b[p + 1] === 0x80 && b[p + 2] === 0x80) ||
        (b[p] === 0xef && b[p + 1] === 0xbb && b[p + 2] === 0xbf))
    )
      p += 3
    else break
  }
  return p
}

function indexOfBytes(b: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= b.length; i++) {
    for (let j = 0; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

/** Splits `sql` into the engine's tokens, stopping at the first one the engine would refuse. */
export function lexSql(sql: string): LexedSql {
  const b = encoder.encode(sql)
  const n = b.length
  const tokens: SqlToken[] = []
  let depth = 0
  let p = 0
  let prev: SqlToken | undefined
  // a '_' between two digits of a number (1_000); never the first of a part
  const isSeparator = (isPartStart: boolean, isHexNumber: boolean, at: number) =>
    b[at] === 0x5f && !isPartStart && at + 1 < n && (isHexNumber ? isHex(b[at + 1]!) : isDigit(b[at + 1]!))
  const digitsFrom = (at: number, isHexNumber: boolean, isPartStart: boolean) => {
    let q = at
    let isStart = isPartStart
    while (q < n && ((isHexNumber ? isHex(b[q]!) : isDigit(b[q]!)) || isSeparator(isStart, isHexNumber, q))) {
      q++
      isStart = false
    }
    return q
  }
  // the exponent of a number at `at` (e or p, a sign, digits), when there is one
  const exponentFrom = (at: number, letters: string) => {
    let q = at
    if (q + 1 < n && letters.includes(String.fromCharCode(b[q]!))) {
      q++
      if (q + 1 < n && (b[q] === code('-') || b[q] === code('+'))) q++
      q = digitsFrom(q, false, true)
    }
    return q
  }
  const lineEnd = (at: number) => {
    const newline = b.indexOf(0x0a, at)
    return newline < 0 ? n : newline
  }

  while (p < n) {
    const start = p
    const c = b[p]!
    let type: SqlTokenType | null = null
    let bracket: string | undefined
    if (isAsciiSpace(c)) {
      p = skipSpace(b, p)
      continue
    } else if (isDigit(c)) {
      if (prev?.type === 'dot') {
        p = digitsFrom(p + 1, false, false)
      } else {
        let isHexNumber = false
        let isPartStart = false
        const x = b[p + 1]
        if (
          p + 2 < n &&
          c === code('0') &&
          (x === code('x') || x === code('X') || x === code('b') || x === code('B'))
        ) {
          const isValid =
            x === code('x') || x === code('X') ? isHex(b[p + 2]!) : b[p + 2] === code('0') || b[p + 2] === code('1')
          isHexNumber = isValid && (x === code('x') || x === code('X'))
          if (isValid) {
            p += 2
            isPartStart = true
          } else p++
        } else p++
        p = digitsFrom(p, isHexNumber, isPartStart)
        if (p < n && b[p] === code('.')) p = digitsFrom(p + 1, isHexNumber, true)
        p = exponentFrom(p, isHexNumber ? 'pP' : 'eE')
      }
      type = 'number'
      if (p < n && isWordChar(b[p]!)) {
        while (p < n && isWordChar(b[p]!)) p++
        type = 'word'
        for (let i = start; i < p; i++) if (!isWordChar(b[i]!) && b[i] !== code('$')) type = 'unrecognized'
      }
    } else if (c === code("'") || c === code('"') || c === code('`')) {
      type = c === code("'") ? 'string' : 'quoted'
      p++
      for (;;) {
        while (p < n && b[p] !== c && b[p] !== code('\\')) p++
        if (p >= n) {
          type = 'unclosed'
          break
        }
        if (b[p] === c) {
          p++
          if (p < n && b[p] === c) {
            p++
            continue
          }
          break
        }
        p++
        if (p >= n) {
          type = 'unclosed'
          break
        }
        p++
      }
    } else if ('([{'.includes(String.fromCharCode(c))) {
      type = 'open'
      bracket = String.fromCharCode(c)
      p++
    } else if (')]}'.includes(String.fromCharCode(c))) {
      type = 'close'
      bracket = String.fromCharCode(c)
      p++
    } else if (c === code(',')) {
      type = 'comma'
      p++
    } else if (c === code(';')) {
      type = 'semicolon'
      p++
    } else if (c === code('.')) {
      const isAfterName =
        prev !== undefined &&
        ((prev.type === 'close' && prev.bracket !== '}') ||
          prev.type === 'word' ||
          prev.type === 'quoted' ||
          prev.type === 'number')
      if (p > 0 && (!(p + 1 < n && isDigit(b[p + 1]!)) || isAfterName)) {
        type = 'dot'
        p++
      } else {
        p = exponentFrom(digitsFrom(p + 1, false, true), 'eE')
        type = 'number'
      }
    } else if (c === code('-')) {
      if (b[p + 1] === code('-')) {
        p = lineEnd(p + 2)
        continue
      }
      p += b[p + 1] === code('>') ? 2 : 1
      type = 'operator'
    } else if (c === code('/')) {
      if (b[p + 1] === code('/')) {
        p = lineEnd(p + 2)
        continue
      }
      if (b[p + 1] === code('*')) {
        // block comments nest, as the SQL standard has them
        p += 2
        let level = 1
        while (p + 2 <= n && level > 0) {
          if (b[p] === code('/') && b[p + 1] === code('*')) {
            p += 2
            level++
          } else if (b[p] === code('*') && b[p + 1] === code('/')) {
            p += 2
            level--
          } else p++
        }
        if (level === 0) continue
        p = n
        type = 'unclosed'
      } else {
        p++
        type = 'operator'
      }
    } else if (c === code('#')) {
      // a comment only when a space or ! follows (#hello is not one; # hello and #!shebang are)
      if (p + 1 < n && (b[p + 1] === code(' ') || b[p + 1] === code('!'))) {
        p = lineEnd(p + 1)
        continue
      }
      p++
      type = 'unrecognized'
    } else if (c === code('=')) {
      p += b[p + 1] === code('=') ? 2 : 1
      type = 'equals'
    } else if (c === code('!')) {
      type = b[p + 1] === code('=') ? 'operator' : 'unrecognized'
      p += type === 'operator' ? 2 : 1
    } else if (c === code('<')) {
      p +=
        b[p + 1] === code('=') && b[p + 2] === code('>') ? 3 : b[p + 1] === code('=') || b[p + 1] === code('>') ? 2 : 1
      type = 'operator'
    } else if (c === code('>') || c === code(':') || c === code('|') || c === code('@')) {
      const twice = c === code('>') ? code('=') : c
      p += b[p + 1] === twice ? 2 : 1
      type = 'operator'
    } else if ('+*%?^'.includes(String.fromCharCode(c))) {
      p++
      type = 'operator'
    } else if (c === code('\\')) {
      type = b[p + 1] === code('G') ? 'operator' : 'unrecognized'
      p += type === 'operator' ? 2 : 1
    } else if (c === 0xe2 && p + 3 <= n && b[p + 1] === 0x88 && b[p + 2] === 0x92) {
      // U+2212, the minus sign
      p += 3
      type = 'operator'
    } else if (c === 0xe2 && p + 5 < n && b[p + 1] === 0x80 && (b[p + 2] === 0x98 || b[p + 2] === 0x9c)) {
      // ‘string’ and “name”: no escapes, the closing quote ends it
      const close = b[p + 2]! + 1
      type = b[p + 2] === 0x98 ? 'string' : 'quoted'
      p += 3
      for (;;) {
        const next = b.indexOf(0xe2, p)
        p = next < 0 ? n : next
        if (p + 2 >= n) {
          p = n
          type = 'unclosed'
          break
        }
        if (b[p + 1] === 0x80 && b[p + 2] === close) {
          p += 3
          break
        }
        p++
      }
    } else {
      if (c === code('$')) {
        // $$…$$ and $tag$…$tag$: the tag runs to the next $, the text to the same tag again
        const tagEnd = b.indexOf(code('$'), p + 1)
        if (tagEnd >= 0) {
          const tag = b.subarray(p, tagEnd + 1)
          const closing = indexOfBytes(b, tag, tagEnd + 1)
          if (closing >= 0) type = 'heredoc'
          if (closing >= 0) p = closing + tag.length
        }
        if (!type && (p + 1 === n || !isWordChar(b[p + 1]!))) {
          p++
          type = 'operator'
        }
      }
      if (type) {
        // a here document or a lone $
      } else if (
        p + 2 < n &&
        b[p + 1] === code("'") &&
        (c === code('x') || c === code('X') || c === code('b') || c === code('B'))
      ) {
        const isHexString = c === code('x') || c === code('X')
        p += 2
        while (p < n && (isHexString ? isHex(b[p]!) : b[p] === code('0') || b[p] === code('1'))) p++
        if (p < n && b[p] === code("'")) {
          p++
          type = 'string'
        } else {
          p = n
          type = 'unclosed'
        }
      } else if (isWordChar(c) || c === code('$')) {
        p++
        while (p < n && (isWordChar(b[p]!) || b[p] === code('$'))) p++
        type = 'word'
      } else {
        const after = skipSpace(b, p)
        if (after > p) {
          p = after
          continue
        }
        p++
        type = 'unrecognized'
      }
    }
    if (type === 'close') depth = Math.max(0, depth - 1)
    const token: SqlToken = { type, start, end: p, depth, ...(bracket ? { bracket } : {}) }
    if (type === 'open') depth++
    tokens.push(token)
    prev = token
    if (type === 'unclosed' || type === 'unrecognized') break
  }
  return { bytes: b, tokens, text: (token) => decoder.decode(b.subarray(token.start, token.end)) }
}

/** First words of a statement that only reads (WITH only when its main statement is a SELECT). */
const READING = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'EXISTS'])

/** First words of the ClickHouse statements that change data, the schema, access or the server. */
const CHANGING = new Set([
  'ALTER',
  'ATTACH',
  'BACKUP',
  'BEGIN',
  'CHECK',
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
  'UPSERT',
  'USE',
  'WATCH',
])

/** Why the console cannot tell what a statement does. */
export type StatementDoubt = 'unclosed' | 'unrecognized' | 'several' | 'unknown'

export type StatementReading = {
  /**
   * `read`: one statement that only reads; `change`: one statement that changes something;
   * `unsure`: the console cannot tell (see `doubt`), so it is treated as a change; `empty`: no
   * statement at all (only comments), which the engine refuses as empty.
   */
  kind: 'read' | 'change' | 'unsure' | 'empty'
  /** The first word, upper case ('' when the statement starts with something else). */
  keyword: string
  doubt: StatementDoubt | null
  /** One whole statement the engine can lex: `EXPLAIN` of it explains, and runs nothing else. */
  isOneStatement: boolean
}

const isWordToken = (lexed: LexedSql, token: SqlToken | undefined, word: string) =>
  token?.type === 'word' && lexed.text(token).toUpperCase() === word

/**
 * Whether a `WITH …` statement whose WITH is token `at` is a SELECT: a SELECT at WITH's depth and
 * no word of a changing statement there (`WITH 1 AS a INSERT INTO t SELECT a` inserts). A name
 * (after AS or a dot, before AS or a dot) and a function (before a bracket) are not such words; any
 * other `insert`, `update`, `start`... makes the statement unsure, as the console cannot tell.
 */
function isWithSelect(lexed: LexedSql, tokens: SqlToken[], at: number): boolean {
  const depth = tokens[at]!.depth
  let hasSelect = false
  for (let index = at + 1; index < tokens.length; index++) {
    const token = tokens[index]!
    if (token.depth !== depth || token.type !== 'word') continue
    const before = tokens[index - 1]
    const after = tokens[index + 1]
    if (isWordToken(lexed, before, 'AS') || before?.type === 'dot') continue
    if (isWordToken(lexed, after, 'AS') || after?.type === 'dot') continue
    const word = lexed.text(token).toUpperCase()
    if (word === 'SELECT') hasSelect = true
    else if (CHANGING.has(word) && after?.type !== 'open') return false
  }
  return hasSelect
}

/**
 * Reads `sql` as the engine would: comments (`--`, `//`, `# `, block comments, which nest), strings with their
 * escapes, quoted names, here documents and opening brackets skipped. Fails closed: an unclosed
 * comment or string, a character the engine does not lex, several statements (`;` or
 * `PARALLEL WITH`), or a first word that is neither a read nor a known change is `unsure`.
 */
export function readStatement(sql: string): StatementReading {
  const lexed = lexSql(sql)
  const { tokens } = lexed
  const last = tokens[tokens.length - 1]
  const first = tokens.findIndex((token) => token.type !== 'open')
  const keyword = first >= 0 && tokens[first]!.type === 'word' ? lexed.text(tokens[first]!).toUpperCase() : ''
  const unsure = (doubt: StatementDoubt): StatementReading => ({
    kind: 'unsure',
    keyword,
    doubt,
    isOneStatement: doubt === 'unknown',
  })
  if (last?.type === 'unclosed') return unsure('unclosed')
  if (last?.type === 'unrecognized') return unsure('unrecognized')
  const semicolon = tokens.findIndex((token) => token.type === 'semicolon')
  const body = semicolon < 0 ? tokens : tokens.slice(0, semicolon)
  const isSeveral =
    (semicolon >= 0 && semicolon < tokens.length - 1) ||
    body.some((token, index) => isWordToken(lexed, token, 'PARALLEL') && isWordToken(lexed, body[index + 1], 'WITH'))
  if (isSeveral) return { ...unsure('several'), isOneStatement: false }
  if (!body.length) return { kind: 'empty', keyword: '', doubt: null, isOneStatement: false }
  if (!keyword) return unsure('unknown')
  if (READING.has(keyword)) {
    if (keyword === 'WITH' && !isWithSelect(lexed, body, first)) return unsure('unknown')
    return { kind: 'read', keyword, doubt: null, isOneStatement: true }
  }
  if (CHANGING.has(keyword)) return { kind: 'change', keyword, doubt: null, isOneStatement: true }
  return unsure('unknown')
}

/** Why a statement the console cannot read is not run from a link, in a sentence. */
export function doubtMessage(doubt: StatementDoubt | null): string {
  switch (doubt) {
    case 'unclosed':
      return 'A comment, string or quoted name in this statement is not closed, so the console cannot tell what it does.'
    case 'unrecognized':
      return 'This statement holds a character the engine does not read as SQL, so the console cannot tell what it does.'
    case 'several':
      return 'This text holds more than one statement (a ; or PARALLEL WITH between them), so it may change data.'
    default:
      return 'This statement does not start as a read (SELECT, WITH … SELECT, SHOW, DESCRIBE, EXPLAIN or EXISTS), so it may change data.'
  }
}

/** Settings that choose the answer's format, whatever the request asks for. */
const FORMAT_SETTINGS = new Set(['hdx_query_output_format', 'default_format'])

/**
 * `sql` (a statement that reads) without its own choice of output format: the top-level
 * `FORMAT name` clause and the `hdx_query_output_format` and `default_format` items of its top-level
 * `SETTINGS` clauses (a clause left empty goes too), so the answer comes in the format the console
 * asks for. Text inside strings and comments is never touched. Returns null when the statement
 * does not read, or no longer reads as one statement once cut (the caller refuses it).
 */
export function withoutOutputFormat(sql: string): { sql: string; removed: string[] } | null {
  if (readStatement(sql).kind !== 'read') return null
  const lexed = lexSql(sql)
  const semicolon = lexed.tokens.findIndex((token) => token.type === 'semicolon')
  const tokens = semicolon < 0 ? lexed.tokens : lexed.tokens.slice(0, semicolon)
  const top = tokens.filter((token) => token.depth === 0)
  // byte ranges to replace, with what replaces them
  const cuts: [number, number, string][] = []
  const removed: string[] = []
  const isClauseEnd = (index: number) => {
    const token = top[index]
    return (
      token === undefined ||
      isWordToken(lexed, token, 'SETTINGS') ||
      (isWordToken(lexed, token, 'FORMAT') && ['word', 'quoted'].includes(top[index + 1]?.type ?? ''))
    )
  }
  for (let index = 0; index < top.length; index++) {
    const token = top[index]!
    const before = top[index - 1]
    if (
      isWordToken(lexed, token, 'FORMAT') &&
      !isWordToken(lexed, before, 'AS') &&
      before?.type !== 'dot' &&
      ['word', 'quoted'].includes(top[index + 1]?.type ?? '') &&
      (top[index + 2] === undefined || isWordToken(lexed, top[index + 2], 'SETTINGS'))
    ) {
      cuts.push([token.start, top[index + 1]!.end, ''])
      removed.push(`FORMAT ${lexed.text(top[index + 1]!)}`)
      index++
      continue
    }
    if (!isWordToken(lexed, token, 'SETTINGS') || top[index + 1]?.type !== 'word') continue
    // items: name [= value], where a value runs to the next top-level comma or the clause's end
    const items: { start: number; end: number; name: string }[] = []
    let at = index + 1
    let isItems = true
    while (at < top.length && !isClauseEnd(at)) {
      const name = top[at]!
      if (name.type !== 'word') {
        isItems = false
        break
      }
      let end = at + 1
      if (top[end]?.type === 'equals') {
        // the value's first token is the value whatever it is (`x = format`), then to a comma or the end
        end++
        if (end >= top.length || top[end]!.type === 'comma') {
          isItems = false
          break
        }
        end++
        while (end < top.length && top[end]!.type !== 'comma' && !isClauseEnd(end)) end++
      } else if (end < top.length && top[end]!.type !== 'comma' && !isClauseEnd(end)) {
        isItems = false
        break
      }
      items.push({ start: at, end, name: lexed.text(name) })
      at = top[end]?.type === 'comma' ? end + 1 : end
    }
    if (!isItems || !items.length) continue
    const dropped = items.filter((item) => FORMAT_SETTINGS.has(item.name.toLowerCase()))
    const lastEnd = top[items[items.length - 1]!.end - 1]!.end
    if (dropped.length === items.length) cuts.push([token.start, lastEnd, ''])
    else if (dropped.length) {
      // the items kept, as written, in their order
      const kept = items.filter((item) => !dropped.includes(item))
      const text = kept.map((item) =>
        decoder.decode(lexed.bytes.subarray(top[item.start]!.start, top[item.end - 1]!.end)),
      )
      cuts.push([top[items[0]!.start]!.start, lastEnd, text.join(', ')])
    }
    for (const item of dropped) removed.push(`SETTINGS ${item.name}`)
    index = at - 1
  }
  if (!cuts.length) return { sql, removed }
  const kept: Uint8Array[] = []
  let from = 0
  for (const [start, end, replacement] of cuts.sort((a, b) => a[0] - b[0])) {
    kept.push(lexed.bytes.subarray(from, start), encoder.encode(replacement || ' '))
    from = end
  }
  kept.push(lexed.bytes.subarray(from))
  const joined = new Uint8Array(kept.reduce((total, part) => total + part.length, 0))
  kept.reduce((offset, part) => (joined.set(part, offset), offset + part.length), 0)
  const cut = decoder.decode(joined)
  const reading = readStatement(cut)
  return reading.kind === 'read' && reading.isOneStatement ? { sql: cut, removed } : null
}
