import { describe, expect, it, vi } from 'vitest'
import { beforeClose, runBeforeClose } from './before-close.server'

describe('beforeClose', () => {
  it('runs every task when the server stops, a failing one only logged, and stops waiting after the time-out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const done: string[] = []
    beforeClose(async () => void done.push('writes'))
    beforeClose(async () => {
      throw new Error('cluster gone')
    })
    let release = () => {}
    beforeClose(() => new Promise<void>((resolve) => (release = resolve)))
    const started = Date.now()
    await runBeforeClose(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(150)
    expect(done).toEqual(['writes'])
    expect(warn).toHaveBeenCalledWith('Before close: cluster gone')
    release()
    warn.mockRestore()
  })
})
