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
 * A form value as comparable text: what a browser does to it. An input's value loses its line
 * breaks; a textarea's are posted as CR LF and its first newline is dropped by the HTML parser.
 */
export function comparableText(value: unknown, isMultiline: boolean): string {
  if (value === undefined || value === null) return ''
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
