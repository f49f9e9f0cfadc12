/**
 * Issue 50 point 5 (decision 097), the helpers of the lost-update tests: a rendered form's entries
 * with one field changed, and an action's answer as status, conform result and other keys.
 */
import { returnedOrThrown } from './session'

export type FormResult = { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
export type Answer = { status: number; result?: FormResult; data?: Record<string, unknown> }

/** `entries` with `name` posted as `value` (left out when null, as an unticked checkbox). */
export function withField(entries: [string, string][], name: string, value: string | null): [string, string][] {
  return [
    ...entries.filter(([key]) => key !== name),
    ...(value === null ? [] : ([[name, value]] as [string, string][])),
  ]
}

/** Runs an action and returns its answer: a redirect's status, or the data's status and result. */
export async function answerOf(run: () => Promise<unknown>): Promise<Answer> {
  const result = await returnedOrThrown(run)
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data?: Record<string, unknown>; init?: { status?: number } | null }
  const data = wrapped.data ?? (result as Record<string, unknown>)
  return { status: wrapped.init?.status ?? 200, result: data.result as FormResult | undefined, data }
}

/** A POST of `entries` to the console at `url` with the session `cookie`. */
export function formPost(url: string, entries: [string, string][], cookie: string, base: string): Request {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  return new Request(`${base}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
}
