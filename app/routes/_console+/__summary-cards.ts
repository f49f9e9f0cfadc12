import { formatBytes, formatNumber, formatRatio } from '~/utils/format-number'

/** One dashboard card: a figure from the org summary and, where the console has one, its page. */
export type SummaryCard = {
  key: string
  label: string
  value: number
  /** The figure as shown: a count, a byte size or a ratio. */
  text: string
  href?: string
  detail?: string
}

export type SummaryGroups = { resources: SummaryCard[]; activity: SummaryCard[] }

type Known = { keys: string[]; label: string; href?: string }

/** Resource counts, in the order the dashboard shows them. */
const RESOURCES: Known[] = [
  { keys: ['projects', 'project_count'], label: 'Projects', href: '/data/tables' },
  { keys: ['tables', 'table_count'], label: 'Tables', href: '/data/tables' },
  { keys: ['summary_tables'], label: 'Summary tables', href: '/data/tables' },
  { keys: ['views'], label: 'Views', href: '/data/tables' },
  { keys: ['transforms'], label: 'Transforms', href: '/data/tables' },
  { keys: ['sources', 'ingest_sources'], label: 'Ingest sources', href: '/data/tables' },
  { keys: ['dictionaries'], label: 'Dictionaries', href: '/data/dictionaries' },
  { keys: ['dictionary_files', 'files'], label: 'Files', href: '/data/files' },
  { keys: ['functions'], label: 'Functions', href: '/data/functions' },
  // the summary's `columns` counts the columns resource (cluster-api.md 3.5): alias columns, not a table's columns
  { keys: ['columns'], label: 'Alias columns', href: '/data/tables' },
  { keys: ['alter_jobs'], label: 'Alter jobs', href: '/jobs/alter-jobs' },
  { keys: ['batch_jobs'], label: 'Batch jobs', href: '/jobs/batch-jobs' },
  { keys: ['jobs'], label: 'Jobs', href: '/jobs/alter-jobs' },
  { keys: ['pools', 'resource_pools'], label: 'Resource pools', href: '/scale' },
  { keys: ['users'], label: 'Users', href: '/security/users' },
  { keys: ['service_accounts'], label: 'Service accounts', href: '/security/users' },
  { keys: ['pending_invites'], label: 'Pending invites', href: '/security/pending-invites' },
  { keys: ['roles'], label: 'Roles', href: '/security/roles' },
  { keys: ['storages', 'buckets'], label: 'Buckets', href: '/security/buckets' },
  { keys: ['credentials'], label: 'Credentials', href: '/security/credentials' },
]

/** Activity and storage figures, in order; anything else numeric follows them. */
const ACTIVITY: Known[] = [
  { keys: ['active_queries'], label: 'Active queries', href: '/queries' },
  { keys: ['queries_last_hour'], label: 'Queries in the last hour', href: '/queries' },
  { keys: ['query_errors_last_hour'], label: 'Query errors in the last hour', href: '/queries/insights#failed' },
  { keys: ['active_jobs'], label: 'Active jobs', href: '/jobs/alter-jobs' },
  { keys: ['rows_ingested_last_5_minutes'], label: 'Rows ingested (last 5 min)' },
  { keys: ['rows_ingested_last_hour'], label: 'Rows ingested (last hour)' },
  { keys: ['total_rows'], label: 'Rows stored' },
  { keys: ['raw_data_size'], label: 'Raw data size' },
  { keys: ['compressed_data_size'], label: 'Stored size (compressed)' },
  { keys: ['compression_ratio'], label: 'Compression ratio' },
  { keys: ['total_partitions'], label: 'Partitions' },
]

/** Keys that describe the org rather than count anything. */
const IGNORED = new Set(['uuid', 'name', 'org', 'version', 'meta', 'url', 'created', 'modified'])

