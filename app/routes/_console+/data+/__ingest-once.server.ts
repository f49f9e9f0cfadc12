import { createHash, randomUUID } from 'node:crypto'
import { registerCache } from '~/utils/caches.server'

/*
 * "Ingest the sample" once per form (issue 54, point 1; decision 098). The page's loader makes a
 * one-time token, sent back as a hidden field with the sample. The first submit of a token and a
 * sample ingests; a repeat of the same token and sample (a second click, a double POST without
 * scripts, a resubmitted form) gets the first submit's answer again, and nothing is loaded twice.
 * A submit that comes while the first is still running waits for it and answers the same.
 */

/** The field the form sends the token in. */
export const INGEST_TOKEN_FIELD = 'ingestToken'

/** How long a used token is remembered, and how many are. */
const KEEP_MS = 6 * 60 * 60 * 1000
const MAX_KEPT = 5_000

type Kept<T> = { at: number; answer: Promise<T> }
const used = new Map<string, Kept<unknown>>()

registerCache({
  name: 'ingest-tokens',
  file: 'app/routes/_console+/data+/__ingest-once.server.ts',
  variable: 'used',
  holds: "a used ingest token's answer (the rows ingested, or the refusal), to answer a repeat without ingesting again",
  key: 'the session, the one-time token the page made, and a hash of the sample sent with it',
  lifetime: `${KEEP_MS / 3_600_000} h`,
  bound: `${MAX_KEPT} entries, the oldest out`,
  forgottenBy: 'its lifetime, or the bound',
  writesChangeIt: false,
  size: () => used.size,
})

/** Returns a new one-time token for a page's ingest form. */
export function newIngestToken(): string {
  return randomUUID()
}

/**
 * Runs `ingest` once for (`sessionKey`, `token`, `sample`) and returns `{answer, isRepeat}`: a
 * repeat (the same token and sample again) answers what the first run answered and does not run
 * `ingest`. Without a token (a form from before this change) it always runs. A run that failed
 * with a thrown error is forgotten, so the form can be sent again.
 */
export async function ingestOnce<T>(
  sessionKey: string,
  token: string | null,
  sample: string,
  ingest: () => Promise<T>,
): Promise<{ answer: T; isRepeat: boolean }> {
  if (!token) return { answer: await ingest(), isRepeat: false }
  const key = `${sessionKey}\n${token}\n${createHash('sha256').update(sample).digest('base64url')}`
  const now = Date.now()
  const kept = used.get(key) as Kept<T> | undefined
  if (kept && now - kept.at < KEEP_MS) return { answer: await kept.answer, isRepeat: true }
  const answer = ingest()
  used.set(key, { at: now, answer })
  while (used.size > MAX_KEPT) used.delete(used.keys().next().value!)
  answer.catch(() => used.delete(key))
  return { answer: await answer, isRepeat: false }
}
