import { parseWithZod as conformParseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'

/*
 * What a submission may look like before conform reads it (issue 37: no submission is a 500). A
 * browser or a script can post anything: a `__intent__` that is not conform's JSON (`x`, `[]`), it
 * or `__state__` repeated, list rows at huge or missing indices (`columns[99999999].name`), ten
 * thousand rows. conform throws on the first two and builds a sparse array of the index for the
 * others, which schemas then walk. Here such a submission is read without the parts that cannot be
 * read and answered as a refusal: its status is 'error' with a form error, so every action's usual
 * "not valid: 400 with the form as it was" path answers it, with what could be read kept.
 */

/** The most rows a list field (`name[i]…`) may have. */
export const MAX_LIST_ROWS = 2_000
/** The most fields a form may have. */
export const MAX_FIELDS = 50_000

export const MALFORMED_FORM_MESSAGE =
  'This form could not be read as sent: submit it again from the page (nothing was changed).'
/**
 * The rows of each list a refused submission with too many rows comes back with: the form renders
 * every row through conform, whose field tracking costs grow with the square of the fields read (a
 * 2,000-row transform form took minutes of one core: `npm run fuzz`, issue 37).
 */
export const ROWS_KEPT_WHEN_TOO_MANY = 100
export const TOO_MANY_ROWS_MESSAGE =
  `This form has more rows than the console takes ` +
  `(${MAX_LIST_ROWS.toLocaleString('en-US')}): nothing was changed. The ` +
  `first ${ROWS_KEPT_WHEN_TOO_MANY} rows are shown.`

const INTENT = '__intent__'
const STATE = '__state__'
const INTENT_TYPES = new Set(['validate', 'update', 'reset', 'insert', 'remove', 'reorder'])

function isIndex(value: unknown): boolean {
  return (
    value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_LIST_ROWS)
  )
}

/** Whether `raw` is an intent conform writes: JSON `{type, payload}` of a known type, its indices in range. */
function isIntent(raw: FormDataEntryValue): boolean {
  if (typeof raw !== 'string') return false
  let intent: unknown
  try {
    intent = JSON.parse(raw)
  } catch {
    return false
  }
  if (!intent || typeof intent !== 'object' || Array.isArray(intent)) return false
  const { type, payload } = intent as { type?: unknown; payload?: unknown }
  if (typeof type !== 'string' || !INTENT_TYPES.has(type)) return false
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return false
  const { name, index, from, to } = payload as Record<string, unknown>
  if (name !== undefined && typeof name !== 'string') return false
  return isIndex(index) && isIndex(from) && isIndex(to)
}

/**
 * Checks a submission's shape. Returns null when conform can read it as is; otherwise the form data
 * without what cannot be read (a malformed intent or state, rows past MAX_LIST_ROWS, list rows
 * renumbered in their order) and the message to show.
 */
export function checkFormShape(formData: FormData): { cleaned: FormData; message: string } | null {
  const intents = formData.getAll(INTENT)
  const states = formData.getAll(STATE)
  let message: string | null = null
  if (intents.length > 1 || (intents.length === 1 && !isIntent(intents[0]!))) message = MALFORMED_FORM_MESSAGE
  if (states.length > 1 || states.some((state) => typeof state !== 'string' || !isJsonObject(state)))
    message = MALFORMED_FORM_MESSAGE
  let count = 0
  // per list (the path before `[i]`), the indices in the order they come
  const lists = new Map<string, number[]>()
  for (const [name] of formData) {
    count++
    for (const match of name.matchAll(/\[(\d*)\]/g)) {
      const list = name.slice(0, match.index)
      const index = match[1] === '' ? -1 : Number(match[1])
      if (index === -1) continue
      let seen = lists.get(list)
      if (!seen) lists.set(list, (seen = []))
      if (!seen.includes(index)) seen.push(index)
    }
  }
  if (count > MAX_FIELDS) message = TOO_MANY_ROWS_MESSAGE
  for (const indices of lists.values()) {
    if (indices.length > MAX_LIST_ROWS || indices.some((index) => index >= MAX_LIST_ROWS)) {
      message = indices.length > MAX_LIST_ROWS ? TOO_MANY_ROWS_MESSAGE : (message ?? MALFORMED_FORM_MESSAGE)
    }
    // out of order or with gaps: conform reads them by index into a sparse array
    const sorted = [...indices].sort((a, b) => a - b)
    if (sorted.some((index, position) => index !== position)) message ??= MALFORMED_FORM_MESSAGE
  }
  if (message === null) return null
  return {
    cleaned: cleanForm(formData, lists, message === TOO_MANY_ROWS_MESSAGE ? ROWS_KEPT_WHEN_TOO_MANY : MAX_LIST_ROWS),
    message,
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return Boolean(value) && typeof value === 'object'
  } catch {
    return false
  }
}

