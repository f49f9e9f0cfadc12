import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { json } from '#tests/arbitraries'
import { PolicySchema } from './security'
import { parsePolicies } from './security-values'

/** What parsePolicies read with zod before the role form stopped loading it (decision 077). */
function withZod(text: string | undefined) {
  if (!text) return []
  try {
    const parsed = z.array(PolicySchema).safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

const policyLike = fc.record(
  {
    permissions: fc.oneof(fc.array(fc.constantFrom('view_table', 'change_table', '')), json),
    scope_type: fc.oneof(fc.constantFrom(null, 'project', 'table', ''), json),
    scope_id: fc.oneof(fc.constant(null), fc.string(), json),
    extra: json,
  },
  { requiredKeys: [] },
)

describe('parsePolicies', () => {
  it('reads the hidden policies field as z.array(PolicySchema) does, without zod', () => {
    for (const text of [undefined, '', 'x', '{}', '[]', 'null', '[null]', '[[]]', '[{"permissions":[]}]'])
      expect(parsePolicies(text)).toEqual(withZod(text))
    expect(parsePolicies('[{"permissions":["view_table"],"scope_type":null,"scope_id":null,"x":1}]')).toEqual([
      { permissions: ['view_table'], scope_type: null, scope_id: null },
    ])
    fc.assert(
      fc.property(fc.oneof(fc.array(policyLike, { maxLength: 3 }), json), (value) => {
        const text = JSON.stringify(value)
        const parsed = parsePolicies(text)
        expect(parsed).toEqual(withZod(text))
        // the same keys in the same order: the form compares the staged list as JSON text
        expect(JSON.stringify(parsed)).toBe(JSON.stringify(withZod(text)))
      }),
      { numRuns: 500 },
    )
  })
})
