import { describe, expect, it } from 'vitest'
import { parsePrimaryKey, parseSchemaDefinition } from './dictionary'
import { formatProblem } from './file'
import { argumentLiteral, lambdaParameters } from './function'

describe('lambdaParameters', () => {
  it('names the parameters of a lambda, with or without parentheses, and none for anything else', () => {
    expect(lambdaParameters('(x, k, b) -> k*x + b')).toEqual(['x', 'k', 'b'])
    expect(lambdaParameters(' x -> x + 1')).toEqual(['x'])
    expect(lambdaParameters('() -> 42')).toEqual([])
    expect(lambdaParameters('plus(1, 2)')).toEqual([])
  })
})

describe('argumentLiteral', () => {
  it('makes typed literals and refuses what is not one', () => {
    expect(argumentLiteral(' 1.5e3 ', 'number')).toEqual({ literal: '1.5e3' })
    expect(argumentLiteral('1; DROP TABLE x', 'number')).toEqual({ error: 'Not a number' })
    expect(argumentLiteral("it's \\ here", 'string')).toEqual({ literal: "'it\\'s \\\\ here'" })
    expect(argumentLiteral('TRUE', 'boolean')).toEqual({ literal: 'true' })
    expect(argumentLiteral('yes', 'boolean')).toEqual({ error: 'Type true or false' })
    expect(argumentLiteral('anything', 'null')).toEqual({ literal: 'NULL' })
  })
})

describe('dictionary JSON fields', () => {
  it("reads the cluster's column list or the short map, and refuses other shapes", () => {
    const columns = [{ name: 'id', datatype: { type: 'uint64' } }]
    expect(parseSchemaDefinition(JSON.stringify(columns))).toEqual(columns)
    expect(parseSchemaDefinition('{"id": "uint64", "name": "string"}')).toEqual([
      ...columns,
      { name: 'name', datatype: { type: 'string' } },
    ])
    for (const bad of ['[]', '{}', '[{"name": "id"}]', '{"id": 1}', 'nope'])
      expect(parseSchemaDefinition(bad)).toBeUndefined()
    expect(parsePrimaryKey('["a", "b"]')).toEqual(['a', 'b'])
    expect(parsePrimaryKey('"a"')).toEqual(['a'])
    for (const bad of ['[]', '[1]', '{"a": 1}', '["a", ""]', 'a']) expect(parsePrimaryKey(bad)).toBeUndefined()
  })
})

describe('formatProblem', () => {
  const bytes = (text: string) => new TextEncoder().encode(text)
  it('accepts bytes that match the extension', () => {
    expect(formatProblem('a.csv', bytes('id,name\n1,a\n'))).toBeUndefined()
    expect(formatProblem('a.JSON', bytes('\uFEFF  [{"id": 1}]'))).toBeUndefined()
    expect(formatProblem('a.ndjson', bytes('{"id": 1}\n{"id": 2}\n'))).toBeUndefined()
    expect(formatProblem('a.parquet', bytes('PAR1....'))).toBeUndefined()
  })
  it('says what is wrong otherwise', () => {
    expect(formatProblem('a.csv', new Uint8Array([1, 0, 2]))).toBe('The file is not CSV: it holds binary data')
    expect(formatProblem('a.json', bytes('id,name'))).toBe('The file is not JSON: it starts with “id,name”')
    expect(formatProblem('a.parquet', bytes('id,name'))).toBe('The file is not Parquet: it does not start with PAR1')
    expect(formatProblem('a.exe', bytes('MZ'))).toMatch(/^Upload a \.csv, .*\(this one is \.exe\)$/)
    expect(formatProblem('README', bytes('x'))).toMatch(/this one is without an extension/)
  })
})
