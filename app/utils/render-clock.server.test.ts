import { describe, expect, it } from 'vitest'
import { asRender, installRenderClockCheck, outsideRender, RenderReadTheClock } from './render-clock.server'

describe('the render clock check (issue 34)', () => {
  it('is off unless asked for', () => {
    expect(installRenderClockCheck(undefined)).toBe(false)
    expect(() => asRender('/off', () => Date.now())).not.toThrow()
  })

  it('refuses Date.now() and new Date() in a render, and in what the render starts', async () => {
    expect(installRenderClockCheck('throw')).toBe(true)
    expect(() => asRender('/page', () => Date.now())).toThrow(RenderReadTheClock)
    expect(() => asRender('/page', () => new Date())).toThrow(/new Date\(\) was read while rendering \/page/)
    // the render's own later work is still the render
    const later = asRender('/page', () => new Promise((resolve) => setTimeout(resolve, 1)).then(() => Date.now()))
    await expect(later).rejects.toThrow(RenderReadTheClock)
  })

  it('lets a render turn a given time into a date, and everything outside a render read the clock', () => {
    installRenderClockCheck('throw')
    expect(asRender('/page', () => new Date(0).toISOString())).toBe('1970-01-01T00:00:00.000Z')
    expect(asRender('/page', () => Date.parse('2026-01-01T00:00:00Z'))).toBe(1767225600000)
    expect(asRender('/page', () => new Date(0) instanceof Date)).toBe(true)
    expect(Date.now()).toBeGreaterThan(0)
    expect(asRender('/page', () => outsideRender(() => Date.now()))).toBeGreaterThan(0)
  })
})
