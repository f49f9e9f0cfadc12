/** One dashboard card: a count from the org summary and, where the console has one, its page. */
export type SummaryCard = { key: string; label: string; value: number; href?: string; detail?: string }

/** The order and pages of the counts the console knows; other counts follow, sorted by label. */
const KNOWN: { keys: string[]; label: string; href?: string }[] = [
  { keys: ['projects', 'project', 'project_count'], label: 'Projects', href: '/data/tables' },
  { keys: ['tables', 'table', 'table_count'], label: 'Tables', href: '/data/tables' },
  { keys: ['views', 'view'], label: 'Views', href: '/data/tables' },
  { keys: ['transforms', 'transform'], label: 'Transforms', href: '/data/tables' },
  { keys: ['sources', 'source', 'ingest_sources'], label: 'Ingest sources', href: '/data/tables' },
  { keys: ['dictionaries', 'dictionary'], label: 'Dictionaries', href: '/data/dictionaries' },
  { keys: ['functions', 'function'], label: 'Functions', href: '/data/functions' },
  { keys: ['jobs', 'alter_jobs', 'batch_jobs'], label: 'Jobs', href: '/jobs/alter-jobs' },
  { keys: ['pools', 'pool', 'resource_pools'], label: 'Resource pools', href: '/scale' },
  { keys: ['users', 'user'], label: 'Users', href: '/security/users' },
  { keys: ['roles', 'role'], label: 'Roles', href: '/security/roles' },
  { keys: ['storages', 'buckets'], label: 'Buckets', href: '/security/buckets' },
  { keys: ['credentials'], label: 'Credentials', href: '/security/credentials' },
]

function labelOf(key: string): string {
  const text = key.replace(/[_-]+/g, ' ').trim()
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A count from a summary value: a number, a list's length, or an object's `count`/`total`. */
function countOf(value: unknown): { value: number; detail?: string } | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return { value }
  if (Array.isArray(value)) return { value: value.length }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const total = [record.count, record.total].find((n): n is number => typeof n === 'number')
    if (total === undefined) {
      // `{ by_status: {...} }`-style groups: the sum of their numbers.
      const numbers = Object.values(record).filter((n): n is number => typeof n === 'number')
      if (!numbers.length) return undefined
      return {
        value: numbers.reduce((sum, n) => sum + n, 0),
        detail: Object.entries(record)
          .filter(([, n]) => typeof n === 'number')
          .map(([key, n]) => `${labelOf(key).toLowerCase()} ${n}`)
          .join(', '),
      }
    }
    const parts = Object.entries(record)
      .filter(([key, n]) => typeof n === 'number' && key !== 'count' && key !== 'total')
      .map(([key, n]) => `${labelOf(key).toLowerCase()} ${n}`)
    return { value: total, detail: parts.length ? parts.join(', ') : undefined }
  }
  return undefined
}

/** Returns the summary's counts as cards: known ones first in a fixed order, then the rest. */
export function summaryCards(summary: Record<string, unknown>): SummaryCard[] {
  // Some clusters wrap the counts (`{ summary: {...} }` or `{ counts: {...} }`).
  const inner = [summary.summary, summary.counts].find((value) => value && typeof value === 'object' && !Array.isArray(value))
  const source = (inner as Record<string, unknown> | undefined) ?? summary
  const cards: SummaryCard[] = []
  const used = new Set<string>()
  for (const known of KNOWN) {
    const key = known.keys.find((candidate) => candidate in source && countOf(source[candidate]) !== undefined)
    if (!key) continue
    used.add(key)
    cards.push({ key, label: known.label, href: known.href, ...countOf(source[key])! })
  }
  const rest = Object.entries(source)
    .filter(([key]) => !used.has(key) && key !== 'meta' && key !== 'uuid' && key !== 'org')
    .flatMap(([key, value]) => {
      const count = countOf(value)
      return count ? [{ key, label: labelOf(key), ...count }] : []
    })
    .sort((a, b) => a.label.localeCompare(b.label))
  return [...cards, ...rest]
}
