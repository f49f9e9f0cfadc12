/**
 * Alter jobs: ALTER TABLE ... UPDATE|DELETE sent to /query becomes a job that counts the rows it
 * will touch, waits as `pending`, and changes data only on commit.
 */
import crypto from 'node:crypto'
import { forbidden, nowIso } from '../../http'
import { can, type User } from '../../config/access'
import { audit } from '../../config/audit'
import type { Ctx } from '../../context'
import type { Resource } from '../../hooks'
import { parentOf, resolveTable } from '../catalog'
import { qualified, toEngineError } from '../engine'
import type { Plane } from '../plane'
import type { AlterStatement } from '../sql'
import { ALTER, save, type Job } from './job-store'

/** How many rows of the table match `where` (every row when it is empty). */
export async function countWhere(plane: Plane, project: string, table: string, where: string): Promise<number> {
  const rows = await plane.engine.rows<{ n: string | number }>(
    `SELECT count() AS n FROM ${qualified(project, table)}${where ? ` WHERE ${where}` : ''}`,
  )
  return Number(rows[0]?.n ?? 0)
}

/** Creates an alter job from a parsed statement (called by /query). */
export async function createAlterJob(
  plane: Plane,
  ctx: Ctx,
  user: User,
  alter: AlterStatement,
  sql: string,
): Promise<Job> {
  const { cluster } = plane
  const resolved = resolveTable(cluster, alter.table)
  if ('error' in resolved) throw toEngineError(new Error(`Code: 60. DB::Exception: ${resolved.error}. (UNKNOWN_TABLE)`))
  if (
    !can(cluster, user, 'add_alterjob', { projectId: resolved.project.uuid, tableId: resolved.table.uuid }) ||
    !can(cluster, user, 'alter_table_sql', { projectId: resolved.project.uuid, tableId: resolved.table.uuid })
  ) {
    throw forbidden()
  }
  if (!alter.where)
    throw toEngineError(
      new Error(
        'Code: 62. DB::Exception: ALTER TABLE ... UPDATE|DELETE needs a WHERE clause (use WHERE 1 to touch every row). (SYNTAX_ERROR)',
      ),
    )
  if (alter.kind === 'update' && !alter.assignments)
    throw toEngineError(new Error('Code: 62. DB::Exception: ALTER TABLE ... UPDATE needs assignments. (SYNTAX_ERROR)'))
  // the WHERE must be valid now: count once to surface errors to the caller
  await countWhere(plane, resolved.project.name, resolved.table.name, alter.where)
  const org = parentOf(resolved.project, 'org') ?? ctx.cluster.store.all<Resource>('org')[0]?.uuid
  const now = nowIso()
  const job: Job = {
    uuid: crypto.randomUUID(),
    name: `alter_${resolved.project.name}_${resolved.table.name}_${Date.now().toString(36)}`,
    org,
    type: 'alter',
    status: 'ready',
    description: sql.trim().slice(0, 500),
    settings: {
      project_name: resolved.project.name,
      table_name: resolved.table.name,
      project_id: resolved.project.uuid,
      table_id: resolved.table.uuid,
      kind: alter.kind,
      assignments: alter.assignments,
      where: alter.where,
      sql: sql.trim(),
      committing: false,
    },
    progress: { rows_to_alter: null, rows_altered: null },
    error: null,
    created: now,
    modified: now,
    created_by: user.email,
  }
  cluster.store.put(ALTER, job.uuid, job)
  audit(
    cluster,
    user,
    'add_alterjob',
    `Created alter job ${job.name}: ${alter.kind} on ${resolved.project.name}.${resolved.table.name}`,
    { kind: 'alterjob', id: job.uuid, project: resolved.project.uuid, table: resolved.table.uuid },
  )
  void prepareAlter(plane, job.uuid)
  return job
}

/** ready → running (counting the rows it will touch) → pending. */
export async function prepareAlter(plane: Plane, id: string) {
  const { cluster } = plane
  let job = cluster.store.get<Job>(ALTER, id)
  if (!job || job.status !== 'ready') return
  job.status = 'running'
  save(cluster, ALTER, job)
  try {
    const n = await countWhere(plane, job.settings.project_name, job.settings.table_name, job.settings.where)
    job = cluster.store.get<Job>(ALTER, id)
    if (!job || job.status !== 'running') return // canceled or deleted meanwhile
    job.progress = { ...job.progress, rows_to_alter: n }
    job.status = 'pending'
    save(cluster, ALTER, job)
  } catch (e) {
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'failed'
    job.error = toEngineError(e).message
    save(cluster, ALTER, job)
  }
}

/** pending → running (the ALTER runs, waiting for the mutation) → done or failed. */
export async function commitAlter(plane: Plane, id: string) {
  const { cluster, engine } = plane
  let job = cluster.store.get<Job>(ALTER, id)
  if (!job) return
  const s = job.settings
  const target = qualified(s.project_name, s.table_name)
  const sql =
    s.kind === 'delete'
      ? `ALTER TABLE ${target} DELETE WHERE ${s.where}`
      : `ALTER TABLE ${target} UPDATE ${s.assignments} WHERE ${s.where}`
  try {
    await engine.exec(`${sql} SETTINGS mutations_sync = 2`)
    plane.touched(s.project_name, s.table_name)
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'done'
    job.settings.committing = false
    job.progress = { ...job.progress, rows_altered: job.progress?.rows_to_alter ?? null }
    save(cluster, ALTER, job)
    cluster.log({
      level: 'info',
      service: 'alter-peer',
      component: 'alter',
      message: `alter job ${job.name} committed`,
    })
  } catch (e) {
    job = cluster.store.get<Job>(ALTER, id)
    if (!job) return
    job.status = 'failed'
    job.settings.committing = false
    job.error = toEngineError(e).message
    save(cluster, ALTER, job)
    cluster.log({
      level: 'error',
      service: 'alter-peer',
      component: 'alter',
      message: `alter job ${job.name} failed`,
      error: job.error,
    })
  }
}

/** After a restart: counting restarts; an interrupted commit is reported as failed. */
export function recoverAlterJobs(plane: Plane) {
  const { cluster } = plane
  for (const job of cluster.store.all<Job>(ALTER)) {
    if (job.status === 'running' && job.settings?.committing) {
      job.status = 'failed'
      job.settings.committing = false
      job.error = 'The cluster restarted during the commit; verify the table before retrying.'
      save(cluster, ALTER, job)
    } else if (job.status === 'running' || job.status === 'ready') {
      job.status = 'ready'
      save(cluster, ALTER, job)
      void prepareAlter(plane, job.uuid)
    }
  }
}
