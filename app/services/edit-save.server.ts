import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ClusterApi } from '~/api/client.server'
import { replyFromCluster, type ReplyOptions } from '~/api/policies.server'
import { mergeChanged, parseOriginal, type EditForm, type FieldPlaces, type Json } from '~/schemas/lossless'
import { refuseChangedMeanwhile } from '~/utils/edit-conflict.server'

/*
 * One lossless save for the editors (issue 53 point 1): the form's original, the fields it kept,
 * the parse by the editor's declared edit form (decision 103), the object read again, a refusal
 * when a field the save writes changed on the cluster meanwhile (097), the changed fields merged
 * onto what the cluster holds (056, 072), the write, and the cluster's refusal back on the form.
 */

type FormSchema = import('zod').ZodType

/**
 * An edit's posted form read by its editor's edit form: its `original` (none on a create, whatever
 * was posted), the fields posted as rendered from it (none without one) and the submission parsed
 * by `schemaOf`, the same rule as the browser's check; without an original by `strict` when given
 * (else `schemaOf`, which then keeps nothing).
 */
export function parseEdit<C, S extends FormSchema>(
  formData: FormData,
  form: EditForm<C, S>,
  context: C,
  options: { isEdit?: boolean; strict?: S } = {},
) {
  const original = options.isEdit === false ? undefined : parseOriginal(formData.get('original'))
  const kept = original ? form.kept(formData, context) : []
  const schema = original || !options.strict ? form.schemaOf(formData, context) : options.strict
  return { original, kept, submission: parseWithZod(formData, { schema }) }
}

/** What `saveEdit` needs of an editor besides the checked form. */
export type EditSave<Value, Stored, Saved> = {
  formData: FormData
  /** The fields posted as rendered (`parseEdit`): neither compared nor written. */
  kept: readonly string[]
  /** The object as the cluster holds it now: what the save is compared with and written onto. */
  read: () => Promise<Stored>
  /** `read`'s object rendered as the form renders it (the original's shape). */
  rendered: (stored: Stored) => Json
  /** Where each rendered field is stored: what is compared, and written unless kept. */
  places: FieldPlaces
  /** Fields written too though the form never renders them (secrets: never kept, never compared). */
  alsoWrites?: FieldPlaces
  /** The fields as a refusal names them. */
  labels: Record<string, string>
  multiline?: readonly string[]
  /** Who and when a refusal names (default: the stored object's `name` and `modified`). */
  current?: (stored: Stored) => { name?: unknown; modified?: unknown }
  /** The stored keys the changed fields are written onto: the whole writable object, or `{}` for a PATCH of the changes. */
  onto: (stored: Stored) => Json
  /** The body the form's values make in full. */
  body: (value: Value, stored: Stored) => Json
  /** Sends the merged body; returns what the cluster saved. */
  write: (merged: Json, stored: Stored) => Promise<Saved>
  /** The answer once saved (a redirect with a toast). */
  done: (saved: Saved) => Response | Promise<Response>
  /** Where the cluster's field errors show on the form; a function when they depend on the error. */
  rename?: Record<string, string> | ((error: unknown) => Record<string, string>)
} & Pick<ReplyOptions, 'hideFields' | 'notes'>

/**
 * Saves a checked edit form losslessly: reads the object, answers 409 with the form kept when a field
 * this save writes changed meanwhile, else writes the changed fields' places from `body` onto
 * `onto` (every other stored value as the cluster holds it) and answers `done`. A cluster failure
 * comes back on the form (replyFromCluster) with everything typed kept.
 */
export async function saveEdit<Value, Stored, Saved>(
  api: ClusterApi,
  submission: Submission<unknown, string[], Value> & { status: 'success'; value: Value },
  save: EditSave<Value, Stored, Saved>,
) {
  const { formData, kept, places, hideFields, notes } = save
  try {
    const stored = await save.read()
    const refusal = await refuseChangedMeanwhile(api, submission, {
      formData,
      now: save.rendered(stored),
      places,
      kept,
      labels: save.labels,
      multiline: save.multiline,
      current: save.current ? save.current(stored) : (stored as { name?: unknown; modified?: unknown }),
      hideFields,
    })
    if (refusal) return refusal
    const writes = save.alsoWrites ? { ...places, ...save.alsoWrites } : places
    const merged = mergeChanged(save.onto(stored), save.body(submission.value, stored), writes, kept)
    return await save.done(await save.write(merged, stored))
  } catch (error) {
    const rename = typeof save.rename === 'function' ? save.rename(error) : save.rename
    return replyFromCluster(submission, error, { rename, hideFields, notes })
  }
}
