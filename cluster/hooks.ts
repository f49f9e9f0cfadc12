/**
 * The contract between the config side (`config/`) and the data side (`data/`): the config API
 * calls the data plane's hooks when config changes. Nothing here depends on `context.ts`.
 */
/** A stored config object: every resource has a uuid and a name; the rest is its own. */
export type Resource = { uuid: string; name: string } & Record<string, any>

/**
 * What the config API tells the data plane (the engine) when config changes. The config side
 * calls these after validating and before acknowledging; a thrown HttpError is answered as is.
 */
export interface DataHooks {
  /** A transform was created or changed: the engine table exists afterwards with its columns. */
  transformSaved(e: { project: Resource; table: Resource; transform: Resource }): Promise<void>
  tableDeleted(e: { project: Resource; table: Resource }): Promise<void>
  tableTruncated(e: { project: Resource; table: Resource }): Promise<void>
  tableRenamed(e: { project: Resource; table: Resource; previousName: string }): Promise<void>
  projectDeleted(e: { project: Resource }): Promise<void>
  projectRenamed(e: { project: Resource; previousName: string }): Promise<void>
  /** Figures for `tables/{t}/stats` (total_rows, raw_data_size, compressed_data_size, ...). */
  tableStats(e: { project: Resource; table: Resource }): Promise<Record<string, unknown>>
  functionSaved(e: { project: Resource; fn: Resource; previousName?: string }): Promise<void>
  functionDeleted(e: { project: Resource; fn: Resource }): Promise<void>
  dictionarySaved(e: { project: Resource; dictionary: Resource; previousName?: string }): Promise<void>
  dictionaryDeleted(e: { project: Resource; dictionary: Resource }): Promise<void>
  /**
   * Engine-side figures for `orgs/{org}/summary` (rows, bytes, recent queries, ...): the org's, or
   * with `scope` those of the tables and jobs it admits (a caller without org-wide rights).
   */
  orgFigures(scope?: FigureScope): Promise<Record<string, number>>
}

/** What one caller's summary figures take in: the tables its rows and bytes count, the jobs it counts. */
export interface FigureScope {
  /** Whether the table's rows, bytes, partitions and rows ingested count. */
  table(project: Readonly<Resource>, table: Readonly<Resource>): boolean
  /** Whether a batch or alter job counts among the active and pending jobs. */
  job(kind: 'batch_job' | 'alter_job', job: Readonly<Resource>): boolean
}

/**
 * The data plane as the cluster holds it. `Router` is the cluster's router type (`ClusterRouter`),
 * a parameter so that this contract needs nothing from `context.ts`, which holds a `DataPlane`.
 */
export interface DataPlane<Router> {
  hooks: DataHooks
  /** Registers /query, /ingest/event, /validator, jobs, /prometheus... */
  register(router: Router): void
  /**
   * Creates the sample project, table, transform and rows (first start only). `call` sends a
   * request to the cluster's own API as the admin and returns the parsed body (throws on non-2xx).
   */
  seed(e: {
    orgId: string
    rows: number
    call: (method: string, path: string, body?: unknown) => Promise<any>
  }): Promise<void>
  close(): Promise<void>
}