/** The fields conform can read: no intent or state, each list's rows renumbered 0… in their order, at most `maxRows`. */
function cleanForm(formData: FormData, lists: Map<string, number[]>, maxRows: number): FormData {
  const renumber = new Map<string, Map<number, number>>()
  for (const [list, indices] of lists) {
    const order = [...indices].sort((a, b) => a - b)
    renumber.set(list, new Map(order.slice(0, maxRows).map((index, position) => [index, position])))
  }
  const cleaned = new FormData()
  let count = 0
  fields: for (const [name, value] of formData) {
    if (name === INTENT || name === STATE) continue
    if (++count > MAX_FIELDS) break
    let renamed = ''
    let last = 0
    for (const match of name.matchAll(/\[(\d+)\]/g)) {
      const list = name.slice(0, match.index)
      const position = renumber.get(list)?.get(Number(match[1]))
      if (position === undefined) continue fields
      renamed += `${name.slice(last, match.index)}[${position}]`
      last = match.index + match[0].length
    }
    cleaned.append(renamed + name.slice(last), value)
  }
  return cleaned
}

type ParseOptions = Parameters<typeof conformParseWithZod>[1]
type Submission = {
  payload: Record<string, unknown>
  error?: Record<string, string[] | null>
  reply: (options?: Record<string, unknown>) => unknown
}

/** Whether parseWithZod refused `submission` for its shape (a form conform could not read as sent). */
export function isShapeRefusal(submission: { error?: Record<string, unknown> | null }): boolean {
  const formErrors = submission.error?.['']
  return (
    Array.isArray(formErrors) &&
    formErrors.some((message) => message === MALFORMED_FORM_MESSAGE || message === TOO_MANY_ROWS_MESSAGE)
  )
}

/**
 * A field the page sets itself (a hidden field: the table a source belongs to, the summary form's
 * tab state): a value the schema refuses was not sent by the page, and no field on the page can show
 * its error. Its refusal says MALFORMED_FORM_MESSAGE, which parseWithZod lifts to the top of the form
 * (issue 37, `npm run fuzz`: a hidden field sent twice answered 400 with nothing shown).
 */
export function setByThePage() {
  return z.string({ error: MALFORMED_FORM_MESSAGE }).min(1, { error: MALFORMED_FORM_MESSAGE })
}

/** Whether a field's (not the form's) errors say the form could not be read as sent (setByThePage). */
function isUnreadableField(submission: Submission): boolean {
  return Object.entries(submission.error ?? {}).some(
    ([name, errors]) => name !== '' && Boolean(errors?.includes(MALFORMED_FORM_MESSAGE)),
  )
}

/** `submission` refused with `message` first among the form's errors, in its errors and in its reply. */
function withFormError(submission: Submission, message: string) {
  const formErrors = submission.error?.[''] ?? []
  return {
    status: 'error' as const,
    payload: submission.payload,
    error: { ...(submission.error ?? {}), '': [message, ...formErrors] },
    reply: (replyOptions: Record<string, unknown> = {}) =>
      submission.reply({
        ...replyOptions,
        formErrors: [message, ...((replyOptions.formErrors as string[] | undefined) ?? formErrors)],
      }),
  }
}

/**
 * conform's parseWithZod, for every form of the console (vite/guarded-conform-parse.ts points
 * `@conform-to/zod/v4`'s parseWithZod here): a submission conform cannot read (checkFormShape) is
 * parsed without the parts it cannot read and comes back refused, with the form error first, so the
 * action answers it as any invalid submission (400, the form kept). A refused field the page sets
 * itself (setByThePage) puts the same message on top of the form, where the page shows it.
 */
export const parseWithZod = ((formData: FormData | URLSearchParams, options: ParseOptions) => {
  const shape = formData instanceof FormData ? checkFormShape(formData) : null
  const finish = (parsed: Submission) => {
    const message = shape?.message ?? (isUnreadableField(parsed) ? MALFORMED_FORM_MESSAGE : null)
    return message && !parsed.error?.['']?.includes(message) ? withFormError(parsed, message) : parsed
  }
  const parsed = conformParseWithZod(shape ? shape.cleaned : formData, options) as unknown
  if (parsed instanceof Promise) return parsed.then((submission) => finish(submission as Submission))
  return finish(parsed as Submission)
}) as unknown as typeof conformParseWithZod
