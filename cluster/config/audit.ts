import crypto from 'node:crypto'
import type { ClusterState } from '../context'
import { nowIso } from '../http'

/** One audit trail entry (kind `audit`): who did what, when. */
export interface AuditEntry {
  uuid: string
  created: string
  user: string
  user_id: string | null
  action: string
  text: string
  /** What the change touched, for per-resource `activity` (project, table, and the object). */
  target_kind?: string
  target_id?: string
  project?: string
  table?: string
  /** The object's name and description as the change left them (activity entries answer them). */
  object?: { name?: unknown; description?: unknown }
}

export interface AuditTarget {
  kind?: string
  id?: string
  project?: string
  table?: string
  object?: { name?: unknown; description?: unknown }
}

/**
 * Appends to the audit trail. `user` is the caller (or null for the system); `action` is a short
 * verb_resource like `add_table`; `text` a human sentence.
 */
export function audit(
  cluster: ClusterState,
  user: { uuid: string; email: string } | null,
  action: string,
  text: string,
  target: AuditTarget = {},
): AuditEntry {
  const entry: AuditEntry = {
    uuid: crypto.randomUUID(),
    created: nowIso(),
    user: user?.email ?? 'system',
    user_id: user?.uuid ?? null,
    action,
    text,
    ...(target.kind ? { target_kind: target.kind } : {}),
    ...(target.id ? { target_id: target.id } : {}),
    ...(target.project ? { project: target.project } : {}),
    ...(target.table ? { table: target.table } : {}),
    ...(target.object ? { object: target.object } : {}),
  }
  cluster.store.put('audit', entry.uuid, entry)
  return entry
}
