/**
 * The design decisions (docs/decisions/NNN-title.md): read, checked and indexed. `npx tsx
 * scripts/decisions.ts` writes docs/decisions/README.md, the index; tests/decisions.test.ts checks
 * that the index is current, that each decision has its Status and Date, and that every decision
 * cited in code or docs exists (and a superseded one is cited with its successor nearby).
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const DIR = path.join(ROOT, 'docs', 'decisions')

export type Decision = {
  number: string
  file: string
  title: string
  status: string
  date: string
  /** Successors named by a "superseded [in part] by NNN[, MMM]" status. */
  supersededBy: string[]
  /** Whole (not "in part"). */
  fullySuperseded: boolean
}

const STATUS = /^Status: (accepted|superseded(?: in part)? by (\d{3}(?:, \d{3})*))\s*$/m
const DATE = /^Date: (\d{4}-\d{2}-\d{2})\s*$/m

export function readDecisions(): { decisions: Decision[]; problems: string[] } {
  const decisions: Decision[] = []
  const problems: string[] = []
  for (const file of fs.readdirSync(DIR).sort()) {
    const match = /^(\d{3})-[a-z0-9-]+\.md$/.exec(file)
    if (!match || match[1] === '000') continue
    const text = fs.readFileSync(path.join(DIR, file), 'utf8')
    const title = /^# (\d{3}): (.+)$/m.exec(text)
    const status = STATUS.exec(text)
    const date = DATE.exec(text)
    if (!title || title[1] !== match[1]) problems.push(`${file}: the title must be "# ${match[1]}: …"`)
    if (!status) problems.push(`${file}: no "Status: accepted" or "Status: superseded [in part] by NNN" line`)
    if (!date) problems.push(`${file}: no "Date: YYYY-MM-DD" line`)
    decisions.push({
      number: match[1],
      file,
      title: title?.[2] ?? file,
      status: status?.[1] ?? '?',
      date: date?.[1] ?? '?',
      supersededBy: status?.[2]?.split(', ') ?? [],
      fullySuperseded: !!status && status[1].startsWith('superseded by'),
    })
  }
  const seen = new Set<string>()
  for (const d of decisions) {
    if (seen.has(d.number)) problems.push(`decision ${d.number} has two files`)
    seen.add(d.number)
  }
  for (const d of decisions)
    for (const next of d.supersededBy)
      if (!seen.has(next)) problems.push(`${d.file}: superseded by ${next}, which does not exist`)
  return { decisions, problems }
}

export function indexText(decisions: Decision[]): string {
  const rows = decisions.map(
    (d) => `| [${d.number}](${d.file}) | ${d.title.replace(/\|/g, '\\|')} | ${d.status} | ${d.date} |`,
  )
  return [
    '# Design decisions',
    '',
    'One file per real design decision: context, decision, why (copy `000-template.md`). Each says',
    'its status (accepted, or superseded by the one that replaced it, in whole or in part) and its date.',
    'This index is written by `npx tsx scripts/decisions.ts`; `tests/decisions.test.ts` fails when it is',
    'out of date, when a file lacks its Status or Date, or when code or docs cite a decision that does',
    'not exist (or a superseded one without naming what replaced it).',
    '',
    '| # | Decision | Status | Date |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { decisions, problems } = readDecisions()
  fs.writeFileSync(path.join(DIR, 'README.md'), indexText(decisions))
  console.log(`docs/decisions/README.md: ${decisions.length} decisions`)
  for (const problem of problems) console.error(problem)
  if (problems.length) process.exitCode = 1
}
