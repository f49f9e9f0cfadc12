import type { Metrics } from './metrics'
import type { RouteContext, Router } from './router'
import type { Store } from './store'
import type { DataPlane } from './hooks'

export interface ClusterOptions {
  /** Everything the cluster keeps lives under this directory. */
  dataDir: string
  /** The `/version` string; below v5.4 lists answer as bare arrays, as those clusters did. */
  version?: string
  adminEmail?: string
  adminPassword?: string
  /** Enables the `/__faults` switch (tests only; off by default). */
  faults?: boolean
  /** Sample data on first start: false for none, or how many rows of web logs (default 1,000,000). */
  seed?: boolean | { rows: number }
  /** Lifetime of login tokens in seconds (default 86400, as a real cluster). */
  tokenTtlSeconds?: number
  /**
   * How long a batch job whose source cannot be reached waits in `ready`, trying again, before it
   * fails (default 30 000 ms; 0 fails at once).
   */
  batchSourceWaitMs?: number
  /**
   * The only local folder batch jobs may read (`file:///…` and absolute paths), with what is under
   * it; default `<dataDir>/imports`. Anything else on the machine is refused, whether it exists or
   * not (issue 49: a job could read the signing key).
   */
  importDir?: string
  /** How long a password reset link is valid (default 3,600 s). */
  resetTokenTtlSeconds?: number
  /** How long an invite's set-password link is valid (default 172,800 s: two days; Resend gives a new one). */
  inviteTokenTtlSeconds?: number
}

export interface ResolvedOptions extends Required<Omit<ClusterOptions, 'adminEmail' | 'adminPassword' | 'seed'>> {
  adminEmail?: string
  adminPassword?: string
  seedRows: number
  bareArrays: boolean
}

export interface LogEntry {
  timestamp: string
  level: 'debug' | 'info' | 'warning' | 'error'
  service: string
  component: string
  message: string
  error?: string
  /** The resource pool whose work this is (hydro.logs `pool`); empty for the config API. */
  pool?: string
}

/** A mail the cluster would send (there is no mail server): kept in the outbox, never in the logs. */
export interface MailEntry {
  timestamp: string
  to: string
  subject: string
  text: string
  /** The link the mail carries (a path of the console: `/verifyaccount/<uuidb64>/<token>`). */
  link: string
}

/** The state every handler shares. */
export interface ClusterState {
  options: ResolvedOptions
  store: Store
  secret: string
  metrics: Metrics
  /** Appends to the cluster's own log (queryable as `hydro.logs` once the engine is up). */
  log(entry: Omit<LogEntry, 'timestamp'>): void
  logs: LogEntry[]
  /**
   * Writes a mail to the outbox: `<dataDir>/outbox.jsonl` (mode 600, one JSON object a line: only the
   * machine's operator reads it) and `outbox` (the newest 1,000, for tests in process). Reset and
   * invite links carry a credential, so they are never in the logs, which every user can query.
   */
  mail(entry: Omit<MailEntry, 'timestamp'>): void
  outbox: MailEntry[]
  data: DataPlane<ClusterRouter>
}

export interface Ctx extends RouteContext {
  cluster: ClusterState
}

export type ClusterRouter = Router<Ctx>
