import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { paramNameOf, paramOfMessage, paramValuesOf } from './sql-params'
import { findPlaceholders } from './sql-placeholders'

const NAMES = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/)
const TYPES = fc.constantFrom('UInt16', 'String', 'DateTime', 'Array(String)', 'Nullable(UInt8)', 'Map(String, UInt64)')
const placeholder = fc.tuple(NAMES, TYPES).map(([name, type]) => ({ name, type, text: `{${name}:${type}}` }))

/** Text for inside a string, a quoted name or a comment: nothing that would close it. */
const inner = fc
  .array(fc.constantFrom('x', ' ', '{', '}', ':', 'SELECT', '(', ')', ','), { maxLength: 4 })
  .map((parts) => parts.join(''))

/** A placeholder hidden where the engine does not read code: a string, quoted names, comments, a here document. */
const hidden = fc
  .tuple(placeholder, inner, inner)
  .chain(([p, before, after]) =>
    fc.constantFrom(
      `'${before}${p.text}${after}'`,
      `"${before}${p.text}${after}"`,
      `\`${before}${p.text}${after}\``,
      `-- ${before}${p.text}${after}\n`,
      `# ${before}${p.text}${after}\n`,
      `// ${before}${p.text}${after}\n`,
      `/* ${before}${p.text}${after} */`,
      `/* a /* ${p.text} */ ${p.text} */`,
      `$$${before}${p.text}${after}$$`,
      `‘${p.text}’`,
    ),
  )

describe('findPlaceholders', () => {
  it('finds each {name:Type} once, in order, with its type as written', () => {
    expect(
      findPlaceholders(
        'SELECT count() FROM sample.web_logs WHERE status = {status:UInt16} AND path IN ' +
          '{paths:Array(String)} AND status != {status:UInt16}',
      ),
    ).toEqual([
      { name: 'status', type: 'UInt16' },
      { name: 'paths', type: 'Array(String)' },
    ])
    expect(findPlaceholders('SELECT { d : Map(String,  UInt64) }')).toEqual([
      { name: 'd', type: 'Map(String, UInt64)' },
    ])
    expect(findPlaceholders('SELECT {db:Identifier}.x, {n:Nullable(DateTime64(3))}')).toEqual([
      { name: 'db', type: 'Identifier' },
      { name: 'n', type: 'Nullable(DateTime64(3))' },
    ])
  })

  it('does not take a map literal, a bare brace or a placeholder without a type', () => {
    expect(findPlaceholders("SELECT {'a': 1}, {}, {x}, {x:}, map('k', 1)")).toEqual([])
  })

  it('never finds a placeholder inside a string, a quoted name, a comment or a here document', () => {
    fc.assert(
      fc.property(fc.array(hidden, { minLength: 1, maxLength: 4 }), (parts) => {
        expect(findPlaceholders(`SELECT 1 ${parts.join(' ')}`)).toEqual([])
      }),
      { numRuns: 400 },
    )
  })

  it('finds every placeholder written in code, whatever comments and strings sit around it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(placeholder, hidden), { minLength: 1, maxLength: 4 }), (pairs) => {
        const sql = `SELECT ${pairs.map(([p, noise]) => `${noise} ${p.text}`).join(', ')}`
        const expected: { name: string; type: string }[] = []
        for (const [p] of pairs)
          if (!expected.some((one) => one.name === p.name)) expected.push({ name: p.name, type: p.type })
        expect(findPlaceholders(sql)).toEqual(expected)
      }),
      { numRuns: 400 },
    )
  })

  it('stops where the engine stops: after an unclosed string nothing is code', () => {
    expect(findPlaceholders("SELECT {a:UInt8}, 'unclosed {b:UInt8}")).toEqual([{ name: 'a', type: 'UInt8' }])
  })
})

describe('parameter fields and messages', () => {
  it('reads param_<name> fields as given (not trimmed, empty kept) and nothing else', () => {
    expect(
      paramValuesOf({ param_status: ' 200 ', param_s: '', hdx_query_max_rows: '5', 'param_bad-name': 'x' }),
    ).toEqual({ status: ' 200 ', s: '' })
    expect(paramNameOf('param_9x')).toBeNull()
    expect(paramNameOf('status')).toBeNull()
  })

  it("names the parameter of the engine's messages (as chdb writes them)", () => {
    const names = ['status', 'd']
    expect(
      paramOfMessage(
        'Code: 457. DB::Exception: Value abc cannot be parsed as UInt16 for query parameter ' +
          "'status' because it isn't parsed completely: only 0 of 3 bytes was parsed: . " +
          '(BAD_QUERY_PARAMETER)',
        names,
      ),
    ).toBe('status')
    expect(
      paramOfMessage('Code: 456. DB::Exception: Substitution `d` is not set. (UNKNOWN_QUERY_PARAMETER)', names),
    ).toBe('d')
    expect(paramOfMessage("Code: 47. DB::Exception: Unknown identifier 'status'", names)).toBeNull()
    // a parameter the SQL does not have is not a field's error
    expect(paramOfMessage("value x cannot be parsed as UInt8 for query parameter 'other'", names)).toBeNull()
  })
})