function labelOf(key: string): string {
  const text = key.replace(/[_-]+/g, ' ').trim()
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function formatFigure(key: string, value: number): string {
  if (/(_size|_bytes)$/.test(key)) return formatBytes(value)
  if (/ratio$/.test(key)) return formatRatio(value)
  return formatNumber(value)
}

/** A figure from a summary value: a number, a list's length, or an object's `total`/`count` and its parts. */
function figureOf(value: unknown): { value: number; detail?: string } | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return { value }
  if (Array.isArray(value)) return { value: value.length }
  if (!value || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  const parts = Object.entries(record).filter(
    (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[0] !== 'total' && entry[0] !== 'count',
  )
  const total = [record.total, record.count].find((n): n is number => typeof n === 'number')
  if (total === undefined && !parts.length) return undefined
  const shown = parts.filter(([, n]) => n > 0)
  return {
    value: total ?? parts.reduce((sum, [, n]) => sum + n, 0),
    detail: shown.length ? shown.map(([key, n]) => `${labelOf(key).toLowerCase()} ${n}`).join(', ') : undefined,
  }
}

function cardsFor(source: Record<string, unknown>, known: Known[], used: Set<string>): SummaryCard[] {
  const cards: SummaryCard[] = []
  for (const entry of known) {
    const key = entry.keys.find((candidate) => !used.has(candidate) && figureOf(source[candidate]) !== undefined)
    if (!key) continue
    used.add(key)
    const figure = figureOf(source[key])!
    cards.push({ key, label: entry.label, href: entry.href, ...figure, text: formatFigure(key, figure.value) })
  }
  return cards
}

/**
 * Returns the summary's figures as cards: resource counts (known ones in a fixed order) and
 * activity/storage figures (known ones first, then any other numeric key, sorted by label).
 */
export function summaryCards(summary: Record<string, unknown>): SummaryGroups {
  // Some clusters wrap the counts (`{ summary: {...} }` or `{ counts: {...} }`).
  const inner = [summary.summary, summary.counts].find(
    (value) => value && typeof value === 'object' && !Array.isArray(value),
  )
  const source = { ...summary, ...((inner as Record<string, unknown> | undefined) ?? {}) }
  const used = new Set<string>(['summary', 'counts'])
  const resources = cardsFor(source, RESOURCES, used)
  const activity = cardsFor(source, ACTIVITY, used)
  const rest = Object.entries(source)
    .filter(([key]) => !used.has(key) && !IGNORED.has(key))
    .flatMap(([key, value]) => {
      const figure = figureOf(value)
      return figure ? [{ key, label: labelOf(key), ...figure, text: formatFigure(key, figure.value) }] : []
    })
    .sort((a, b) => a.label.localeCompare(b.label))
  return { resources, activity: [...activity, ...rest] }
}

/** The activity cards counted from the query log (not what the org holds). */
export const QUERY_FIGURES = ['queries_last_hour', 'query_errors_last_hour']

/**
 * The activity cards with the query figures from the query log as Insights counts them (the users'
 * queries, the same window) in place of the summary's, which count every query the cluster ran,
 * the console's own reads too. `covered` is how many minutes the log goes back when it keeps less
 * than the hour (a real cluster keeps a few), said on the cards. Without counts (the log refused),
 * the summary's query figures are left out: they would disagree with Insights.
 */
export function withLogQueryFigures(
  activity: SummaryCard[],
  counts: { queries: number; failed: number } | null,
  coveredMinutes: number | null,
  windowMinutes = 60,
): SummaryCard[] {
  const at = activity.findIndex((card) => QUERY_FIGURES.includes(card.key))
  const rest = activity.filter((card) => !QUERY_FIGURES.includes(card.key))
  if (!counts) return rest
  const detail =
    coveredMinutes !== null && coveredMinutes < windowMinutes - 1
      ? `the query log goes back ${coveredMinutes} ${coveredMinutes === 1 ? 'minute' : 'minutes'}`
      : undefined
  const cards: SummaryCard[] = [
    {
      key: 'queries_last_hour',
      label: 'Queries in the last hour',
      value: counts.queries,
      text: formatNumber(counts.queries),
      href: '/queries/insights',
      detail,
    },
    {
      key: 'query_errors_last_hour',
      label: 'Query errors in the last hour',
      value: counts.failed,
      text: formatNumber(counts.failed),
      href: '/queries/insights#failed',
      detail,
    },
  ]
  const index = at >= 0 ? at : Math.max(0, rest.findIndex((card) => card.key === 'active_queries') + 1)
  return [...rest.slice(0, index), ...cards, ...rest.slice(index)]
}
