import { describe, expect, it } from 'vitest'
import { zoneLabelledType } from './result-zone'

describe('a result column of date-times', () => {
  it('says its zone, UTC, when its type names none', () => {
    expect(zoneLabelledType('DateTime')).toBe('DateTime UTC')
    expect(zoneLabelledType('DateTime64(3)')).toBe('DateTime64(3) UTC')
    expect(zoneLabelledType('Nullable(DateTime64(3))')).toBe('Nullable(DateTime64(3)) UTC')
  })

  it('leaves a type that names its zone, and other types, as they are', () => {
    expect(zoneLabelledType("DateTime('Europe/Paris')")).toBe("DateTime('Europe/Paris')")
    expect(zoneLabelledType("DateTime64(3, 'UTC')")).toBe("DateTime64(3, 'UTC')")
    expect(zoneLabelledType('Date')).toBe('Date')
    expect(zoneLabelledType('String')).toBe('String')
  })
})
