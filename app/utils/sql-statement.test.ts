import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isChangingStatement } from './sql'
import { readStatement, withoutOutputFormat } from './sql-statement'

/** Whitespace the engine skips, ASCII and Unicode (a query pasted from a word processor). */
const SPACES = [' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2003', '\u3000', '\ufeff']

/** Text for inside a comment: the characters that could end or start something, and words. */
const commentText = fc
  .array(fc.constantFrom('x', ' ', "'", '"', '`', ';', '--', '#', '$$', 'ALTER', 'SELECT', '/', '*', '(', ')', '‘'), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''))
  // a block comment's text never holds /* or */ of its own (a nested one is generated whole)
  .filter((text) => !text.includes('/*') && !text.includes('*/') && !text.endsWith('/') && !text.startsWith('*'))

/** One closed comment, as the engine reads them: --, //, "# ", #!, and block comments that nest. */
const comment = fc.oneof(
  commentText.map((text) => `--${text}\n`),
  commentText.map((text) => `//${text}\n`),
  commentText.map((text) => `# ${text}\n`),
  commentText.map((text) => `#!${text}\n`),
  commentText.map((text) => `/*${text}*/`),
  fc.tuple(commentText, commentText, commentText).map(([a, b, c]) => `/* ${a} /* ${b} */ ${c} */`),
)

/** What may come before or after a statement: whitespace and comments, in any number. */
const filler = fc.array(fc.oneof(fc.constantFrom(...SPACES), comment), { maxLength: 5 }).map((parts) => parts.join(''))

const READS = [
  'SELECT 1',
  "SELECT 'a;b', 'it''s', 'it\\'s; --' AS x",
  'select count() from sample.web_logs',
  'SHOW TABLES',
  'DESCRIBE sample.web_logs',
  'DESC sample.web_logs',
  'EXPLAIN SELECT 1',
  'EXPLAIN ALTER TABLE t DELETE WHERE 1',
  'EXISTS TABLE sample.web_logs',
  'WITH x AS (SELECT 1) SELECT * FROM x ORDER BY 1 DESC',
  'WITH 1 AS select SELECT select',
  '(SELECT 1) UNION ALL (SELECT 2)',
  'SELECT $$; DROP TABLE t; --$$ AS heredoc',
  'SELECT $tag$; DROP TABLE t$tag$',
  'SELECT ‘a; DROP TABLE t’',
  'SELECT "a;b" FROM t',
  'SELECT `a``;b` FROM t',
  'SELECT t.1e--5; DROP TABLE t',
  "SELECT x'3b', b'00111011'",
]

const WRITES = [
  'ALTER TABLE sample.web_logs DELETE WHERE status = 999',
  'INSERT INTO t VALUES (1)',
  'DROP TABLE t',
  'TRUNCATE TABLE t',
  'CREATE TABLE t (x UInt8) ENGINE = Memory',
  'RENAME TABLE a TO b',
  'DELETE FROM t WHERE 1',
  'UPDATE t SET x = 1 WHERE 1',
  'OPTIMIZE TABLE t FINAL',
  'SYSTEM FLUSH LOGS',
  'KILL QUERY WHERE 1',
  'GRANT SELECT ON *.* TO u',
  'REVOKE SELECT ON *.* FROM u',
  'SET max_threads = 1',
  'ATTACH TABLE t',
  'DETACH TABLE t',
  'EXCHANGE TABLES a AND b',
  'UNDROP TABLE t',
  'WITH 1 AS a INSERT INTO t SELECT a',
  'WITH select AS (SELECT 1) INSERT INTO t SELECT * FROM select',
]

/** The case of each letter at random: the engine's keywords are case-insensitive. */
const anyCase = (sql: string) =>
  fc
    .array(fc.boolean(), { minLength: sql.length, maxLength: sql.length })
    .map((upper) => [...sql].map((char, index) => (upper[index] ? char.toUpperCase() : char.toLowerCase())).join(''))

describe('readStatement (decision 095: read as the engine reads, fail closed)', () => {
  it("sees the write behind the attacker's comments, which the old check took for a read", () => {
    for (const sql of [
      '-- /*\nALTER TABLE sample.web_logs DELETE WHERE status = 999',
      '# /*\nDROP TABLE t',
      '// /*\nDROP TABLE t',
      '/* /* */ SELECT 1 */ ALTER TABLE t DELETE WHERE 1',
      '/* -- */ INSERT INTO t VALUES (1)',
      '((ALTER TABLE t DELETE WHERE 1))',
      '\u00a0\u3000ALTER TABLE t DELETE WHERE 1',
    ]) {
      expect(readStatement(sql), sql).toMatchObject({ kind: 'change' })
      expect(isChangingStatement(sql), sql).toBe(true)
    }
  })

  it('is unsure, so asks to confirm, when the engine could read it otherwise', () => {
    const cases: [string, string][] = [
      ['SELECT 1 /* /* */ ; DROP TABLE t', 'unclosed'],
      ["SELECT 'unclosed; DROP TABLE t", 'unclosed'],
      ['/* nested /* */ ALTER TABLE t DELETE WHERE 1', 'unclosed'],
      ['#c\nSELECT 1', 'unrecognized'],
      ['SELECT 1; DROP TABLE t', 'several'],
      // the engine's number is 1e- then -5: the ; is code, not a comment
      ['SELECT 1e--5; DROP TABLE t', 'several'],
      ['SELECT 1 PARALLEL WITH DROP TABLE t', 'several'],
      ['SHOW TABLES PARALLEL WITH DROP TABLE t', 'several'],
      ['SELEC 1', 'unknown'],
      ['FROM t SELECT x', 'unknown'],
      ["'SELECT' 1", 'unknown'],
      ['WITH 1 AS a SELECT a WHERE update = 1', 'unknown'],
    ]
    for (const [sql, doubt] of cases) {
      expect(readStatement(sql), sql).toMatchObject({ kind: 'unsure', doubt })
      expect(isChangingStatement(sql), sql).toBe(true)
    }
  })

  it('keeps plain reads running from a link', () => {
    for (const sql of READS) expect(readStatement(sql), sql).toMatchObject({ kind: 'read', isOneStatement: true })
    expect(readStatement('-- nothing but a comment')).toMatchObject({ kind: 'empty' })
    expect(readStatement('SELECT 1;  -- done')).toMatchObject({ kind: 'read' })
  })

  it('property: a read wrapped in any comments and whitespace stays a read', () => {
    fc.assert(
      fc.property(fc.constantFrom(...READS), filler, filler, fc.boolean(), (sql, before, after, hasSemicolon) => {
        const wrapped = `${before}${sql}${hasSemicolon ? ';' : ''}${after === '' ? '' : ` ${after}`}`
        expect(readStatement(wrapped).kind).toBe('read')
        expect(isChangingStatement(wrapped)).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it('property: a write after any comments, whitespace and brackets, in any case, is a write', () => {
    const opening = fc
      .array(fc.tuple(filler, fc.constantFrom('(', '')), { maxLength: 4 })
      .map((parts) => parts.map(([text, bracket]) => text + bracket).join(''))
    fc.assert(
      fc.property(
        fc.constantFrom(...WRITES).chain((sql) => anyCase(sql)),
        opening,
        filler,
        (sql, before, after) => {
          const wrapped = `${before}${sql} ${after}`
          expect(readStatement(wrapped).kind).not.toBe('read')
          expect(isChangingStatement(wrapped)).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('property: a read followed by a write (a ; or PARALLEL WITH between) is never a read', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...READS.filter((sql) => !sql.includes('--'))),
        fc.constantFrom(...WRITES),
        filler,
        fc.constantFrom(';', ' PARALLEL WITH ', ' parallel\nwith '),
        (read, write, between, joint) => {
          expect(isChangingStatement(`${read}${joint}${between}${write}`)).toBe(true)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe('withoutOutputFormat (the download asks for its own format)', () => {
  it("cuts the statement's own FORMAT and output-format settings, never text in strings or comments", () => {
    const cases: [string, string][] = [
      ["SELECT '=1+1' AS x FORMAT CSVWithNames", "SELECT '=1+1' AS x  "],
      ["SELECT 1 format `TSV` SETTINGS hdx_query_output_format = 'CSV';", 'SELECT 1    ;'],
      [
        "SELECT 1 SETTINGS max_threads = 1, hdx_query_output_format = 'CSV' FORMAT TSV",
        'SELECT 1 SETTINGS max_threads = 1  ',
      ],
      ["SELECT 1 SETTINGS hdx_query_output_format = 'CSV', max_threads = 1", 'SELECT 1 SETTINGS max_threads = 1'],
      ["SELECT 1 SETTINGS a = 1, default_format = 'TSV', b = map('x', 1)", "SELECT 1 SETTINGS a = 1, b = map('x', 1)"],
      ["SELECT 'FORMAT CSV' /* FORMAT CSV */ -- FORMAT CSV", "SELECT 'FORMAT CSV' /* FORMAT CSV */ -- FORMAT CSV"],
      ['SELECT format FROM t', 'SELECT format FROM t'],
      ['SELECT 1 AS format', 'SELECT 1 AS format'],
      ["SHOW SETTINGS LIKE 'hdx_query_output_format'", "SHOW SETTINGS LIKE 'hdx_query_output_format'"],
    ]
    for (const [sql, cut] of cases) expect(withoutOutputFormat(sql)?.sql, sql).toBe(cut)
    expect(withoutOutputFormat("SELECT 1 FORMAT CSV SETTINGS hdx_query_output_format='TSV'")?.removed).toEqual([
      'FORMAT CSV',
      'SETTINGS hdx_query_output_format',
    ])
    expect(withoutOutputFormat('ALTER TABLE t DELETE WHERE 1')).toBeNull()
  })
})
