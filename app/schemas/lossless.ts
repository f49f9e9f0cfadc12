/**
 * Lossless editing (decisions 056 and 072): an edit form carries what it was rendered from (a
 * hidden `original`, JSON), and a save writes only the fields whose posted value differs from the
 * value the form rendered from that original; every other stored value (null, "", absent, unknown
 * keys, a type the form cannot name) stays as the cluster holds it. Safe on both sides.
 */

export type Json = Record<string, unknown>

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The parsed `original` of a form; undefined when there is none or it is not a JSON object. */
export function parseOriginal(text: unknown): Json | undefined {
  if (typeof text !== 'string' || !text) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * A form value as comparable text: what a browser does to it (a rendered boolean is a checkbox). An input's value loses its line
 * breaks; a textarea's are posted as CR LF and its first newline is dropped by the HTML parser.
 */
export function comparableText(value: unknown, isMultiline: boolean): string {
  if (value === undefined || value === null || value === false) return ''
  if (value === true) return 'on' // a ticked checkbox posts "on"; an unticked one posts nothing
  const text = typeof value === 'string' ? value : String(value)
  return isMultiline ? text.replace(/\r\n?/g, '\n').replace(/^\n/, '') : text.replace(/[\r\n]/g, '')
}

/** Whether a posted value differs from the value the form rendered (both as a browser posts them). */
export function isTextChanged(posted: unknown, rendered: unknown, isMultiline = false): boolean {
  return comparableText(posted, isMultiline) !== comparableText(rendered, isMultiline)
}

/** Whether two JSON values are the same (key order included: what the cluster gives back). */
export function isSameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Where each form field is written in the stored object (`['settings', 'topics']`). */
export type FieldPlaces = Record<string, string[][]>

/**
 * The form fields posted as the form rendered them (`rendered`: the values the edit form was
 * rendered with, its `original`); none without them. A field sharing a place in the object with a
 * changed field counts as changed too (min and max replicas are one value).
 */
export function keptFields(
  formData: FormData,
  rendered: Json | undefined,
  places: FieldPlaces,
  multiline: readonly string[] = [],
): string[] {
  if (!rendered) return []
  const fields = Object.keys(places)
  const changed = fields.filter((field) =>
    isTextChanged(formData.get(field), rendered[field], multiline.includes(field)),
  )
  const touched = new Set(changed.flatMap((field) => places[field]!.map((path) => path.join('.'))))
  return fields.filter((field) => !places[field]!.some((path) => touched.has(path.join('.'))))
}

/**
 * `keptFields` of an edit form as posted, with the `original` it carries: one rule for the browser's
 * check and the action's, so a stored value the form's rules refuse, posted unchanged, passes both.
 */
export function keptFieldsOfForm(formData: FormData, places: FieldPlaces, multiline: readonly string[] = []): string[] {
  return keptFields(formData, parseOriginal(formData.get('original')), places, multiline)
}

function valueAtPath(record: unknown, path: string[]): unknown {
  let value = record
  for (const key of path) {
    if (!isObject(value)) return undefined
    value = value[key]
  }
  return value
}

function writeAtPath(record: Json, path: string[], value: unknown) {
  let node = record
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {}
    node = node[key] as Json
  }
  const last = path[path.length - 1]!
  if (value === undefined) delete node[last]
  else node[last] = value
}

/**
 * The stored object with the places of the changed fields taken from `body` (what the form's values
 * build); every other key of the stored object as it was. A place absent from `body` is removed.
 */
export function mergeChanged(stored: Json, body: Json, places: FieldPlaces, kept: readonly string[]): Json {
  const out = structuredClone(stored)
  for (const [field, paths] of Object.entries(places)) {
    if (kept.includes(field)) continue
    for (const path of paths) writeAtPath(out, path, structuredClone(valueAtPath(body, path)))
  }
  return out
}

/**
 * The values of a select's options with the current value among them (a select posts what it shows).
 * A blank current value comes first: the form holds "" as no value, and a select with none selected
 * posts its first option.
 */
export function withCurrent(options: readonly string[], current: unknown): string[] {
  const value = current === undefined || current === null ? '' : String(current)
  if (!value) return ['', ...options.filter(Boolean)]
  return options.includes(value) ? [...options] : [...options, value]
}

/** A zod schema as the edit forms use it (type only: this module stays free of zod at run time). */
type FormSchema = import('zod').ZodType

/**
 * An editor's lossless form, declared once in its schema module (decision 103): which posted fields
 * are kept (posted as rendered from the stored object) and the schema a posted form is checked by.
 * The browser's check (`useLazySchemaForm`'s `schemaOf`) and the action's parse both call
 * `schemaOf`, so a stored value the form's rules refuse, posted unchanged, passes or fails the same
 * way in both. `context` is what the rule needs besides the form (a source's kind, a credential
 * type's fields).
 */
export type EditForm<C = undefined, S extends FormSchema = FormSchema> = {
  readonly isEditForm: true
  /** Names the editor in tests and messages. */
  name: string
  /** The fields posted as the form rendered them from the stored object; none without `original`. */
  kept(formData: FormData, context: C): string[]
  /** The schema a posted form is checked by, in the browser and in the action alike. */
  schemaOf(formData: FormData, context: C): S
  /**
   * A stored object holding a value the strict rule refuses, as the form renders it (`rendered`:
   * field → posted text, several for a multiple field), with the strict schema that refuses it. The
   * edit-forms test posts it unchanged and expects `schemaOf` to take it.
   */
  example: { rendered: Record<string, string | string[]>; context: C; strict: FormSchema }
}

/** Declares an editor's lossless form (see `EditForm`). */
export function defineEditForm<C = undefined, S extends FormSchema = FormSchema>(
  form: Omit<EditForm<C, S>, 'isEditForm'>,
): EditForm<C, S> {
  return { isEditForm: true, ...form }
}

/** Whether a module's export is an editor's lossless form. */
export function isEditForm(value: unknown): value is EditForm<unknown, FormSchema> {
  return isObject(value) && value.isEditForm === true
}
