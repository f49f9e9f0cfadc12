/**
 * Just enough SQL scanning for the query API: top-level `SETTINGS` and `FORMAT` clauses, the first
 * keyword, and `ALTER TABLE ... UPDATE|DELETE` statements. Strings, quoted identifiers, comments
 * and parentheses are respected; everything else is the engine's to parse.
 */

export interface Token {
  text: string
  start: number
  end: number
  depth: number
  kind: 'word' | 'string' | 'quoted' | 'punct' | 'number'
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = []
  let depth = 0
  let i = 0
  while (i < sql.length) {
    const c = sql[i]
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i)
      i = nl < 0 ? sql.length : nl + 1
      continue
    }
    if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2)
      i = close < 0 ? sql.length : close + 2
      continue
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1
      while (j < sql.length) {
        if (sql[j] === '\\') {
          j += 2
          continue
        }
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            j += 2
            continue
          }
          break
        }
        j++
      }
      tokens.push({
        text: sql.slice(i, j + 1),
        start: i,
        end: Math.min(j + 1, sql.length),
        depth,
        kind: c === "'" ? 'string' : 'quoted',
      })
      i = j + 1
      continue
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j])) j++
      tokens.push({ text: sql.slice(i, j), start: i, end: j, depth, kind: 'word' })
      i = j
      continue
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1
      while (j < sql.length && /[0-9.eE+\-xXa-fA-F_]/.test(sql[j])) {
        if ((sql[j] === '+' || sql[j] === '-') && !/[eE]/.test(sql[j - 1])) break
        j++
      }
      tokens.push({ text: sql.slice(i, j), start: i, end: j, depth, kind: 'number' })
      i = j
      continue
    }
    if (c === '(' || c === '[') {
      tokens.push({ text: c, start: i, end: i + 1, depth, kind: 'punct' })
      depth++
      i++
      continue
    }
    if (c === ')' || c === ']') {
      depth = Math.max(0, depth - 1)
      tokens.push({ text: c, start: i, end: i + 1, depth, kind: 'punct' })
      i++
      continue
    }
    tokens.push({ text: c, start: i, end: i + 1, depth, kind: 'punct' })
    i++
  }
  return tokens
}

export type SettingValue = string | number | boolean

export interface SplitQuery {
  /** The statement without its top-level SETTINGS/FORMAT clauses and trailing semicolons. */
  body: string
  settings: Record<string, SettingValue>
  format?: string
  firstWord: string
  /** More than one statement (a top-level `;` before the end). */
  multi: boolean
  /** Table functions that reach outside the engine (files, URLs, other servers, programs). */
  outsideFunctions: string[]
}

const OUTSIDE = new Set([
  'file',
  'filecluster',
  'url',
  'urlcluster',
  's3',
  's3cluster',
  'gcs',
  'oss',
  'cosn',
  'azureblobstorage',
  'azureblobstoragecluster',
  'hdfs',
  'hdfscluster',
  'remote',
  'remotesecure',
  'cluster',
  'clusterallreplicas',
  'mysql',
  'postgresql',
  'mongodb',
  'redis',
  'sqlite',
  'jdbc',
  'odbc',
  'executable',
  'iceberg',
  'icebergs3',
  'icebergazure',
  'iceberghdfs',
  'icebergs3cluster',
  'deltalake',
  'deltalakecluster',
  'hudi',
  'hudicluster',
  'arrowflight',
  'ytsaurus',
  'paimon',
  'paimons3',
])

function unquote(token: Token): SettingValue {
  if (token.kind === 'string') return token.text.slice(1, -1).replace(/''/g, "'").replace(/\\(.)/g, '$1')
  if (token.kind === 'number') return Number(token.text)
  if (/^true$/i.test(token.text)) return true
  if (/^false$/i.test(token.text)) return false
  return token.text
}

