/** Query history in the browser's localStorage: the last 20 distinct statements, newest first. */
const KEY = 'cc-query-history'
const LIMIT = 20

export type HistoryEntry = { sql: string; at: string }

export function readHistory(): HistoryEntry[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]')
    if (!Array.isArray(value)) return []
    return value.filter((entry): entry is HistoryEntry => typeof entry?.sql === 'string' && typeof entry?.at === 'string').slice(0, LIMIT)
  } catch {
    return []
  }
}

export function addToHistory(sql: string): HistoryEntry[] {
  const trimmed = sql.trim()
  if (!trimmed) return readHistory()
  const entries = [{ sql: trimmed, at: new Date().toISOString() }, ...readHistory().filter((entry) => entry.sql !== trimmed)].slice(0, LIMIT)
  try {
    window.localStorage.setItem(KEY, JSON.stringify(entries))
  } catch {
    // Storage full or blocked: history is a convenience only.
  }
  return entries
}
