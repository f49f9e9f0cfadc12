import type { ClusterState } from '../context'
import type { Engine } from './engine'

/** One /query run, for the `hdx.active_queries` history. */
export interface QueryRecord {
  query_id: string
  query_start: string
  query_end: string | null
  query: string
  user: string
  comment: string
  admin_comment: string
  label: string
  active: boolean
  exec_time_ms: number
  rows_read: number
  bytes_read: number
  error: string
}

/** What the data plane's modules share. */
export interface Plane {
  cluster: ClusterState
  engine: Engine
  /** Queries of the last hour (finished and running), newest last. */
  queries: QueryRecord[]
  /** Partition counts per `db.table`, invalidated by writes. */
  partitions: Map<string, number>
  /** The engine's storage figures kept briefly (FIGURES_MS), by `table:db.table` and `org`; a table's are forgotten by `touched`. */
  figures: Map<string, { at: number; value: Promise<unknown> }>
  /** Writes pending logs and query records into hydro.logs / hdx tables now. */
  flushSystem(): Promise<void>
  /** Forgets cached figures of a table after a write. */
  touched(database: string, table: string): void
}
