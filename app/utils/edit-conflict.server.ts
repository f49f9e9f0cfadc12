import type { SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { listAuditTrail } from '~/api/audit.server'
import type { ClusterApi } from '~/api/client.server'
import { settle } from '~/api/policies.server'
import { parseOriginal } from '~/schemas/lossless'
import { placeConflicts, seenAgain, type FieldConflict } from './edit-conflict'

export * from './edit-conflict'

/** Who last changed an object and when, as far as the cluster says. */
export type LastChange = { at?: string; by?: string }

/** Entries of the audit trail this close to an object's `modified` are taken as that change. */
const SAME_CHANGE_MS = 5_000

/**
 * Who last changed the object named `name` and when: `modified` is the cluster's own time of the
 * last change; the user is the audit trail's entry for a change of that name at that time (none
 * when the trail does not say, or the user may not read it: a 403 is not a failure here).
 */
export async function lastChangeOf(
  api: ClusterApi,
  object: { name?: unknown; modified?: unknown },
): Promise<LastChange> {
  const at = typeof object.modified === 'string' && object.modified ? object.modified : undefined
  const name = typeof object.name === 'string' ? object.name : ''
  if (!name) return { at }
  const page = await settle(() => listAuditTrail(api, { search: name }, { page: 1, pageSize: 20 }))
  const when = at ? Date.parse(at) : NaN
  const entry = (page.value?.results ?? []).find(
    (candidate) =>
      /^(change|update)[_:]/.test(candidate.action) &&
      (!Number.isFinite(when) || Math.abs(Date.parse(candidate.created) - when) <= SAME_CHANGE_MS),
  )
  return { at: at ?? entry?.created, by: entry?.user || undefined }
}

/** "2026-12-02 05:40:12 UTC" from the cluster's ISO time. */
function shownTime(iso: string): string {
  const time = Date.parse(iso)
  return Number.isFinite(time) ? `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')} UTC` : iso
}

/** " by alice@example.com at 2026-12-02 05:40:12 UTC", or what of it the cluster said. */
export function changeNote(change: LastChange): string {
  return [change.by ? ` by ${change.by}` : '', change.at ? ` at ${shownTime(change.at)}` : ''].join('')
}

/** The message at one field in conflict. */
export function conflictMessage(conflict: FieldConflict, change: LastChange): string {
  return (
    `Changed${changeNote(change)} since you opened this form: now “${conflict.now}”. Your ` +
    `value is kept here; save again to replace it.`
  )
}

/** The message at the top of a refused form. */
export function conflictSummary(conflicts: readonly FieldConflict[], change: LastChange): string {
  const names = conflicts.map((conflict) => conflict.label).join(', ')
  return (
    `Not saved: ${names} ${conflicts.length === 1 ? 'was' : 'were'} ` +
    `changed${changeNote(change)} since you opened this form ` +
    `(${conflicts.map((conflict) => `${conflict.label} is now “${conflict.now}”`).join('; ')}). ` +
    `What you typed is kept: look at the values now and save again.`
  )
}

type Refusable = {
  payload: Record<string, unknown>
  reply(options?: {
    formErrors?: string[]
    fieldErrors?: Record<string, string[]>
    hideFields?: string[]
  }): SubmissionResult<string[]>
}

export type RefusalOptions = {
  /** The object as the cluster holds it now (its `name` and `modified` say who and when). */
  current: { name?: unknown; modified?: unknown }
  /** The original the form carries next (`seenAgain`), as its hidden input's text. */
  original: string
  /** Where a conflict's message goes (default: its own field). */
  placeOf?: (conflict: FieldConflict) => string
  /** Form errors after the summary. */
  notes?: string[]
  hideFields?: string[]
  /** More keys of the answer (what the page's form needs to render again). */
  extra?: Record<string, unknown>
}

/**
 * The answer to a save with fields in conflict: 409, the form kept as posted (what was typed is
 * not lost), each conflict's message at its field and a summary at the top naming the fields, their
 * values now, and who changed them when the cluster says; the form's `original` updated so that a
 * second save replaces those values on purpose.
 */
export async function refuseConflicts(
  api: ClusterApi,
  submission: Refusable,
  conflicts: readonly FieldConflict[],
  options: RefusalOptions,
) {
  const change = await lastChangeOf(api, options.current)
  const fieldErrors: Record<string, string[]> = {}
  for (const conflict of conflicts) {
    const place = options.placeOf?.(conflict) ?? conflict.field
    ;(fieldErrors[place] ??= []).push(
      place === conflict.field
        ? conflictMessage(conflict, change)
        : `${conflict.label}: ${conflictMessage(conflict, change)}`,
    )
  }
  submission.payload.original = options.original
  const result = submission.reply({
    fieldErrors,
    formErrors: [conflictSummary(conflicts, change), ...(options.notes ?? [])],
    hideFields: options.hideFields,
  })
  return data(
    { result, conflicts: conflicts.map((conflict) => conflict.field), ...(options.extra ?? {}) },
    { status: 409 },
  )
}

/**
 * For an editor whose `original` is its rendered values (decisions 072–074): the refusal when a
 * field the save writes changed on the cluster meanwhile, else null (the save goes ahead).
 * `now`: the object as the cluster holds it, rendered by the function that rendered the original.
 */
export async function refuseChangedMeanwhile(
  api: ClusterApi,
  submission: Refusable,
  options: Omit<Parameters<typeof placeConflicts>[0], 'seen'> & Omit<RefusalOptions, 'original'>,
) {
  const seen = parseOriginal(options.formData.get('original'))
  const conflicts = placeConflicts({ ...options, seen })
  if (!seen || !conflicts.length) return null
  return refuseConflicts(api, submission, conflicts, {
    ...options,
    original: JSON.stringify(seenAgain(seen, options.now, conflicts)),
  })
}