/** Splits off the statement's trailing `SETTINGS k=v, ...` and `FORMAT name` (either order). */
export function splitQuery(sql: string): SplitQuery {
  let text = sql.trim()
  while (text.endsWith(';')) text = text.slice(0, -1).trimEnd()
  const tokens = tokenize(text)
  const settings: Record<string, SettingValue> = {}
  let format: string | undefined
  const cut: [number, number][] = []
  const top = tokens.filter((t) => t.depth === 0)

  // FORMAT <name> as the last clause, or followed only by a SETTINGS clause
  for (let k = top.length - 2; k >= 0; k--) {
    const t = top[k]
    if (t.kind === 'word' && /^format$/i.test(t.text) && (top[k + 1].kind === 'word' || top[k + 1].kind === 'quoted')) {
      const rest = top.slice(k + 2)
      if (rest.length === 0 || (rest[0].kind === 'word' && /^settings$/i.test(rest[0].text))) {
        format = top[k + 1].kind === 'quoted' ? top[k + 1].text.slice(1, -1) : top[k + 1].text
        cut.push([t.start, top[k + 1].end])
        break
      }
    }
  }
  // SETTINGS a = 1, b = 'x' at top level, running to FORMAT or the end
  for (let k = top.length - 1; k >= 0; k--) {
    const t = top[k]
    if (!(t.kind === 'word' && /^settings$/i.test(t.text))) continue
    let j = k + 1
    const found: Record<string, SettingValue> = {}
    let end = t.end
    let ok = false
    while (j + 2 < top.length + 0 || j + 2 === top.length) {
      const name = top[j]
      const eq = top[j + 1]
      const value = top[j + 2]
      if (!name || !eq || !value || name.kind !== 'word' || eq.text !== '=') break
      if (value.kind === 'punct' && value.text === '-' && top[j + 3]?.kind === 'number') {
        found[name.text] = -Number(top[j + 3].text)
        end = top[j + 3].end
        j += 4
      } else {
        found[name.text] = unquote(value)
        end = value.end
        j += 3
      }
      ok = true
      if (top[j]?.text === ',') {
        j++
        continue
      }
      break
    }
    const next = top[j]
    if (ok && (!next || (next.kind === 'word' && /^format$/i.test(next.text)))) {
      Object.assign(settings, found)
      cut.push([t.start, end])
    }
    break
  }
  let body = text
  for (const [a, b] of cut.sort((x, y) => y[0] - x[0])) body = body.slice(0, a) + body.slice(b)
  body = body.trim()
  const first = tokens.find((t) => t.kind === 'word' || t.text === '(')
  const multi = tokens.some((t) => t.kind === 'punct' && t.text === ';')
  const outsideFunctions = tokens
    .filter((t, i) => t.kind === 'word' && tokens[i + 1]?.text === '(' && OUTSIDE.has(t.text.toLowerCase()))
    .map((t) => t.text)
  return { body, settings, format, firstWord: first ? first.text.toUpperCase() : '', multi, outsideFunctions }
}

/** `name = value` for a SETTINGS clause. */
export function renderSetting(name: string, value: SettingValue): string {
  if (typeof value === 'number') return `${name} = ${value}`
  if (typeof value === 'boolean') return `${name} = ${value ? 1 : 0}`
  if (/^-?\d+(\.\d+)?$/.test(value)) return `${name} = ${value}`
  return `${name} = '${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

export interface AlterStatement {
  table: string
  kind: 'update' | 'delete'
  /** `a = 1, b = 'x'` for updates. */
  assignments: string
  where: string
}

/** `ALTER TABLE p.t UPDATE ... WHERE ...` / `ALTER TABLE p.t DELETE WHERE ...` (and `DELETE FROM p.t WHERE`). */
export function parseAlter(sql: string): AlterStatement | null {
  const text = sql.trim().replace(/;\s*$/, '')
  const m =
    /^ALTER\s+TABLE\s+((?:`[^`]+`|"[^"]+"|[\w-]+)\s*\.\s*(?:`[^`]+`|"[^"]+"|[\w-]+))\s+(UPDATE|DELETE)\s+([\s\S]*)$/i.exec(
      text,
    )
  let table: string
  let kind: 'update' | 'delete'
  let rest: string
  if (m) {
    table = m[1].replace(/\s+/g, '')
    kind = m[2].toLowerCase() as 'update' | 'delete'
    rest = m[3]
  } else {
    const d =
      /^DELETE\s+FROM\s+((?:`[^`]+`|"[^"]+"|[\w-]+)\s*\.\s*(?:`[^`]+`|"[^"]+"|[\w-]+))\s+(WHERE\s+[\s\S]*)$/i.exec(text)
    if (!d) return null
    table = d[1].replace(/\s+/g, '')
    kind = 'delete'
    rest = d[2]
  }
  // find the top-level WHERE
  const tokens = tokenize(rest)
  const where = tokens.find((t) => t.depth === 0 && t.kind === 'word' && /^where$/i.test(t.text))
  if (!where) return { table, kind, assignments: kind === 'update' ? rest.trim() : '', where: '' }
  return { table, kind, assignments: rest.slice(0, where.start).trim(), where: rest.slice(where.end).trim() }
}

const WRITE_WORDS = new Set([
  'INSERT',
  'CREATE',
  'DROP',
  'ALTER',
  'TRUNCATE',
  'RENAME',
  'ATTACH',
  'DETACH',
  'OPTIMIZE',
  'SYSTEM',
  'KILL',
  'SET',
  'GRANT',
  'REVOKE',
  'USE',
  'DELETE',
  'UPDATE',
  'EXCHANGE',
  'UNDROP',
  'BACKUP',
  'RESTORE',
  'MOVE',
  'REPLACE',
  'UNDROP',
])

/**
 * Whether the statement writes (the query API is read-only, as a real cluster's). Anything else
 * goes to the engine, which runs it with readonly=2 and reports syntax errors itself.
 */
export function isWriteStatement(firstWord: string): boolean {
  return WRITE_WORDS.has(firstWord)
}
