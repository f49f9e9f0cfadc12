/**
 * The nearest-rank percentile of an ascending list: the smallest value with at least `p` % of the
 * list at or below it (p99 of 1,000 has ten slower than it). NaN for an empty list.
 */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
