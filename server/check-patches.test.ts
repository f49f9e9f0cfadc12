import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkPatches, readPatches } from '../scripts/check-patches.mjs'

const root = resolve(import.meta.dirname, '..')
type Patch = { name: string; files: Map<string, string[]> }

// The script itself runs against the built server in `npm run test:e2e`; here its two refusals.
describe('check-patches', () => {
  const patches: Patch[] = readPatches(join(root, 'patches'))
  const targets = patches.flatMap((patch) => [...patch.files.keys()].map((file) => join(root, file)))

  it('reads every patch with the lines it adds', () => {
    expect(patches.length).toBeGreaterThan(0)
    for (const patch of patches) expect([...patch.files.values()].flat().length, patch.name).toBeGreaterThan(0)
  })

  it('passes when the patched files are loaded and hold the added lines', () => {
    expect(checkPatches(patches, new Set(targets))).toEqual([])
  })

  it('fails a patch whose files the server does not load', () => {
    const [first] = patches
    const others = new Set(targets.filter((file) => ![...first!.files.keys()].some((own) => file === join(root, own))))
    expect(checkPatches(patches, others)).toEqual([
      expect.stringContaining(`${first!.name}: the built server loads none`),
    ])
  })

  it('fails a patch whose added lines are gone (a new version, or a failed apply)', () => {
    const problems: string[] = checkPatches(patches, new Set(targets), () => '')
    expect(problems).toHaveLength(targets.length)
    expect(problems[0]).toMatch(/lacks \d+ added line/)
  })
})
