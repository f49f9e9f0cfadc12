import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { createClusterApi, type ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { loadFromCluster } from '~/api/policies.server'
import { QueryError } from '~/api/query.server'
import {
  getSavedQuery,
  HistoryOff,
  queueHistoryEntry,
  listHistory,
  saveQuery,
  SavedQueriesUnavailable,
  type HistoryEntry,
} from '~/api/saved-queries.server'
import { getCurrentUser } from '~/api/users.server'
import { SavedQueryFormSchema } from '~/schemas/saved-query'
import { requireSession } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'
import { readOptions, typedOptions, validateOptions } from '~/utils/query-options'
import type { QueryOutcome } from './run.server'
import { registerCache } from '~/utils/caches.server'
import { chartViewFields } from '~/utils/chart-spec'

/**
 * The filled options as the URL query string a saved query and a history entry keep, with the
 * parameters' values (they are among the options) and the chart view (`tab=chart&chart=…&x=…`), so
 * their links reopen the same parameters and the same chart (decision 100).
 */
export function optionsQuery(options: Record<string, string>, view: [string, string][] = []): string {
  return new URLSearchParams([...Object.entries(options), ...view]).toString()
}

/** The Save control's "Share with everyone in the organization" box: checked, it sends `visibility=org`. */
export const SHARE_FIELD = 'visibility'

/** What a refused save sends back to the editor: everything typed, and the errors at their fields. */
export type SaveReply = {
  name: string
  /** The share box as it was sent. */
  isShared: boolean
  sql: string
  options: Record<string, string>
  optionErrors: Record<string, string>
  fieldErrors: { name?: string; sql?: string }
  formError?: string
}

/** A saved-queries or cluster failure as the message the page shows; null for anything else. */
export function unavailableMessage(error: unknown): string | null {
  if (
    error instanceof SavedQueriesUnavailable ||
    error instanceof HistoryOff ||
    error instanceof ClusterError ||
    error instanceof QueryError
  )
    return error.message
  return null
}

/**
 * The editor's Save (a POST of the query form through its Save button): checks the name, the SQL
 * and the options, saves, and goes to the saved query's editor link with a toast. A refusal comes
 * back as a 400 with everything typed; a missing permission as a 403 that says what is missing.
 */
export async function saveFromEditor(api: ClusterApi, formData: FormData) {
  const fields = new URLSearchParams()
  for (const [key, value] of formData) if (typeof value === 'string') fields.append(key, value)
  const options = readOptions(fields)
  const optionErrors = validateOptions(options)
  const submission = parseWithZod(formData, { schema: SavedQueryFormSchema })
  // shown again as typed on a refusal (the options too: spaces and all); saved trimmed
  const typed = {
    name: fields.get('name') ?? '',
    isShared: fields.get(SHARE_FIELD) === 'org',
    sql: fields.get('sql') ?? '',
    options: typedOptions(fields),
    optionErrors,
  }
  if (submission.status !== 'success' || Object.keys(optionErrors).length) {
    const errors = submission.status === 'success' ? {} : (submission.error ?? {})
    const fieldErrors = { name: errors.name?.[0], sql: errors.sql?.[0] }
    const reply: SaveReply = {
      ...typed,
      fieldErrors,
      formError: Object.keys(optionErrors).length ? 'Not saved: correct the options marked above.' : undefined,
    }
    return data({ save: reply }, { status: 400 })
  }
  const { name, sql } = submission.value
  const view = chartViewFields(fields)
  try {
    const { id, isOverwrite } = await loadFromCluster(async () => {
      const user = await getCurrentUser(api)
      return saveQuery(api, {
        name,
        sql,
        options: optionsQuery(options, view),
        owner: user.email,
        ownerId: api.userId,
        // private unless the box was checked (decision 105)
        visibility: typed.isShared ? 'org' : 'private',
      })
    })
    return redirectWithToast(`/queries?saved=${encodeURIComponent(id)}`, {
      title: isOverwrite ? `Saved query “${name}” updated` : `Query saved as “${name}”`,
      type: 'success',
    })
  } catch (error) {
    if (!(error instanceof SavedQueriesUnavailable)) throw error
    return data({ save: { ...typed, fieldErrors: {}, formError: error.message } satisfies SaveReply }, { status: 403 })
  }
}

/** The saved query `?saved=<id>` names, for the editor: its SQL and options, or why it cannot be shown. */
export async function loadSavedForEditor(api: ClusterApi, id: string) {
  try {
    const saved = await getSavedQuery(api, id)
    if (!saved) {
      return {
        saved: null,
        savedError:
          'This saved query was not found: it was deleted, or it was saved moments ago and the ' +
          'cluster does not show it yet (reload in a few seconds).',
      }
    }
    return { saved, savedError: null }
  } catch (error) {
    const message = unavailableMessage(error)
    if (message === null) throw error
    return { saved: null, savedError: message }
  }
}

/** The signed-in user's history for the editor; a failure is a message, never a broken page. */
export async function loadHistoryForEditor(
  api: ClusterApi,
): Promise<{ history: HistoryEntry[]; historyError: string | null }> {
  try {
    return { history: await listHistory(api), historyError: null }
  } catch (error) {
    if (error instanceof Response) throw error
    const message = unavailableMessage(error)
    if (message === null)
      console.warn(`Query history: not read (${error instanceof Error ? error.message : String(error)})`)
    return { history: [], historyError: message ?? 'The history could not be read' }
  }
}

/**
 * Appends a Run to the user's history (the Run form's POST waits for it, so the history read through
 * any replica shows it; issue 37); the promise never fails: a failure is only logged. Nothing is
 * written while the history is off (its store not created yet: a first save or Settings turns it
 * on). The user's runs are written at most once a second, together (queueHistoryEntry, decision 053).
 * It uses its own client without the page's request, so the write is not cancelled when the
 * request goes away and a refused call does not end the session.
 */
export function recordRun(
  request: Request,
  sql: string,
  options: Record<string, string>,
  outcome: QueryOutcome,
  elapsedMs: number,
  view: [string, string][] = [],
): Promise<void> {
  return (async () => {
    const api = createClusterApi(await requireSession(request))
    if ((notRecording.get(api.sessionKey) ?? 0) > Date.now()) return
    try {
      await queueHistoryEntry(api, {
        sql,
        options: optionsQuery(options, view),
        // A cached result's own run time, not the cache's answer time.
        elapsedMs: outcome.kind === 'error' ? elapsedMs : outcome.stats.elapsedMs,
        rows: outcome.kind === 'rows' ? outcome.rowCount : 0,
        error: outcome.kind === 'error' ? outcome.message : '',
      })
    } catch (error) {
      // the history is off (no store yet): nothing to record, nothing to say
      if (error instanceof HistoryOff) return
      if (!(error instanceof SavedQueriesUnavailable)) throw error
      // No permission to set the store up or to write to it: this session's runs cost no cluster calls for a while.
      if (notRecording.size > 10_000) notRecording.clear()
      notRecording.set(api.sessionKey, Date.now() + NOT_RECORDING_MS)
    }
  })().catch((error: unknown) => {
    console.warn(`Query history: a run was not recorded (${error instanceof Error ? error.message : String(error)})`)
  })
}

/** Sessions whose runs cannot be recorded, with when to try again. */
const notRecording = new Map<string, number>()
const NOT_RECORDING_MS = 60_000

registerCache({
  name: 'history-not-recording',
  file: 'app/services/query/saved.server.ts',
  variable: 'notRecording',
  holds: 'that a session cannot record its runs (no store, or no permission), so runs do not try',
  key: 'session',
  lifetime: `${NOT_RECORDING_MS / 1000} s`,
  bound: '10,000 sessions, then cleared',
  forgottenBy: 'its lifetime',
  writesChangeIt: false,
  size: () => notRecording.size,
})
