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
  /**
   * The engine's figures (a table's stats, the org's totals, a table's partition count) by key,
   * each kept FIGURES_MS and shared by concurrent callers; `touched` forgets a table's stats.
   */
  briefly<T>(key: string, load: () => Promise<T>): Promise<T>
  /** Writes pending logs and query records into hydro.logs / hdx tables now (both unless `tables` names one). */
  flushSystem(tables?: { logs?: boolean; queries?: boolean }): Promise<void>
  /** Forgets a table's kept stats after a write. */
  touched(database: string, table: string): void
}
