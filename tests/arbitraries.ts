import fc from 'fast-check'

/*
 * Generators the round-trip property tests share (issue 32): what other tools store, in the shapes
 * a form must keep as they are.
 */

/** Short text with the characters a form or HTML could mangle: quotes, `<`, `&`, accents, line breaks. */
export const text = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é', '\n'),
  maxLength: 6,
})

/** Any JSON value, a little nested: what an unknown key may hold. */
export const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -100, max: 100 }),
    text,
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('a', 'k'), tie('value'), { maxKeys: 2 }),
  ),
})).value

/** The value, or the key absent. */
export const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })
