import { STATUS_CODES } from 'node:http'

/** Which call failed, where the catalogue words a 401 differently (spec section 8). */
export type ErrorContext = 'default' | 'version' | 'monitoring'

export const GENERIC_MESSAGE = 'Something went wrong'
export const NO_RESPONSE_MESSAGE = "API unavailable at the moment, we'll be back shortly."
export const TIMEOUT_MESSAGE = 'The request has timed out'

export type FieldErrors = Record<string, string[]>
export type MappedErrors = { fieldErrors: FieldErrors; formErrors: string[] }

/** Keys a DRF-style body uses for errors that belong to no field; folded into one form error. */
const FORM_ERROR_KEYS = ['non_field_errors', 'non_field_error', 'detail', 'error_description'] as const

type ErrorDetails = {
  status: number
  statusText?: string
  body?: unknown
  /** The request URL; a `?query=` request answers a 400 with a body meant to be shown as is. */
  url?: string
  context?: ErrorContext
  supportEmail?: string
}

/**
 * A failed cluster call: `status` is the catalogue's code (408 for a time-out, 503 when nothing
 * answered), `message` the catalogue's text, `body` the parsed response body when there was one.
 */
export class ClusterError extends Error {
  readonly status: number
  readonly statusText: string
  readonly body: unknown
  readonly url: string | undefined
  readonly context: ErrorContext

  constructor(details: ErrorDetails & { message?: string }) {
    const statusText = details.statusText || STATUS_CODES[details.status] || ''
    super(details.message ?? catalogueMessage({ ...details, statusText }))
    this.name = 'ClusterError'
    this.status = details.status
    this.statusText = statusText
    this.body = details.body
    this.url = details.url
    this.context = details.context ?? 'default'
  }

  /** The body's errors mapped to form fields and one general error (empty when there is no body). */
  get mapped(): MappedErrors {
    return mapFieldErrors(this.body)
  }
}

export function isClusterError(error: unknown): error is ClusterError {
  return error instanceof ClusterError
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value
  if (Array.isArray(value)) {
    const strings = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    if (strings.length) return strings.join(' ')
  }
  return undefined
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null || body === '') return undefined
  return typeof body === 'string' ? body : JSON.stringify(body)
}

function isQueryRequest(url: string | undefined): boolean {
  if (!url) return false
  try {
    return new URL(url).searchParams.has('query')
  } catch {
    return /[?&]query=/.test(url)
  }
}

/** Returns the spec's catalogue message (section 8) for a failed call. */
export function catalogueMessage(details: ErrorDetails): string {
  const { status, body } = details
  const statusText = details.statusText || STATUS_CODES[status] || ''
  const record = isRecord(body) ? body : {}
  switch (status) {
    case 408:
      return TIMEOUT_MESSAGE
    case 500:
      return (
        `Internal server error. If this is reoccurring, please contact us ` +
        `at ${details.supportEmail ?? process.env.SUPPORT_EMAIL ?? 'support@hydrolix.io'}`
      )
    case 501:
      return 'Not Implemented.'
    case 502:
      return 'Bad Gateway.'
    case 503:
      // A 503 from the cluster and no answer at all share the code; only the latter has no body text.
      return details.body === undefined ? NO_RESPONSE_MESSAGE : 'Service Unavailable.'
    case 504:
      return 'Gateway Timeout.'
    case 401:
      if (details.context === 'version') return 'Version cannot be accessed'
      if (details.context === 'monitoring') return 'This panel cannot be accessed'
      return stringOf(record.detail) ?? statusText
    case 403:
      return stringOf(record.detail) ?? stringOf(record.message) ?? statusText
    case 404:
      return `404 Error: ${statusText}.`
    case 406:
      return statusText
    case 400:
      if (isQueryRequest(details.url)) return bodyText(body) ?? statusText
      return firstMessage(mapFieldErrors(body)) ?? GENERIC_MESSAGE
    default:
      return (
        firstMessage(mapFieldErrors(body)) ??
        stringOf(record.message) ??
        (statusText ? `${status} ${statusText}` : GENERIC_MESSAGE)
      )
  }
}

function firstMessage({ fieldErrors, formErrors }: MappedErrors): string | undefined {
  if (formErrors.length) return formErrors.join(' ')
  const [field, messages] = Object.entries(fieldErrors)[0] ?? []
  return field && messages?.length ? `${field}: ${messages.join(' ')}` : undefined
}

/**
 * Maps a DRF-style error body to conform's shape.
 * - `{field: [msgs]}` → `fieldErrors.field`.
 * - `non_field_errors`, `non_field_error`, `detail`, `error_description` → one `formErrors` entry.
 * - Nested objects (a table's `settings`) flatten to dotted keys, list items to `[i]`:
 *   `{settings: {stream: {hot_data_max_age_minutes: ['…']}}}` → `settings.stream.hot_data_max_age_minutes`,
 *   `{output_columns: [{}, {name: ['…']}]}` → `output_columns[1].name`. These are conform's own
 *   names for nested fields, so a form field named that way shows the error where it belongs.
 * - A plain string body becomes the form error.
 */
export function mapFieldErrors(body: unknown): MappedErrors {
  const fieldErrors: FieldErrors = {}
  const general: string[] = []
  if (typeof body === 'string') {
    if (body.trim()) general.push(body.trim())
    return { fieldErrors, formErrors: general }
  }
  if (Array.isArray(body)) {
    const text = stringOf(body)
    return { fieldErrors, formErrors: text ? [text] : [] }
  }
  if (!isRecord(body)) return { fieldErrors, formErrors: [] }

  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      ;(fieldErrors[path] ??= []).push(String(value))
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (isRecord(item) || Array.isArray(item)) visit(item, `${path}[${index}]`)
        else if (item !== null && item !== undefined && item !== '') visit(item, path)
      })
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (FORM_ERROR_KEYS.includes(key as (typeof FORM_ERROR_KEYS)[number])) {
          const text = stringOf(inner)
          // A general error inside a nested object still belongs to that object.
          if (text) (fieldErrors[path] ??= []).push(text)
        } else visit(inner, `${path}.${key}`)
      }
    }
  }

  for (const [key, value] of Object.entries(body)) {
    if (key === '_error') continue
    if (FORM_ERROR_KEYS.includes(key as (typeof FORM_ERROR_KEYS)[number])) {
      const text = stringOf(value)
      if (text) general.push(text)
    } else visit(value, key)
  }
  return { fieldErrors, formErrors: general.length ? [general.join(' ')] : [] }
}

/** The toast text for a failure: `_error.message`, then `non_field_error(s)`, then the generic text. */
export function toastMessage(error: unknown): string {
  const body = error instanceof ClusterError ? error.body : isRecord(error) ? error : undefined
  if (isRecord(body)) {
    const inner = isRecord(body._error) ? stringOf(body._error.message) : undefined
    if (inner) return inner
    const nonField = stringOf(body.non_field_error) ?? stringOf(body.non_field_errors)
    if (nonField) return nonField
  }
  return GENERIC_MESSAGE
}
