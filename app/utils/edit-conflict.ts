import { isTextChanged, type FieldPlaces, type Json } from '~/schemas/lossless'

/*
 * No silent lost update (issue 50, decision 097). An edit form carries what it was rendered from
 * (its `original`, decisions 056 and 072); a save writes only the fields the operator changed onto
 * the object as the cluster holds it *now*. A field the operator changed is in conflict when the
 * cluster's value of it is no longer the one the form showed (someone else saved it meanwhile) and
 * differs from what was posted: writing it would silently undo the other change. Fields the
 * operator left alone take the cluster's current value (the merge, as before). The posted original
 * is used only for this comparison: what is written always starts from the cluster's copy.
 */

/** One field a save writes, with the three values that decide whether it is in conflict. */
export type WrittenField = {
  /** The form field's name: where the refusal is shown. */
  field: string
  label: string
  /** The field as the form rendered it from its original (what the operator saw). */
  seen: unknown
  /** The field rendered the same way from the object as the cluster holds it now. */
  now: unknown
  /** What the form posted for it. */
  posted: unknown
  isMultiline?: boolean
}

/** A field changed by the operator and, since the form was opened, by someone else. */
export type FieldConflict = {
  field: string
  label: string
  /** Its value now, as the form shows it. */
  now: string
}

/** The text of a rendered value as a message shows it. */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null || value === false || value === '') return '(empty)'
  if (value === true || value === 'on') return 'on'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/**
 * The fields in conflict among those a save writes: changed on the cluster since the form was
 * rendered (`now` is not `seen`) and posted as something else than `now`. Two people making the
 * same change do not conflict.
 */
export function conflictsOf(fields: readonly WrittenField[]): FieldConflict[] {
  return fields
    .filter((f) => isTextChanged(f.now, f.seen, f.isMultiline) && isTextChanged(f.posted, f.now, f.isMultiline))
    .map((f) => ({ field: f.field, label: f.label, now: shownValue(f.now) }))
}

/**
 * `conflictsOf` for an editor whose `original` is its rendered values (a field → value map, as
 * `keptFields` reads it): the fields written are those of `places` not in `kept`; `now` is the
 * object as the cluster holds it, rendered by the same function that rendered the original.
 */
export function placeConflicts(options: {
  formData: FormData
  seen: Json | undefined
  now: Json
  places: FieldPlaces
  kept: readonly string[]
  labels: Record<string, string>
  multiline?: readonly string[]
}): FieldConflict[] {
  const { formData, seen, now, places, kept, labels, multiline = [] } = options
  if (!seen) return []
  return conflictsOf(
    Object.keys(places)
      .filter((field) => !kept.includes(field))
      .map((field) => ({
        field,
        label: labels[field] ?? field,
        seen: seen[field],
        now: now[field],
        posted: formData.get(field),
        isMultiline: multiline.includes(field),
      })),
  )
}

/**
 * The original a refused form carries next: the one it had, with the conflicting fields as the
 * cluster holds them now. Saved again, the operator's value replaces the other one (they have seen
 * it); every other field still compares with what the form first showed.
 */
export function seenAgain(seen: Json, now: Json, conflicts: readonly FieldConflict[]): Json {
  const out = { ...seen }
  for (const { field } of conflicts) {
    if (now[field] === undefined) delete out[field]
    else out[field] = now[field]
  }
  return out
}

/** A form's `original` for its hidden input: the one the last answer carried (after a refusal), else the page's. */
export function originalOf(
  lastResult: { initialValue?: Record<string, unknown> | null } | null | undefined,
  fallback: unknown,
): string | undefined {
  const replied = lastResult?.initialValue?.original
  if (typeof replied === 'string' && replied) return replied
  return typeof fallback === 'string' && fallback ? fallback : undefined
}
