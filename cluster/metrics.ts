/**
 * The cluster's own counters, kept per service in 10-second buckets for the last 24 hours, which is
 * what the Prometheus-style `query_range` endpoint reads.
 */
import { currentPool } from './pool-context'

export const BUCKET_MS = 10_000
const KEEP_MS = 24 * 3600_000

export interface Sample {
  t: number // bucket start, ms
  value: number
}

export class Metrics {
  private series = new Map<string, { name: string; labels: Record<string, string>; buckets: Map<number, number> }>()

  /**
   * Adds `value` to counter `name` with `labels` in the current bucket; a counter counted while a
   * pool's work runs (see pool-context.ts) is labelled with that pool unless it names one.
   */
  inc(name: string, given: Record<string, string>, value = 1, at = Date.now()) {
    const pool = currentPool()
    const labels = pool && given.pool === undefined ? { ...given, pool } : given
    const key = seriesKey(name, labels)
    let s = this.series.get(key)
    if (!s) this.series.set(key, (s = { name, labels, buckets: new Map() }))
    const t = Math.floor(at / BUCKET_MS) * BUCKET_MS
    s.buckets.set(t, (s.buckets.get(t) ?? 0) + value)
    if (s.buckets.size > KEEP_MS / BUCKET_MS + 10) {
      for (const k of s.buckets.keys()) if (k < at - KEEP_MS) s.buckets.delete(k)
    }
  }

  /** Every series of counter `name` whose labels include `match`. */
  select(name: string, match: Record<string, string> = {}) {
    return [...this.series.values()]
      .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
      .map((s) => ({ labels: s.labels, buckets: s.buckets }))
  }

  names(): string[] {
    return [...new Set([...this.series.values()].map((s) => s.name))]
  }
}

/** A series' identity: its name and its labels in name order (built by hand: every request counts twice or more). */
function seriesKey(name: string, labels: Record<string, string>): string {
  const names = Object.keys(labels)
  if (names.length > 1) names.sort()
  let key = name
  for (const label of names) key += `\u0000${label}\u0001${labels[label]}`
  return key
}
