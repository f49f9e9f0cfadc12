import { describe, expect, it } from 'vitest'
import { formatBytes, formatNumber, formatRatio } from './format-number'

describe('formatNumber', () => {
  it('groups thousands the same way everywhere and shows a dash for no number', () => {
    expect(formatNumber(1_000_000)).toBe('1,000,000')
    expect(formatNumber(2.5)).toBe('2.5')
    expect(formatNumber(1 / 3, { maximumFractionDigits: 2 })).toBe('0.33')
    expect(formatNumber(undefined)).toBe('—')
    expect(formatNumber(null)).toBe('—')
    expect(formatNumber(Number.NaN)).toBe('—')
  })
})

describe('formatBytes', () => {
  it('uses powers of 1024 with one decimal above bytes', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(323.3 * 1024 * 1024)).toBe('323.3 MB')
    expect(formatBytes(2 * 1024 ** 5)).toBe('2.0 PB')
    expect(formatBytes(-2048)).toBe('-2.0 KB')
  })
  it('shows a dash for no number', () => {
    expect(formatBytes(undefined)).toBe('—')
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('—')
  })
})

describe('formatRatio', () => {
  it('keeps two decimals at most and marks it as a ratio', () => {
    expect(formatRatio(3.6949)).toBe('3.69×')
    expect(formatRatio(4)).toBe('4×')
    expect(formatRatio(null)).toBe('—')
  })
})
