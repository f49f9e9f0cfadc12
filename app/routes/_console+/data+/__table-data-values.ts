/*
 * What the table page's data part sends its view (decision 101): types and constants safe on both
 * sides, apart from the loaders in __table-data.server.ts.
 */

/** Rows on one page of the data part. */
export const DATA_PAGE_ROWS = 50

/** The data part's URL parameters, prefixed so the table page's own (`project`, `edit`, …) stay its own. */
export const DATA_PARAMS = {
  before: 'data_before',
  after: 'data_after',
  skip: 'data_skip',
  column: 'data_column',
  window: 'data_window',
} as const

/** The windows a column's figures can cover (the second is the default). */
export const FIGURE_WINDOWS = [
  { key: '1h', label: 'the last hour', ms: 3_600_000 },
  { key: '1d', label: 'the last day', ms: 86_400_000 },
  { key: '7d', label: 'the last 7 days', ms: 7 * 86_400_000 },
  { key: 'all', label: 'all time', ms: null },
] as const

/** How a column's figures are computed: min and max for numbers and times, top values for strings. */
export type ColumnKind = 'number' | 'time' | 'string' | 'other'

export type DataColumn = { name: string; type: string; kind: ColumnKind }

/** What a read cost, from the query's statistics (`x-hdx-query-stats`). */
export type QueryCost = { rowsRead: number; bytesRead: number; ms: number }

export type RowsPart = {
  columns: DataColumn[]
  primaryIndex: number
  /** The page's rows, newest first, each value as the engine printed it (null for NULL). */
  rows: (string | null)[][]
  /** The window the last read covered ("the last hour", …, "all time"). */
  windowText: string
  /** Every window read, narrowest first. */
  steps: string[]
  /** Why a wider window could not be read (the narrower one's rows stand). */
  stoppedBy: string | null
  cost: QueryCost
  sql: string
  workspaceHref: string
  /** The newest page found no row in any window. */
  isEmpty: boolean
  /** Searches (without `?`) for the older, newer and newest pages; null when there is none. */
  older: string | null
  newer: string | null
  newest: string | null
  denied: string | null
  error: string | null
  /** The page's search without the data part's parameters. */
  keep: string
}

export type ColumnFigures = {
  column: string
  type: string
  kind: ColumnKind
  window: { key: string; label: string; from: string; to: string }
  rows: number
  values: number
  nulls: number
  distinct: number
  min: string | null
  max: string | null
  top: string[] | null
  cost: QueryCost
  sql: string
  workspaceHref: string
  denied: string | null
  error: string | null
}

export type ArrivalPart = {
  /** Rows per minute over the last 60 minutes (the last is the current minute). */
  minutes: number[]
  /** Rows per hour over the last 24 hours (the last is the current hour). */
  hours: number[]
  minuteStart: string
  dayStart: string
  now: string
  lastHour: number
  lastDay: number
  /** Rows timestamped ahead of now (within the table's future allowance). */
  ahead: number
  /** The newest primary timestamp (engine UTC text), null when the table holds none. */
  newest: string | null
  ageText: string | null
  isEmpty: boolean
  cost: { rowsRead: number; bytesRead: number; ms: number }
  sql: string
  workspaceHref: string
  denied: string | null
  error: string | null
}

export type IngestState = {
  entries: {
    key: string
    kind: string
    name: string
    href: string
    state: string
    tone: 'ok' | 'off' | 'bad'
  }[]
  sourcesError: string | null
  jobsError: string | null
  /** How many of the org's newest batch jobs were searched. */
  jobsRead: number
}

export type TableDataPart = {
  ref: string
  primary: string | null
  rows: RowsPart | null
  figures: ColumnFigures | null
  arrival: ArrivalPart | null
  ingest: IngestState
  /** Why the part reads no rows at all (no primary timestamp). */
  message: string | null
}
