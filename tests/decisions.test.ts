import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DIR, indexText, readDecisions, ROOT } from '../scripts/decisions'

/** Files that may cite decisions: code, tests, scripts and docs (not the build or node_modules). */
function citingFiles(): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (
        ['node_modules', 'build', 'build-base-path', '.git', '.data', 'test-results', 'playwright-report'].includes(
          entry.name,
        )
      )
        continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(ts|tsx|mjs|js|md)$/.test(entry.name)) out.push(full)
    }
  }
  for (const dir of ['app', 'server', 'cluster', 'bench', 'e2e', 'tests', 'scripts', 'vite', 'docs'])
    walk(path.join(ROOT, dir))
  out.push(path.join(ROOT, 'README.md'))
  return out
}

describe('design decisions (issue 53)', () => {
  const { decisions, problems } = readDecisions()

  it('each has its title, Status and Date; numbers are unique; successors exist', () => {
    expect(decisions.length).toBeGreaterThan(90)
    expect(problems).toEqual([])
  })

  it('the index is current (npx tsx scripts/decisions.ts writes it)', () => {
    expect(fs.readFileSync(path.join(DIR, 'README.md'), 'utf8')).toBe(indexText(decisions))
  })

  it('every decision cited in code or docs exists; code cites a superseded one with what replaced it', () => {
    const byNumber = new Map(decisions.map((d) => [d.number, d]))
    const missing: string[] = []
    const stale: string[] = []
    for (const file of citingFiles()) {
      const lines = fs.readFileSync(file, 'utf8').split('\n')
      const where = path.relative(ROOT, file)
      // the decision this file is, when it is one
      const own = /docs\/decisions\/(\d{3})-/.exec(where.split(path.sep).join('/'))?.[1]
      lines.forEach((line, i) => {
        for (const match of line.matchAll(/\b[Dd]ecisions? ((?:\d{3}(?:, | and | or |, and )?)+)/g)) {
          for (const number of match[1].match(/\d{3}/g) ?? []) {
            const decision = byNumber.get(number)
            if (!decision) {
              missing.push(`${where}:${i + 1}: decision ${number}`)
              continue
            }
            // decisions are dated records (a superseded one says so in its Status): the rule is for
            // code and the READMEs, which describe what is true now
            if (!decision.fullySuperseded || own) continue
            const near = lines.slice(Math.max(0, i - 2), i + 3).join('\n')
            if (!/supersed/i.test(near) && !decision.supersededBy.some((next) => near.includes(next)))
              stale.push(`${where}:${i + 1}: decision ${number} is superseded by ${decision.supersededBy.join(', ')}`)
          }
        }
      })
    }
    expect(missing, 'cited decisions that do not exist').toEqual([])
    expect(stale, 'superseded decisions cited without what replaced them').toEqual([])
  })
})
