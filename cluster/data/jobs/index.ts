/**
 * Batch jobs (load CSV/JSON files from a local path or a bucket folder inside the data directory
 * through a transform) and alter jobs (ALTER TABLE ... UPDATE|DELETE sent to /query: count, wait as
 * `pending`, change data only on commit). Both are kept in the durable store.
 */
import type { ClusterRouter } from '../../context'
import type { Plane } from '../plane'
import { registerAlterJobRoutes } from './alter-routes'
import type { BatchRunner } from './batch-runner'
import { registerBatchJobRoutes } from './batch-routes'

export { createAlterJob, recoverAlterJobs } from './alter'
export { BatchRunner } from './batch-runner'

/** Registers the batch job routes (with `purgejobs`), then the alter job routes. */
export function registerJobRoutes(plane: Plane, router: ClusterRouter, runner: BatchRunner) {
  registerBatchJobRoutes(plane, router, runner)
  registerAlterJobRoutes(plane, router)
}
