import { registerCache } from '~/utils/caches.server'
import type { ClusterApi } from './client.server'
import { cachedRead } from './read-cache.server'

/**
 * Answers kept by configuration generation (decision 113). The local cluster stamps an answer made
 * from configuration alone (a list of projects, a table, its transforms: the stored objects and the
 * caller's grants, nothing of the engine, the clock or activity) with the configuration generation
 * it was made at (`X-Config-Generation`), and stamps the caller's `users/current` answer, which every
 * page reads, with the generation as it is now. A kept answer of the same session and URL is shown
 * again only when its stamp is the generation this request's own `users/current` answer named: the
 * cluster said, during this request, that nothing any such answer reads has changed since it was
 * made, on any replica or through any tool. Otherwise (a change since, no stamp on this request's
 * answer, a cluster that stamps nothing) the read goes to the cluster as it always did.
 *
 * The text is kept, not the parsed value: each request parses its own copy, so no caller can change
 * what another is shown.
 */
export const MAX_KEPT_ANSWERS = 5_000
/** All kept texts together, in characters: the oldest out beyond it. */
export const MAX_KEPT_CHARS = 32 * 1024 * 1024
/** A longer answer is not kept (one page of a list is at most a few hundred KB). */
export const MAX_ANSWER_CHARS = 1024 * 1024

/**
 * Reuse can be switched off (`GENERATION_REUSE=off` at start) to weigh it with the load bench. Read
 * once: `process.env` is a call into the runtime on every read (0.2% of the console's CPU, asked on
 * every configuration read).
 */
let off = process.env.GENERATION_REUSE === 'off'
const isOff = () => off

/** Switches reuse off or on again (tests); returns a function that restores what it was. */
export function setGenerationReuse(on: boolean): () => void {
  const before = off
  off = !on
  return () => {
    off = before
  }
}

type Kept = { generation: string; text: string }
const kept = new Map<string, Kept>()
let keptChars = 0

registerCache({
  name: 'answers-by-generation',
  file: 'app/api/generation-kept.server.ts',
  variable: 'kept',
  holds:
    "a cluster answer stamped with the configuration generation it was made at, shown again only when this request's users/current names the same generation",
  key: 'session (org, token digest) and URL',
  lifetime:
    'until replaced or pushed out; every use is checked against the generation the cluster names in the same request',
  bound: `${MAX_KEPT_ANSWERS} answers and ${MAX_KEPT_CHARS / 1024 / 1024} M characters, the least recently used out`,
  forgottenBy: 'a newer answer of the same URL, an unstamped one, or room for newer answers',
  writesChangeIt: false,
  size: () => kept.size,
})

/** The kept answer of `key` (session and URL), most recently used now; undefined when none. */
export function keptAnswer(key: string): Kept | undefined {
  if (isOff()) return undefined
  const entry = kept.get(key)
  if (!entry) return undefined
  kept.delete(key)
  kept.set(key, entry)
  return entry
}

/** Keeps `text` for `key` under its stamp, or forgets `key` when the answer has none (or is too long). */
export function keepAnswer(key: string, generation: string | null | undefined, text: string): void {
  const before = kept.get(key)
  if (before) {
    kept.delete(key)
    keptChars -= before.text.length
  }
  if (!generation || isOff() || text.length > MAX_ANSWER_CHARS) return
  kept.set(key, { generation, text })
  keptChars += text.length
  for (const [oldest, entry] of kept) {
    if (kept.size <= MAX_KEPT_ANSWERS && keptChars <= MAX_KEPT_CHARS) break
    kept.delete(oldest)
    keptChars -= entry.text.length
  }
}

/** How many answers are kept, and their characters (tests). */
export function keptAnswerStats(): { answers: number; chars: number } {
  return { answers: kept.size, chars: keptChars }
}

/** Forgets every kept answer (tests). */
export function forgetKeptAnswers(): void {
  kept.clear()
  keptChars = 0
}

type GenerationSource = (api: ClusterApi) => Promise<string | undefined>
let source: GenerationSource | undefined

/**
 * Names how a request learns the configuration generation: the session's `users/current` read
 * (users.server registers it, since every page reads that answer anyway).
 */
export function setGenerationSource(next: GenerationSource): void {
  source = next
}

/**
 * The configuration generation the cluster named in this request (read once per request, shared by
 * its loaders, and read again after a write in it: read-cache's per-request reads); undefined when
 * the cluster names none or the read failed (the caller then reads as usual, and meets the failure
 * itself).
 */
export function requestGeneration(api: ClusterApi): Promise<string | undefined> {
  const from = source
  if (!from || isOff()) return Promise.resolve(undefined)
  return cachedRead(api, 'config-generation', () => from(api).catch(() => undefined))
}
