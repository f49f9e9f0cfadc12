/** A Counts panel as the loader sends it: points of one or more series over the same times (ms, UTC). */
export type SeriesPanelData = {
  id: string
  title: string
  description: string
  /** What one value counts, e.g. "requests". */
  unit: string
  times: number[]
  series: { name: string; values: number[] }[]
  total: number
  /** The catalogue message when the panel's data could not be read. */
  error: string | null
}

/** "2026-11-22 00:14" (or with seconds): a UTC time for a table cell under a "(UTC)" header. */
export function utcCell(ms: number, withSeconds = false): string {
  const iso = new Date(ms).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, withSeconds ? 19 : 16)}`
}
