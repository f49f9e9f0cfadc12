import { query } from 'chdb'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lexSql, readStatement, withoutOutputFormat } from './sql-statement'

/**
 * The engine's own parser as the judge (the ClickHouse the local cluster embeds, in this process):
 * formatQuerySingleLine parses a statement as the server does (one statement, no multi-statements)
 * and writes it back in its canonical form, whose first word is the statement's kind.
 */
function engineReading(sql: string): { statement: string } | { error: string } {
  try {
    const literal = `'${sql.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
    return { statement: query(`SELECT formatQuerySingleLine(${literal})`, 'TSVRaw').replace(/\n$/, '') }
  } catch (error) {
    return { error: String(error) }
  }
}

/** Pieces that change how the rest is read: comment, string and here-document marks, numbers, words. */
const PIECES = [
  'SELECT 1',
  'SELECT',
  'WITH 1 AS a',
  'WITH x AS (SELECT 1)',
  ' AS ',
  'select',
  'ALTER TABLE t DELETE WHERE 1',
  'INSERT INTO t SELECT 1',
  'DROP TABLE t',
  'SHOW TABLES',
  ';',
  ' PARALLEL WITH ',
  '--',
  '//',
  '#',
  '# ',
  '/*',
  '*/',
  "'",
  "\\'",
  '"',
  '`',
  '$$',
  '$a$',
  '‘',
  '’',
  '“',
  '”',
  '\n',
  ' ',
  '\u00a0',
  '1e-',
  '-5',
  '.',
  '.5e',
  't',
  '(',
  ')',
  "x'",
  '0x1e',
  '\\',
  ' FORMAT CSV',
  " SETTINGS hdx_query_output_format = 'CSV'",
]

const soup = fc
  .tuple(
    fc.constantFrom('', 'SELECT 1 ', 'SELECT 1 AS x', 'WITH 1 AS a ', '(SELECT ', 'SHOW TABLES '),
    fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 }),
  )
  .map(([start, parts]) => start + parts.join(''))

const READ_WORDS = /^\(*(SELECT|WITH|SHOW|DESCRIBE|EXPLAIN|EXISTS)\b/

describe('readStatement against the engine', () => {
  it('property: whatever the console runs from a link as a read, the engine parses as one read (or refuses)', () => {
    let reads = 0
    let parsed = 0
    fc.assert(
      fc.property(soup, (sql) => {
        if (readStatement(sql).kind !== 'read') return
        reads++
        const engine = engineReading(sql)
        if ('error' in engine) return
        parsed++
        expect(engine.statement, sql).toMatch(READ_WORDS)
        // the canonical form quotes names and strings plainly: its words are the statement's own
        const words = lexSql(engine.statement)
          .tokens.filter((token) => token.type === 'word')
          .map((token) => lexSql(engine.statement).text(token).toUpperCase())
        expect(words.join(' '), sql).not.toMatch(/\bPARALLEL WITH\b/)
      }),
      { numRuns: 5000 },
    )
    // the soup makes reads the engine runs too, not only statements the check or the engine refuses
    expect(reads).toBeGreaterThan(500)
    expect(parsed).toBeGreaterThan(100)
  })

  it("property: a download's statement has no FORMAT clause nor output-format setting left, for the engine", () => {
    const part = fc.constantFrom(' ', '\n', ' /* FORMAT TSV */ ', ' -- FORMAT TSV\n', ' # x\n')
    const statement = fc
      .tuple(
        fc.constantFrom('SELECT 1 AS x', "SELECT 'FORMAT CSV' AS x", '(SELECT 1 AS x)', 'EXPLAIN SELECT 1'),
        fc.option(fc.constantFrom("SETTINGS hdx_query_output_format = 'TSV'", 'SETTINGS max_threads = 1')),
        fc.option(fc.constantFrom('FORMAT CSVWithNames', 'format `TSV`', 'FORMAT "JSONEachRow"')),
        fc.option(
          fc.constantFrom("SETTINGS default_format = 'CSV', max_threads = 2", "SETTINGS hdx_query_output_format='CSV'"),
        ),
        fc.array(part, { minLength: 4, maxLength: 4 }),
        fc.boolean(),
      )
      .map(
        ([base, settings, format, after, [a, b, c, d], hasSemicolon]) =>
          `${base}${a}${settings ?? ''}${b}${format ?? ''}${c}${after ?? ''}${d}${hasSemicolon ? ';' : ''}`,
      )
    fc.assert(
      fc.property(statement, (sql) => {
        const before = engineReading(sql)
        if ('error' in before) return
        const cut = withoutOutputFormat(sql)
        expect(cut, sql).not.toBeNull()
        const after = engineReading(cut!.sql)
        expect(after, cut!.sql).toHaveProperty('statement')
        const text = 'statement' in after ? after.statement : ''
        expect(text).not.toMatch(/ FORMAT \S+$|hdx_query_output_format|default_format/)
        expect(text).toMatch(READ_WORDS)
      }),
      { numRuns: 400 },
    )
  })
})
