import { describe, expect, it } from 'vitest'
import { formatDateTime } from './format-date'

describe('formatDateTime', () => {
  it('shows UTC when asked, with the zone name', () => {
    expect(formatDateTime('2026-01-02T03:04:05Z', 'UTC')).toBe('02 Jan 2026, 03:04:05 UTC')
  })
  it('shows a dash for nothing and the raw value for garbage', () => {
    expect(formatDateTime(null)).toBe('—')
    expect(formatDateTime('not a date')).toBe('not a date')
  })
})
