import { describe, expect, it } from 'vitest'
import { locateEngineError } from './run.server'

describe('locateEngineError', () => {
  it('points at the line and column of the SQL the user wrote', () => {
    const message = 'Code: 47. DB::Exception: Unknown identifier (line 2, col 3): nosuch FROM t. (UNKNOWN_IDENTIFIER)'
    expect(locateEngineError(message, 'SELECT\n  nosuch FROM t')).toEqual({
      message,
      position: { line: 2, column: 3, text: '  nosuch FROM t', isPastEnd: false },
    })
  })

  it('a position past the user’s SQL (in the options the console added) is the end of the query, without the added text', () => {
    const message =
      'Code: 62. DB::Exception: Syntax error: failed at position 52 (=) (line 3, col 26): = ' +
      "10000, result_overflow_mode = 'break'. Expected one of: FINAL, WHERE. (SYNTAX_ERROR)"
    const { message: shown, position } = locateEngineError(message, 'SELECT 1,\n  nonsense FROM')
    expect(position).toEqual({ line: 2, column: 16, text: '  nonsense FROM', isPastEnd: true })
    expect(shown).toBe(
      'Code: 62. DB::Exception: Syntax error: failed at the end of the query (line 2, col 16): ' +
        'end of query. Expected one of: FINAL, WHERE. (SYNTAX_ERROR)',
    )
    expect(shown).not.toMatch(/result_overflow_mode|10000/)
  })

  it('leaves a message without a position alone', () => {
    expect(locateEngineError('Code: 60. Table x does not exist.', 'SELECT * FROM x')).toEqual({
      message: 'Code: 60. Table x does not exist.',
      position: null,
    })
  })
})
